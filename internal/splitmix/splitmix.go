// Package splitmix is the splitmix64 generator: a fixed, tiny algorithm,
// so a seed gives the same stream on every machine and Go version (the
// bench's sample files, the campaign's mutants), unlike math/rand's
// derived methods, which are not promised to stay.
package splitmix

// Source is a splitmix64 stream; its zero value is the stream of seed 0.
type Source struct{ state uint64 }

// New returns the stream of seed.
func New(seed uint64) Source { return Source{state: seed} }

// Next returns the next 64 bits.
func (s *Source) Next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
