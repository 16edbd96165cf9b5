package dwarf

import "math/bits"

// sortedKey is what a BucketIndex indexes: addresses, or offsets in a unit.
type sortedKey interface{ ~uint32 | ~uint64 }

// A BucketIndex answers UpperBound over one sorted array of keys in about
// two cache misses where a binary search over a cold array takes one a
// step: the keys' range is cut into buckets of 2^shift, about two keys a
// bucket, and first[b] is the index of the first key at or above bucket
// b's start. A search then reads first[b] and first[b+1] (one line) and
// searches the few keys between them.
type BucketIndex[K sortedKey] struct {
	base  K
	shift uint
	first []uint32
}

// An AddrIndex indexes addresses: a unit's function begins, a symbol
// table's addresses.
type AddrIndex = BucketIndex[uint64]

// NewAddrIndex indexes addrs, sorted.
func NewAddrIndex(addrs []uint64) AddrIndex { return newBucketIndex(addrs) }

// newBucketIndex indexes keys, sorted, about two a bucket; an array too
// small to gain from an index, or too large for 32-bit indexes, gets the
// zero BucketIndex, whose UpperBound is a binary search.
func newBucketIndex[K sortedKey](keys []K) BucketIndex[K] {
	if len(keys) < 64 || len(keys) >= 1<<31 {
		return BucketIndex[K]{}
	}
	x, nb := bucketShape(keys[0], keys[len(keys)-1], len(keys), 2)
	i := 0
	for b := range nb - 1 {
		start := uint64(x.base) + uint64(b)<<x.shift // at most the last key
		for i < len(keys) && uint64(keys[i]) < start {
			i++
		}
		x.first[b] = uint32(i)
	}
	return x
}

// bucketShape returns the index of n keys from first to last, about per a
// bucket, with its buckets' room made and the last one's entry set (the
// bucket after the last key's, which may lie at 2^64): the caller fills
// first[0:nb-1] from its keys.
func bucketShape[K sortedKey](first, last K, n, per int) (x BucketIndex[K], nb int) {
	span := uint64(last - first)
	// The smallest shift that makes at most n/per buckets.
	shift := uint(0)
	if buckets := uint64(max(n/per, 1)); span >= buckets {
		shift = uint(bits.Len64(span / buckets))
	}
	nb = int(span>>shift) + 2
	x = BucketIndex[K]{base: first, shift: shift, first: make([]uint32, nb)}
	x.first[nb-1] = uint32(n)
	return x, nb
}

// bucket returns the keys lo..hi-1 (of the ones x indexes, x not the zero
// BucketIndex) among which the first key above v may lie: every key
// before lo is at or below v, every key from hi on above it.
func (x *BucketIndex[K]) bucket(v K) (lo, hi int) {
	if v < x.base {
		return 0, 0
	}
	last := len(x.first) - 1
	if b := uint64(v-x.base) >> x.shift; b < uint64(last) {
		return int(x.first[b]), int(x.first[b+1])
	}
	return int(x.first[last]), int(x.first[last])
}

// UpperBound returns the index of the first of keys, the array x indexes,
// above v: upperBound(keys, v).
func (x *BucketIndex[K]) UpperBound(keys []K, v K) int {
	if x.first == nil {
		return upperBound(keys, v)
	}
	lo, hi := x.bucket(v)
	return lo + upperBound(keys[lo:hi], v)
}

// scanBelow: a search over a sorted array binary searches until at most
// this many elements are left, then scans them. The scan reads their
// cache lines at once; each step of a binary search waits for the line
// the step before chose, and a lookup's arrays are rarely in cache.
const scanBelow = 8

// upperBound returns the index of the first of keys, sorted, above v
// (len(keys) when none is): sort.Search's answer.
func upperBound[K sortedKey](keys []K, v K) int {
	lo, hi := 0, len(keys)
	for hi-lo > scanBelow {
		h := int(uint(lo+hi) >> 1)
		if keys[h] > v {
			hi = h
		} else {
			lo = h + 1
		}
	}
	for lo < hi && keys[lo] <= v {
		lo++
	}
	return lo
}
