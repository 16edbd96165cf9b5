// Package demanglecorpus reads testdata/golden/symbolize/demangle-names.txt,
// the recorded corpus of real mangled names with what llvm-cxxfilt 14,
// binutils 2.40 c++filt -i (addr2line -C) and llvm-cxxfilt 19 print for
// each. Tests of symbolize (the faces' demangling) and of its cxxfilt
// package (both demangling paths) read it through here.
//
// The package is a leaf: it knows the file's format, not the demanglers.
package demanglecorpus

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
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
	f, err := os.Open(Path)
	if err != nil {
		tb.Fatalf("open %s: %v", Path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			header = append(header, sc.Text())
			continue
		}
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 4 {
			tb.Fatalf("%s:%d: %d fields, want 4 (mangled, llvm 14, gnu, llvm 19)", Path, line, len(parts))
		}
		cases = append(cases, Case{parts[0], parts[1], parts[2], parts[3]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", Path, err)
	}
	return header, cases
}
