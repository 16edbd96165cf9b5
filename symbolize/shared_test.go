package symbolize

import (
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
