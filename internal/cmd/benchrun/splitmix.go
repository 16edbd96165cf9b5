package main

import "github.com/sanitrace/sanitrace/internal/splitmix"

// splitMix64 is the generator behind every sample the bench draws
// (addresses, log layout): a fixed, tiny algorithm, so a seed gives the
// same files on every machine and Go version, and ../shared/bench's
// Python generator gives the same addresses for the same binary and seed.
type splitMix64 struct{ splitmix.Source }

func newSplitMix64(seed uint64) splitMix64 { return splitMix64{splitmix.New(seed)} }

func (s *splitMix64) next() uint64 { return s.Next() }

// below draws uniformly from [0, n), n > 0, rejecting the top values that
// would bias a plain modulo.
func (s *splitMix64) below(n uint64) uint64 {
	const max = ^uint64(0)
	limit := max - max%n
	for {
		if r := s.next(); r < limit {
			return r % n
		}
	}
}
