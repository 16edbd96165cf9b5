package symbolize

import (
	"sort"
	"testing"
)

// TestSymtabAfter checks the symbol search that scans its last
// candidates against sort.Search, over tables of every size up to 40
// and one of 1,000, with runs of aliases, at every address around them.
func TestSymtabAfter(t *testing.T) {
	for _, n := range append([]int{1000}, func() []int {
		var ns []int
		for n := 0; n <= 40; n++ {
			ns = append(ns, n)
		}
		return ns
	}()...) {
		var tab symtab
		addr := uint64(0x1000)
		for i := 0; i < n; i++ {
			tab.syms = append(tab.syms, symbol{addr: addr, size: 3})
			if i%5 != 0 { // every fifth symbol an alias of the next
				addr += uint64(1 + i%7)
			}
		}
		for a := uint64(0xff0); a <= addr+2; a++ {
			want := sort.Search(len(tab.syms), func(i int) bool { return tab.syms[i].addr > a })
			if got := tab.after(a); got != want {
				t.Fatalf("%d symbols: after(%#x) = %d, want %d", n, a, got, want)
			}
		}
	}
}
