package campaign

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// sliceN is how many mutants of each kind make test runs: the first ones
// of the full campaign, from the project's own seeds (../shared is left
// out, so that the slice is the same everywhere). Five of each keep the
// slice near 30 s on two cores; the campaign itself runs thousands.
const sliceN = 5

// sliceKnown are findings of the slice that are known and owned
// elsewhere, by class and kind, with why they are let through; the slice
// fails on any other. (Empty is the goal.)
var sliceKnown = map[Class]map[string]string{}

// TestSlice runs the first sliceN mutants of every kind through
// sanitrace (no reference tools) and fails on any finding: a panic, a
// recovered panic, a hang, memory over the bound, invalid JSON, a lost
// report, a raw control byte, a file written.
func TestSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("the campaign's slice builds sanitrace and runs it some hundreds of times")
	}
	root, err := fixture.Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "testdata", "core", "core.gz")); err != nil {
		t.Skipf("fixtures missing: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "sanitrace")
	build := exec.Command("go", "build", "-o", bin, "./cmd/sanitrace")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, k := range Kinds {
		kinds = append(kinds, k.Name)
	}
	state := t.TempDir()
	var progress bytes.Buffer
	states, err := Run(context.Background(), Config{
		Root: root, Sanitrace: bin, Self: self, State: state, N: sliceN, Jobs: 2, Chunk: sliceN,
		Kinds: kinds, Refs: false, Progress: &progress,
		// Generous bounds: go test runs other packages' tests beside this one.
		Limits: Limits{Timeout: 2 * time.Minute, Memory: 512 << 20},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	findings, err := Findings(state, kinds)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range states {
		t.Logf("%s: %d mutants, %d runs in %.0fs", st.Kind, st.Counts.Mutants, st.Counts.Runs, st.Seconds)
		if st.Counts.Mutants != sliceN {
			t.Errorf("%s: %d mutants, want %d", st.Kind, st.Counts.Mutants, sliceN)
		}
	}
	for _, f := range findings {
		if why, ok := sliceKnown[f.Class][f.Kind]; ok {
			t.Logf("known (%s): %s %s %s: %s", why, f.Kind, f.Class, f.Command, f.Detail)
			continue
		}
		t.Errorf("%s: %s in %s (x%d), mutant %d of seed %s (%v): %s\n  reproduce: %s\n  stderr: %.400s",
			f.Kind, f.Class, f.Command, f.Count, f.Mutant, f.Seed, f.Ops, f.Detail, f.Repro, f.Stderr)
	}
	if t.Failed() {
		var tb bytes.Buffer
		Table(&tb, states)
		fmt.Fprint(os.Stderr, tb.String())
	}
}
