// Package reftool runs the reference tools that sanitrace is compared with
// in tests (llvm-symbolizer 14, GNU addr2line and readelf 2.40, gdb, gcc,
// clang), skipping a test with the reason when one is not installed.
package reftool

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Need returns the path of the tool name, or skips the test.
func Need(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed, so the comparison with it cannot run: %v", name, err)
	}
	return p
}

// Run runs tool with args and stdin and returns what it printed and its
// exit code; a tool that cannot be started fails the test. The llvm tools
// read options from the environment (LLVM_SYMBOLIZER_OPTS), which is
// cleared so that the answers depend on the arguments alone.
func Run(t testing.TB, tool string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "LLVM_SYMBOLIZER_OPTS=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", tool, err)
	}
	return o.String(), e.String(), code
}
