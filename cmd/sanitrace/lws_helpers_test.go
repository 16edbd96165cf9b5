package main

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// lwsShared returns ../shared/lws (or $SANITRACE_SHARED/lws) relative to
// the module root, skipping the test when it is absent.
func lwsShared(t *testing.T) string {
	t.Helper()
	return filepath.Dir(sharedtest.Dir(t, "lws", "heapmap-expected.json"))
}
