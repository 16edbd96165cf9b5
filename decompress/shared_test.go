package decompress

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedLWS returns the shared lws reference directory (../shared/lws from
// the module root, or $SANITRACE_SHARED/lws) and skips the test when it is
// absent.
func sharedLWS(t testing.TB) string {
	t.Helper()
	root := os.Getenv("SANITRACE_SHARED")
	if root == "" {
		root = filepath.Join("..", "..", "shared")
	}
	dir := filepath.Join(root, "lws")
	if _, err := os.Stat(filepath.Join(dir, "vectors.jsonl")); err != nil {
		t.Skipf("shared lws vectors not available (%v); set SANITRACE_SHARED to run against them", err)
	}
	return dir
}
