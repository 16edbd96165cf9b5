package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCutHexTailAsLastIndex: cutHexTail finds what searching for the last
// tag and checking the hex digits after it found (the code it replaced).
func TestCutHexTailAsLastIndex(t *testing.T) {
	lastIndex := func(s, tag string) (string, string, bool) {
		i := strings.LastIndex(s, tag)
		if i < 0 || i+len(tag) == len(s) || !allHex(s[i+len(tag):]) {
			return s, "", false
		}
		return s[:i], s[i+len(tag):], true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"+0x", " (BuildId: ", "0", "a", "F", "x", "+", " ", "(", ")", "g", "BuildId:", "0x"}
	for _, tag := range []string{"+0x", " (BuildId: "} {
		for range 200000 {
			var b strings.Builder
			for range rng.IntN(8) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			h1, x1, ok1 := cutHexTail(s, tag)
			h2, x2, ok2 := lastIndex(s, tag)
			if h1 != h2 || x1 != x2 || ok1 != ok2 {
				t.Fatalf("cutHexTail(%q, %q) = %q, %q, %v; LastIndex gives %q, %q, %v", s, tag, h1, x1, ok1, h2, x2, ok2)
			}
		}
	}
}
