package symbolize

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestSortSymbols: sortSymbols orders a table as a stable sort by
// (address, size) does, on tables with many aliases and equal sizes.
func TestSortSymbols(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for iter := 0; iter < 500; iter++ {
		n := r.Intn(300)
		if iter%5 == 0 {
			n = 256 + r.Intn(3000)
		}
		syms, addrs := make([]symbol, n), make([]uint64, n)
		for i := range syms {
			addrs[i] = uint64(r.Intn(1 + n/4))
			syms[i] = symbol{size: uint64(r.Intn(3)), name: fmt.Sprint("s", i), order: int32(i)}
			if iter%3 == 0 {
				// Addresses and sizes of every magnitude.
				addrs[i], syms[i].size = r.Uint64()>>uint(r.Intn(64)), r.Uint64()>>uint(r.Intn(64))
				if r.Intn(4) == 0 && i > 0 {
					addrs[i] = addrs[i-1]
				}
			}
		}
		want := make([]symAt, n)
		for i := range syms {
			want[i] = symAt{&symbol{size: syms[i].size, name: syms[i].name}, addrs[i]}
		}
		slices.SortStableFunc(want, func(a, b symAt) int {
			if c := cmp.Compare(a.addr, b.addr); c != 0 {
				return c
			}
			return cmp.Compare(a.size, b.size)
		})
		sortSymbols(syms, addrs)
		for i := range want {
			if syms[i].name != want[i].name || addrs[i] != want[i].addr {
				t.Fatalf("%d symbols: sorted differently", n)
			}
		}
	}
}
