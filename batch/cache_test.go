package batch

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/modcache"
)

// TestCacheBound: under the smallest bound (--cache-size=0) the workers'
// cache closes each module once no report holds it, and opens it again
// for the next report that names it; the document is the one every module
// kept open gives, byte for byte.
func TestCacheBound(t *testing.T) {
	// The fixtures twice (as a directory and as an archive): the system
	// libraries their logs name are asked for again after other reports.
	in := []string{fixtureDir, tarGz(t, fixtureDir)}
	run := func(maxBytes int64) (string, map[string]int) {
		var mu sync.Mutex
		opens := make(map[string]int)
		doc, err := Run(in, Options{Jobs: 2, Symbolize: true, CacheBytes: maxBytes, opened: func(key string) {
			mu.Lock()
			opens[key]++
			mu.Unlock()
		}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(doc, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b), opens
	}
	want, opens := run(0)
	for key, n := range opens {
		if n != 1 {
			t.Errorf("default bound: %s opened %d times", key, n)
		}
	}
	if !strings.Contains(want, `"symbolized": "sanitrace"`) {
		t.Fatalf("no frame was symbolized: the run tests nothing")
	}
	got, tiny := run(modcache.Bound(0))
	if got != want {
		t.Errorf("--cache-size=0: the document differs:\n%s", golden.FirstDiff(want, got))
	}
	again := 0
	for _, n := range tiny {
		if n > 1 {
			again++
		}
	}
	if again == 0 {
		t.Errorf("--cache-size=0: no module was opened again (%v)", tiny)
	}
	t.Logf("--cache-size=0: %d of %d modules opened again", again, len(tiny))
}
