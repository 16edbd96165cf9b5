package symbolize

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// sharedDir returns the shared reference tree (../shared from the module
// root, or $SANITRACE_SHARED) or skips the test.
func sharedDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("SANITRACE_SHARED"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(d, "corpus")); err != nil {
		t.Skipf("shared reference tree not found at %s (set SANITRACE_SHARED): %v", d, err)
	}
	return d
}

// fixture returns the path of a committed fixture under testdata/elf.
func fixture(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "testdata", "elf", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture %s missing: %v", p, err)
	}
	return p
}

// noDebugDirs is Options under which no debug-file directory is searched,
// so answers do not depend on what the machine has installed.
func noDebugDirs() *Options {
	return &Options{Finder: &debuginfo.Finder{DebugDirs: []string{}}}
}
