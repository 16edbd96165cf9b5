package symbolize

import (
	"errors"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// noDebugDirs is Options under which no debug-file directory is searched,
// so answers do not depend on what the machine has installed.
func noDebugDirs() *Options {
	return &Options{Finder: &debuginfo.Finder{DebugDirs: []string{}}}
}

// openObject opens path for the rest of the test; an error fails it.
func openObject(tb testing.TB, path string, opts *Options) *Object {
	tb.Helper()
	o, err := Open(path, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { o.Close() })
	return o
}

// symbolizeNoPanic is Symbolize for fuzzers and robustness tests: a panic
// under the lookup, which Symbolize turns into an ErrInternal error,
// fails the test (the decoders must return errors, not panic).
func symbolizeNoPanic(t *testing.T, o *Object, addr uint64, opts LookupOptions) []Frame {
	t.Helper()
	fr, err := o.Symbolize(addr, opts)
	if errors.Is(err, ErrInternal) {
		t.Fatal(err)
	}
	return fr
}
