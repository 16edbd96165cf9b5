// Package demanglecorpus reads testdata/golden/symbolize/demangle-names.txt,
// the recorded corpus of real mangled names with what llvm-cxxfilt 14,
// binutils 2.40 c++filt -i (addr2line -C) and llvm-cxxfilt 19 print for
// each. Tests of symbolize (the faces' demangling) and of its cxxfilt
// package (both demangling paths) read it through here.
//
// The package is a leaf: it knows the file's format, not the demanglers.
package demanglecorpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// Path is the corpus file. TestDemangleCorpus (./symbolize) rewrites its
// reference columns from the installed tools with -update.
var Path = filepath.Join(golden.Dir("symbolize"), "demangle-names.txt")

// Case is one line: a mangled name and the three tools' outputs.
type Case struct {
	Name, LLVM14, GNU, LLVM19 string
}

// Read reads the corpus: its "#" comment lines and its cases, in order.
func Read(tb testing.TB) (header []string, cases []Case) {
	tb.Helper()
	data, err := os.ReadFile(Path)
	if err != nil {
		tb.Fatalf("read %s: %v", Path, err)
	}
	header, rows := golden.Table(tb, Path, data, 4) // mangled, llvm 14, gnu, llvm 19
	for _, r := range rows {
		cases = append(cases, Case{r[0], r[1], r[2], r[3]})
	}
	return header, cases
}
