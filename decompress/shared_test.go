package decompress

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// sharedLWS returns the shared lws reference directory (../shared/lws from
// the module root, or $SANITRACE_SHARED/lws) and skips the test when it is
// absent.
func sharedLWS(t testing.TB) string {
	t.Helper()
	return filepath.Dir(sharedtest.Dir(t, "lws", "vectors.jsonl"))
}
