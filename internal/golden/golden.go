// Package golden compares test output with golden files under the
// repository's testdata/golden/<area>/ and rewrites them when a test runs
// with -update. Goldens of the symbolizer faces and the CFI dump are
// recorded from the reference tools (Want gives their output); the others
// are sanitrace's own output, checked by eye once and then guarding it.
//
// The -update flag is defined here, once for every test binary that
// imports the package.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (from the reference tools where a test records them)")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Dir is testdata/golden/<area> of the repository, found from this
// package's own source, so a test in any directory names goldens alike.
func Dir(area string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "testdata", "golden", area)
}

// Text is what a golden holds: a string or bytes.
type Text interface{ ~string | ~[]byte }

// Check compares got with the golden file at path; with -update it first
// writes got there.
func Check[T Text](t testing.TB, path string, got T) {
	t.Helper()
	CheckWant(t, path, got, func() T { return got })
}

// CheckWant compares got with the golden file at path; with -update it
// first writes want(), the reference's output, there.
func CheckWant[T Text](t testing.TB, path string, got T, want func() T) {
	t.Helper()
	b := Read(t, path, want)
	if string(got) != string(b) {
		t.Errorf("output differs from %s (%d bytes, golden %d; go test -update rewrites it after checking)\n%s",
			path, len(got), len(b), FirstDiff(string(b), string(got)))
	}
}

// Read returns the golden file at path; with -update it first writes
// record() there. A missing golden fails the test.
func Read[T Text](t testing.TB, path string, record func() T) T {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(record()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %v (go test -update writes it)", err)
	}
	return T(b)
}

// FirstDiff shows the first line where got differs from want, or "" when
// they are equal.
func FirstDiff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, wl, gl)
		}
	}
	return "same lines, different bytes"
}

// Table reads a table golden: a row a line, n fields apart by tabs. Lines
// that begin with "#" are its comments, returned apart; empty lines are
// skipped. name names the table when a row is wrong.
func Table(tb testing.TB, name string, data []byte, n int) (comments []string, rows [][]string) {
	tb.Helper()
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			comments = append(comments, line)
		default:
			f := strings.Split(line, "\t")
			if len(f) != n {
				tb.Fatalf("%s:%d: %d tab-separated fields, want %d", name, i+1, len(f), n)
			}
			rows = append(rows, f)
		}
	}
	return comments, rows
}
