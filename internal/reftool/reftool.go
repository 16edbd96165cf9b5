// Package reftool runs the reference tools that sanitrace is compared with
// in tests (llvm-symbolizer 14, GNU addr2line and readelf 2.40, gdb, gcc,
// clang), skipping a test with the reason when one is not installed.
package reftool

import (
	"bytes"
	"errors"
	"fmt"
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

// Installed reports whether the tool name can be run, for tests that
// check against it only when it is there.
func Installed(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// NeedFor is Need where what the test loses without the tool is not a
// comparison with it (a fixture it builds, a terminal, a second
// reference): why says what, in the skip message.
func NeedFor(t testing.TB, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (%v): %s", name, err, why)
	}
	return p
}

// Run runs tool with args and stdin and returns what it printed and its
// exit code; a tool that cannot be started fails the test. The llvm tools
// read options from the environment (LLVM_SYMBOLIZER_OPTS), which is
// cleared so that the answers depend on the arguments alone.
func Run(t testing.TB, tool string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	return RunAs(t, tool, tool, args, stdin)
}

// RunAs is Run with argv[0] set to name, for the tools that name
// themselves by it in messages (binutils).
func RunAs(t testing.TB, name, tool string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Args[0] = name
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

// LLVMChains asks llvm-symbolizer (--inlines --demangle) about addrs in bin
// and returns each address's inline chain, innermost first, as "function
// file:line:col" strings. A missing llvm-symbolizer skips the test.
func LLVMChains(t testing.TB, bin string, addrs []uint64) [][]string {
	t.Helper()
	llvm := Need(t, "llvm-symbolizer")
	if len(addrs) == 0 {
		return nil
	}
	var in strings.Builder
	for _, a := range addrs {
		fmt.Fprintf(&in, "%#x\n", a)
	}
	out, stderr, code := Run(t, llvm, []string{"--obj=" + bin, "--inlines", "--demangle"}, in.String())
	if code != 0 {
		t.Fatalf("llvm-symbolizer: exit %d: %s", code, stderr)
	}
	var res [][]string
	for _, block := range strings.Split(strings.TrimSpace(out), "\n\n") {
		ls := strings.Split(block, "\n")
		var chain []string
		for i := 0; i+1 < len(ls); i += 2 {
			chain = append(chain, ls[i]+" "+ls[i+1])
		}
		res = append(res, chain)
	}
	if len(res) != len(addrs) {
		t.Fatalf("llvm-symbolizer answered %d of %d addresses", len(res), len(addrs))
	}
	return res
}
