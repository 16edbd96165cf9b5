// Package sharedtest locates the project's reference material for tests:
// the ../shared tree beside the checkout (real sanitizer logs and binaries,
// llvm-symbolizer and addr2line answers, lws vectors), or wherever
// $SANITRACE_SHARED points. It is absent on a user's clone, so every test
// that needs it skips, saying why.
package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// Dir returns the absolute path of elem inside the shared tree, skipping the
// test when that path does not exist.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, err := Find(elem...)
	if err != nil {
		tb.Skipf("shared reference material not available (set SANITRACE_SHARED or put it at ../shared): %v", err)
	}
	return p
}

// Find returns the absolute path of elem inside the shared tree, or an
// error when it does not exist: for tests that fall back to the project's
// own fixtures instead of skipping.
func Find(elem ...string) (string, error) {
	root := os.Getenv("SANITRACE_SHARED")
	if root == "" {
		mod, err := fixture.Root()
		if err != nil {
			return "", fmt.Errorf("shared reference tree not found: %w", err)
		}
		root = filepath.Join(mod, "..", "shared")
	}
	p, err := filepath.Abs(filepath.Join(append([]string{root}, elem...)...))
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		return "", err
	}
	return p, nil
}
