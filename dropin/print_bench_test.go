package dropin

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/symbolize"
)

// BenchmarkOutput measures formatting one answer of three frames (two
// inlined) the way each face prints it, into a discarded writer: the
// cost per answer of the output path, without lookups. C++ names are
// long (cpp-heavy's average 800 bytes), hence the one of 600 here.
func BenchmarkOutput(b *testing.B) {
	long := "std::_Rb_tree<" + strings.Repeat("corpus::Key<int, std::allocator<int> >, ", 14) + "int>::_M_insert_unique(int const&)"
	frames := []symbolize.Frame{
		{Function: long, File: "/usr/include/c++/12/bits/stl_tree.h", Line: 2110, Column: 7},
		{Function: "corpus::exercise_map<int>(int)", File: "/build/ci/src/containers.cpp", Line: 341, Column: 19, Discriminator: 2},
		{Function: "main", File: "/build/ci/src/main.cpp", Line: 12, Column: 3},
	}
	r := request{module: "bin", addr: 0x401234, hasAddr: true}
	for _, c := range []struct {
		name string
		cfg  printConfig
	}{
		{"llvm", printConfig{style: styleLLVM, functions: true}},
		{"gnu", printConfig{style: styleGNU, functions: true}},
		{"json", printConfig{style: styleJSON, functions: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := newPrinter(c.cfg, io.Discard, io.Discard)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p.code(r, frames)
			}
		})
	}
}

// BenchmarkParseQuery measures parsing one stdin query line, as a batch
// does for each line on one goroutine before its workers start: a hex
// address, the module from --obj (per op: one line).
func BenchmarkParseQuery(b *testing.B) {
	lines := make([]string, 1024)
	for i := range lines {
		lines[i] = "0x" + strconv.FormatUint(uint64(0x400000+i*7919), 16)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := parseQuery(stripNewlines(lines[i%len(lines)]), "obj"); !ok {
			b.Fatal(lines[i%len(lines)])
		}
	}
}
