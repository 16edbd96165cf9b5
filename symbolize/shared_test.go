package symbolize

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

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
