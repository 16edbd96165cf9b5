// Package mutate derives the mutants of the reliability campaign
// (internal/cmd/campaign) from seed files: byte edits, line edits for
// text, splices of another seed, and structured tweaks of the integer
// fields of ELF headers, notes, DWARF units and CFI entries. A mutant is a
// function of its seed and of a random stream seeded by a name, so a
// finding is reproduced from (kind, seed, mutant number) alone.
package mutate

import (
	"hash/fnv"

	"github.com/sanitrace/sanitrace/internal/splitmix"
)

// Rand is a splitmix64 stream: small, fast and the same on every Go
// version and platform (math/rand's derived methods are not promised to
// stay), which keeps a finding's mutant reproducible from its numbers.
type Rand struct{ src splitmix.Source }

// NewRand returns the stream named by parts: the same parts give the same
// stream.
func NewRand(parts ...string) *Rand {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return &Rand{src: splitmix.New(h.Sum64())}
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 { return r.src.Next() }

// Intn returns a number in [0, n); n <= 0 gives 0. The modulo bias is
// far below what a campaign could notice.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.Uint64() % uint64(n))
}

// Range returns a number in [lo, hi]; hi < lo gives lo.
func (r *Rand) Range(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.Intn(hi-lo+1)
}

// Percent reports true p times in a hundred.
func (r *Rand) Percent(p int) bool { return r.Intn(100) < p }

// Small returns a length in [1, max] that favours small values: half of
// them are at most 8, so that most edits stay local.
func (r *Rand) Small(max int) int {
	if max < 1 {
		return 1
	}
	if r.Percent(50) {
		return r.Range(1, min(8, max))
	}
	return r.Range(1, max)
}
