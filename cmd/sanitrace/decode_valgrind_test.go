package main

import (
	"path/filepath"
	"testing"
)

// TestDecodeValgrindPIE: Valgrind's "??? (in prog)" frames of a stripped
// position-independent executable resolve through --binary-dir with the
// unstripped twin (same build-id), placed at the base Valgrind maps a PIE
// at; a shared library's frame, whose base the log does not give, stays as
// printed. The answers are addr2line's for the same offsets.
func TestDecodeValgrindPIE(t *testing.T) {
	pastes := filepath.Join(repoRoot, "testdata", "samples", "pastes")
	dir := t.TempDir()
	gunzipTo(t, filepath.Join(pastes, "bin", "memcheck-pie.gz"), filepath.Join(dir, "memcheck-stripped"), 0o755)
	log := filepath.Join(pastes, "made-valgrind-memcheck-stripped.log")
	out, errs, code := runCLI(t, "", "decode", "--format=json", "--binary-dir", dir, log)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	r := parseDecodeJSON(t, out).Reports[0]
	type want struct{ function, file string }
	for si, ws := range [][]want{
		{{"read_at", "/build/ci/samples/src/valgrind/memcheck.c"}, {"main", "/build/ci/samples/src/valgrind/memcheck.c"}},
		{{"malloc", ""}, {"make_pair", "/build/ci/samples/src/valgrind/memcheck.c"}, {"main", "/build/ci/samples/src/valgrind/memcheck.c"}},
	} {
		fs := r.Stacks[si].Frames
		for fi, w := range ws {
			f := fs[fi]
			if f.Function == nil || *f.Function != w.function || w.file != "" && (f.File == nil || *f.File != w.file) {
				t.Errorf("stack %d frame %d: %+v; want %s in %s", si, fi, f, w.function, w.file)
			}
		}
	}
	if f := r.Stacks[1].Frames[0]; f.Symbolized == "sanitrace" {
		t.Errorf("the shared library's frame was resolved: %+v", f)
	}
}
