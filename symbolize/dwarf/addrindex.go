package dwarf

import "math/bits"

// An AddrIndex answers UpperBound over one sorted array of addresses in
// about two cache misses where a binary search over a cold array takes
// one a step: the addresses' range is cut into buckets of 2^shift bytes,
// about two addresses a bucket, and first[b] is the index of the first
// address at or above bucket b's start. A search then reads first[b] and
// first[b+1] (one line) and searches the few addresses between them.
type AddrIndex struct {
	base  uint64
	shift uint
	first []uint32
}

// NewAddrIndex indexes addrs, sorted; an array too small to gain from an
// index, or too large for 32-bit indexes, gets the zero AddrIndex, whose
// UpperBound is a binary search.
func NewAddrIndex(addrs []uint64) AddrIndex {
	if len(addrs) < 64 || len(addrs) >= 1<<31 {
		return AddrIndex{}
	}
	base, span := addrs[0], addrs[len(addrs)-1]-addrs[0]
	// The smallest shift that makes at most len/2 buckets.
	shift := uint(0)
	if buckets := uint64(len(addrs) / 2); span >= buckets {
		shift = uint(bits.Len64(span / buckets))
	}
	n := int(span>>shift) + 2
	first := make([]uint32, n)
	i := 0
	for b := range n - 1 {
		start := base + uint64(b)<<shift // at most the last address
		for i < len(addrs) && addrs[i] < start {
			i++
		}
		first[b] = uint32(i)
	}
	// The bucket after the last address's (which may lie at 2^64).
	first[n-1] = uint32(len(addrs))
	return AddrIndex{base: base, shift: shift, first: first}
}

// UpperBound returns UpperBound(addrs, pc) for the addrs x indexes.
func (x *AddrIndex) UpperBound(addrs []uint64, pc uint64) int {
	if x.first == nil {
		return UpperBound(addrs, pc)
	}
	if pc < x.base {
		return 0
	}
	b := (pc - x.base) >> x.shift
	if b+1 >= uint64(len(x.first)) {
		return int(x.first[len(x.first)-1]) + UpperBound(addrs[x.first[len(x.first)-1]:], pc)
	}
	// Every address from first[b+1] on is at or above the next bucket's
	// start, above pc; every one before first[b] is below pc.
	lo, hi := int(x.first[b]), int(x.first[b+1])
	return lo + UpperBound(addrs[lo:hi], pc)
}
