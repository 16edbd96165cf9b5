package dropin

import (
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSymbolizeFrameGoldens compares FRAME answers (the locals of the
// function at an address) with llvm-symbolizer 14's, recorded with -update,
// at every covered code address of gcc and clang, C and C++, -O0 and -O2
// fixtures, in the LLVM, GNU (with addresses) and JSON styles.
func TestSymbolizeFrameGoldens(t *testing.T) {
	faceChdir(t)
	fixtures := []struct {
		name             string
		maxFuncs, maxInl int
	}{
		{"c-O0-dw4-nopie", 1000, 30},
		{"c-O2-dw5-pie", 1000, 30},
		{"c-O2-dw4-pie", 1000, 30},
		{"c-O2-dw5-clang", 1000, 30},
		{"libfix.so", 1000, 30},
		{"cxx-O0-dw4-nopie", 40, 10},
		{"cxx-O2-dw5", 40, 10},
		{"cxx-O2-clang-dw4", 40, 10},
		{"rust-legacy-O", 40, 20},
		{"go-trimpath", 60, 20},
	}
	for _, fx := range fixtures {
		bin := faceFixtureDir + "/" + fx.name
		addrs := faceFixtureAddresses(t, bin, fx.maxFuncs, fx.maxInl)
		var in strings.Builder
		for _, a := range faceHexList(addrs, "0x") {
			in.WriteString("FRAME " + bin + " " + a + "\n")
		}
		cases := []struct {
			name string
			args []string
		}{
			{"frame", nil},
			{"frame-gnu-addresses", []string{"--output-style=GNU", "-a"}},
			{"frame-json", []string{"--output-style=JSON"}},
		}
		for _, c := range cases {
			t.Run(strings.ReplaceAll(fx.name, "/", "_")+"/"+c.name, func(t *testing.T) {
				got, _, _ := faceRunFace(t, "llvm-symbolizer", c.args, in.String())
				golden.CheckWant(t, faceGoldenPath("symbolize", fx.name, c.name), got, func() string {
					reftool.Need(t, "llvm-symbolizer")
					out, _, _ := reftool.Run(t, "llvm-symbolizer", c.args, in.String())
					return out
				})
			})
		}
	}
}
