package dropin

import (
	"debug/elf"
	"fmt"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSymbolizeTLS: a thread-local symbol's value is an offset into the TLS
// block, not an address, so DATA and CODE queries at those small numbers
// answer "??" as llvm-symbolizer 14 does (recorded with -update), not the
// TLS variable (stl.cc's tls_total and tls_calls; glibc's in the static
// build).
func TestSymbolizeTLS(t *testing.T) {
	faceChdir(t)
	for _, fixture := range []string{"stl-O2-dw5-pie", "stl-O2-dw5-static"} {
		t.Run(fixture, func(t *testing.T) {
			bin := faceFixtureDir + "/" + fixture
			f, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			syms, err := f.Symbols()
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			var in strings.Builder
			n := 0
			for _, s := range syms {
				if elf.ST_TYPE(s.Info) != elf.STT_TLS || s.Section == elf.SHN_UNDEF {
					continue
				}
				fmt.Fprintf(&in, "DATA %s 0x%x\nCODE %s 0x%x\n", bin, s.Value, bin, s.Value)
				if n++; n == 20 {
					break
				}
			}
			if n < 2 {
				t.Fatalf("%s: %d TLS symbols, want the fixture's two at least", bin, n)
			}
			got, _, _ := faceRunFace(t, "llvm-symbolizer", nil, in.String())
			golden.CheckWant(t, faceGoldenPath("symbolize", fixture, "tls"), got, func() string {
				reftool.Need(t, "llvm-symbolizer")
				out, _, _ := reftool.Run(t, "llvm-symbolizer", nil, in.String())
				return out
			})
		})
	}
}
