package batch

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/batch/artifact"
)

// Shard is the share of the inputs one run takes: shard I of N (1-based).
// The zero Shard takes everything.
type Shard struct{ I, N int }

// ParseShard reads "I/N" as --shard spells it.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N", s)
	}
	return Shard{I: i, N: n}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// takes reports whether the log (or error) with identity id is this
// shard's: FNV-1a of the identity modulo N. The identity does not depend on
// where the inputs lie on a machine, so every machine agrees.
func (s Shard) takes(id string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return int(h.Sum64()%uint64(s.N)) == s.I-1
}

// identity names a source independently of the machine: its path from the
// directory that holds the command-line argument it was reached through
// ("artifacts/x/run.log" whether the argument was "artifacts" or
// "/home/ci/artifacts"), plus its member path.
func identity(arg string, src artifact.Source) string {
	p := src.Path
	if arg != "-" {
		if rel, err := filepath.Rel(filepath.Dir(filepath.Clean(arg)), p); err == nil {
			p = rel
		}
	}
	p = filepath.ToSlash(p)
	if src.Member != "" {
		p += "!/" + src.Member
	}
	return p
}
