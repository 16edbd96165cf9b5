package symbolize

import (
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// TestConcurrentLookups: an Object is safe for concurrent use, including
// the lazy work its first lookups do (line tables, function indexes, .dwo
// files and packages, name caches). Goroutines symbolize the same
// addresses in different orders on one fresh object; every answer must
// equal the one a sequential pass over another object gives (LLVM style:
// the GNU style's answers depend on the query order, as addr2line's do).
// `make test` runs it under the race detector.
func TestConcurrentLookups(t *testing.T) {
	for _, name := range []string{"cxx-O2-dw5", "c-O2-dw5-clang", "c-O2-zlib", "split-dw5/prog", "split-dw5-dwp/prog", "split-dw4/prog"} {
		t.Run(name, func(t *testing.T) {
			path := fx.ELF(t, name)
			addrs := fixtureAddrs(t, path)
			if len(addrs) > 3000 {
				addrs = addrs[:3000]
			}
			opts := []LookupOptions{
				{Inlines: true, Demangle: true},
				{Inlines: true, Demangle: false, RelativeNames: true},
				{Functions: FunctionsShort, Inlines: true},
			}
			// The GNU style is order-dependent by design (bfd's naming
			// state, gnunames.go): it is run for the race detector only.
			gnu := LookupOptions{Inlines: true, Demangle: true, Policy: GNU240}
			seq := openObject(t, path, nil)
			want := map[string][]Frame{}
			for _, a := range addrs {
				for i, o := range opts {
					fr, _ := seq.Symbolize(a, o)
					want[fmt.Sprint(a, i)] = fr
				}
			}
			obj := openObject(t, path, nil)
			var wg sync.WaitGroup
			errs := make(chan string, 8)
			for g := 0; g < 8; g++ {
				wg.Add(1)
				go func(seed int64) {
					defer wg.Done()
					order := rand.New(rand.NewSource(seed)).Perm(len(addrs))
					for _, k := range order {
						a := addrs[k]
						i := k % len(opts)
						obj.Symbolize(a, gnu)
						fr, _ := obj.Symbolize(a, opts[i])
						if !reflect.DeepEqual(fr, want[fmt.Sprint(a, i)]) {
							errs <- fmt.Sprintf("0x%x %+v: concurrent %+v, sequential %+v", a, opts[i], fr, want[fmt.Sprint(a, i)])
							return
						}
					}
				}(int64(g))
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		})
	}
}
