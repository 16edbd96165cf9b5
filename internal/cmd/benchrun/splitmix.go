package main

// splitMix64 is the generator behind every sample the bench draws
// (addresses, log layout): a fixed, tiny algorithm, so a seed gives the
// same files on every machine and Go version, and ../shared/bench's
// Python generator gives the same addresses for the same binary and seed.
type splitMix64 struct{ state uint64 }

func (s *splitMix64) next() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

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
