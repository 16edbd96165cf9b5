package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// lwsRun runs `sanitrace ARGS` in-process (the cobra tree with SetArgs and
// buffers for the streams) and returns stdout, stderr and the exit code.
func lwsRun(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), &out, &errOut)
	root.SetArgs(args)
	code = exitOK
	if err := root.Execute(); err != nil {
		reportError(&errOut, err)
		code = codeOf(err)
		var ee *exitError
		if !errors.As(err, &ee) && code != exitUsage {
			t.Fatalf("unexpected error %v", err)
		}
	}
	return out.String(), errOut.String(), code
}

// lwsShared returns ../shared/lws (or $SANITRACE_SHARED/lws) relative to
// the module root, skipping the test when it is absent.
func lwsShared(t *testing.T) string {
	t.Helper()
	return filepath.Dir(sharedtest.Dir(t, "lws", "heapmap-expected.json"))
}
