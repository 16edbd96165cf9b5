package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestBatchProducerBuckets: the sample kernel, Go and Rust logs bucketed
// from the CLI. Each signature starts at the first frame of the bug's own
// code: past the kernel's reporting, trap, scheduler and entry frames and
// its "? " guesses, past Go's runtime and Rust's panic machinery; an oops
// continues from its register dump's function into its call trace; a Go
// method keeps its receiver. The bucket list (text format, which prints
// each bucket's signature frames) is the golden, checked by eye against
// the logs.
func TestBatchProducerBuckets(t *testing.T) {
	var args []string
	for _, pat := range []string{"kernel_*.log", "go_*.log", "rust_panic.log"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", "reports", pat))
		if err != nil || len(m) == 0 {
			t.Fatalf("no %s in testdata/reports", pat)
		}
		args = append(args, m...)
	}
	stdout, stderr, code := runCLI(t, "", append([]string{"batch", "--format", "text", "--fail-on", "none"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// The paths are the test's own; the golden keeps the logs' names.
	stdout = strings.ReplaceAll(stdout, filepath.Join("..", "..", "testdata", "reports")+string(filepath.Separator), "")
	golden.Check(t, filepath.Join(golden.Dir("batch"), "producers.txt"), stdout)
	for _, bad := range []string{"dump_stack", "__schedule", "runtime.", "rust_begin_unwind", "main. <-"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("a signature holds %q:\n%s", bad, stdout)
		}
	}
}
