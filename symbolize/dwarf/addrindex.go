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

// newBucketIndex indexes keys, sorted; an array too small to gain from an
// index, or too large for 32-bit indexes, gets the zero BucketIndex,
// whose UpperBound is a binary search.
func newBucketIndex[K sortedKey](keys []K) BucketIndex[K] {
	if len(keys) < 64 || len(keys) >= 1<<31 {
		return BucketIndex[K]{}
	}
	base, span := keys[0], uint64(keys[len(keys)-1]-keys[0])
	// The smallest shift that makes at most len/2 buckets.
	shift := uint(0)
	if buckets := uint64(len(keys) / 2); span >= buckets {
		shift = uint(bits.Len64(span / buckets))
	}
	n := int(span>>shift) + 2
	first := make([]uint32, n)
	i := 0
	for b := range n - 1 {
		start := uint64(base) + uint64(b)<<shift // at most the last key
		for i < len(keys) && uint64(keys[i]) < start {
			i++
		}
		first[b] = uint32(i)
	}
	// The bucket after the last key's (which may lie at 2^64).
	first[n-1] = uint32(len(keys))
	return BucketIndex[K]{base: base, shift: shift, first: first}
}

// UpperBound returns the index of the first of keys, the array x indexes,
// above v: upperBound(keys, v).
func (x *BucketIndex[K]) UpperBound(keys []K, v K) int {
	if x.first == nil {
		return upperBound(keys, v)
	}
	if v < x.base {
		return 0
	}
	b := uint64(v-x.base) >> x.shift
	if b+1 >= uint64(len(x.first)) {
		return len(keys)
	}
	// Every key from first[b+1] on is at or above the next bucket's
	// start, above v; every one before first[b] is below v.
	lo, hi := int(x.first[b]), int(x.first[b+1])
	return lo + upperBound(keys[lo:hi], v)
}

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
