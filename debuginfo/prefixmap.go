package debuginfo

import (
	"fmt"
	"strings"
)

// PrefixMap rewrites a path prefix: binaries built or run under From and
// copied to To.
type PrefixMap struct {
	From, To string
}

// ParsePrefixMap parses a FROM=TO flag value.
func ParsePrefixMap(s string) (PrefixMap, error) {
	from, to, ok := strings.Cut(s, "=")
	if !ok || from == "" {
		return PrefixMap{}, fmt.Errorf("prefix map %q: want FROM=TO", s)
	}
	return PrefixMap{From: from, To: to}, nil
}

// Apply rewrites p with the first map whose From is a whole-component
// prefix of p ("/build/ci" matches "/build/ci/x" but not "/build/cix").
func Apply(maps []PrefixMap, p string) (string, bool) {
	for _, m := range maps {
		from := strings.TrimSuffix(m.From, "/")
		if from == "" { // FROM was "/" itself
			from = "/"
		}
		switch {
		case p == from:
			return m.To, true
		case from == "/" && strings.HasPrefix(p, "/"):
			return strings.TrimSuffix(m.To, "/") + p, true
		case strings.HasPrefix(p, from) && p[len(from)] == '/':
			return strings.TrimSuffix(m.To, "/") + p[len(from):], true
		}
	}
	return p, false
}
