package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/wire"
)

const uafLog = repoRoot + "/testdata/reports/asan_use_after_free_gcc_O0.symbolized.log"

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBatchRules: a rules file takes a frame out of the signature
// (-group) and out of the user frames (-app), after the built-in rules.
func TestBatchRules(t *testing.T) {
	dir := t.TempDir()
	doc := runBatchJSON(t, 1, "batch", "--symbolize=false", uafLog)
	if got, want := doc.Buckets[0].Signature, "AddressSanitizer:heap-use-after-free:session_id|audit|main"; got != want {
		t.Fatalf("without rules: %q, want %q", got, want)
	}
	if doc.Buckets[0].SignatureFrom != "in-app" {
		t.Errorf("signature_from %q", doc.Buckets[0].SignatureFrom)
	}
	rules := writeFile(t, dir, "rules.txt", "# audit is a logging wrapper\nfunction:audit -app -group\n!path:/build/ci/src/** family:native -app\n")
	doc = runBatchJSON(t, 1, "batch", "--symbolize=false", "--rules", rules, uafLog)
	if got, want := doc.Buckets[0].Signature, "AddressSanitizer:heap-use-after-free:session_id|main"; got != want {
		t.Errorf("with rules: %q, want %q", got, want)
	}
	// decode --frames user keeps the in-app frames the rules leave.
	out, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", "--frames", "user", "--rules", rules, uafLog)
	if code != 1 {
		t.Fatalf("decode: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"#0 0x55e04e6e83d1 in session_id", "#1 (1 frame: not in-app)", "#2 0x55e04e6e8465 in main", "#3-#5 (3 frames: libc)"} {
		if !strings.Contains(out, want) {
			t.Errorf("decode --frames user --rules: no %q in\n%s", want, out)
		}
	}

	// Every in-app frame taken away: the signature falls back and says so.
	rules = writeFile(t, dir, "none.txt", "family:native -app\n")
	doc = runBatchJSON(t, 1, "batch", "--symbolize=false", "--rules", rules, uafLog)
	b := doc.Buckets[0]
	if b.SignatureFrom != "fallback" || b.Signature != "AddressSanitizer:heap-use-after-free:session_id|audit|main" {
		t.Errorf("fallback: %q from %q", b.Signature, b.SignatureFrom)
	}
	out, _, _ = runCLI(t, "", "batch", "--symbolize=false", "--format", "text", "--rules", rules, uafLog)
	if !strings.Contains(out, "no in-app frame") {
		t.Errorf("text output does not say the signature fell back:\n%s", out)
	}
}

// TestBatchRulesFamilies: family: makes a rule apply to one producer's
// reports only: a kernel report's and a Go report's signatures change, an
// ASan report's does not.
func TestBatchRulesFamilies(t *testing.T) {
	dir := t.TempDir()
	rules := writeFile(t, dir, "r.rules", "family:kernel function:ring_pop -group\nfamily:go function:main.walk -app\nfamily:kernel,go function:session_id -app\n")
	for _, tc := range []struct{ log, before, after string }{
		{"kernel_kasan_uaf.log", "Kernel:KASAN: slab-use-after-free:ring_pop|ring_drain_work", "Kernel:KASAN: slab-use-after-free:ring_drain_work"},
		{"go_nil_deref.log", "GoPanic:invalid memory address or nil pointer dereference:main.walk|main.main", "GoPanic:invalid memory address or nil pointer dereference:main.main"},
		{"asan_use_after_free_gcc_O0.symbolized.log", "AddressSanitizer:heap-use-after-free:session_id|audit|main", "AddressSanitizer:heap-use-after-free:session_id|audit|main"},
	} {
		log := repoRoot + "/testdata/reports/" + tc.log
		if got := runBatchJSON(t, 1, "batch", "--symbolize=false", log).Buckets[0].Signature; got != tc.before {
			t.Errorf("%s: %q, want %q", tc.log, got, tc.before)
		}
		if got := runBatchJSON(t, 1, "batch", "--symbolize=false", "--rules", rules, log).Buckets[0].Signature; got != tc.after {
			t.Errorf("%s with rules: %q, want %q", tc.log, got, tc.after)
		}
	}
}

// TestBatchRulesErrors: a malformed rules file is a usage error naming the
// file, the line and what is wrong, and nothing is decoded.
func TestBatchRulesErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"function:f -app\nfunction:g app\n", `bad.rules:2: "app" is neither a matcher`},
		{"func:x -app\n", `bad.rules:1: unknown matcher "func:"`},
		{"family:java -app\n", `bad.rules:1: unknown family "java"`},
	} {
		p := writeFile(t, dir, "bad.rules", tc.text)
		for _, cmd := range []string{"batch", "merge", "decode"} {
			out, stderr, code := runCLI(t, "", cmd, "--rules", p, uafLog)
			if code != 2 || out != "" || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", cmd, tc.text, code, out, stderr, tc.want)
			}
		}
	}
	_, stderr, code := runCLI(t, "", "batch", "--rules", filepath.Join(dir, "absent"), uafLog)
	if code != 2 || !strings.Contains(stderr, "--rules: open") {
		t.Errorf("absent file: exit %d, %q", code, stderr)
	}
}

// TestBatchCorrupted: copies of a real ASan log with a frame line lost and
// cut off inside its first stack are flagged corrupted, with the reason,
// in a bucket of their own; the sound log keeps its bucket.
func TestBatchCorrupted(t *testing.T) {
	raw, err := os.ReadFile(uafLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	dir := t.TempDir()
	writeFile(t, dir, "sound.log", text)
	writeFile(t, dir, "lost.log", strings.Replace(text, "    #1 0x55e04e6e83f1 in audit /build/ci/src/use_after_free.c:37\n", "", 1))
	doc := runBatchJSON(t, 1, "batch", "--symbolize=false", dir)
	if len(doc.Buckets) != 2 {
		t.Fatalf("%d buckets, want 2: %+v", len(doc.Buckets), doc.Buckets)
	}
	var corrupt *wire.Bucket
	for i := range doc.Buckets {
		if doc.Buckets[i].Corrupted != "" {
			corrupt = &doc.Buckets[i]
		}
	}
	if corrupt == nil || corrupt.Signature != "corrupted:AddressSanitizer:heap-use-after-free" || corrupt.SignatureFrom != "corrupted" {
		t.Fatalf("no corrupted bucket: %+v", doc.Buckets)
	}
	if want := "frame #2 follows #0 in the first stack: frames are lost"; corrupt.Corrupted != want {
		t.Errorf("reason %q, want %q", corrupt.Corrupted, want)
	}
	r := doc.Reports[corrupt.Reports[0]]
	if !strings.HasSuffix(r.Source.Path, "lost.log") || r.Corrupted == "" {
		t.Errorf("corrupted report %s: %q", r.Source.Path, r.Corrupted)
	}
	out, _, _ := runCLI(t, "", "batch", "--symbolize=false", "--format", "text", dir)
	if !strings.Contains(out, "corrupted: frame #2 follows #0") {
		t.Errorf("text output does not flag the corrupted bucket:\n%s", out)
	}

	// Logs cut off before their first frame: an ASan report after its
	// access line, a Go panic after its goroutine's header.
	goLog, err := os.ReadFile(repoRoot + "/testdata/reports/go_nil_deref.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"asan", strings.Join(strings.SplitAfter(text, "\n")[:3], ""), "the log ends before the report's stack trace"},
		{"go", strings.Join(strings.SplitAfter(string(goLog), "\n")[:4], ""), "the goroutine's traceback has no frames"},
	} {
		p := writeFile(t, t.TempDir(), tc.name+".log", tc.text)
		doc := runBatchJSON(t, 1, "batch", "--symbolize=false", p)
		if len(doc.Buckets) != 1 || doc.Buckets[0].Corrupted != tc.want || !strings.HasPrefix(doc.Buckets[0].Signature, "corrupted:") {
			t.Errorf("%s cut off: buckets %+v, want one corrupted: %q", tc.name, doc.Buckets, tc.want)
		}
	}
}

// TestBatchGroupSimilar: clang -O2 inlines run_hook into main, so the
// stack-use-after-scope of the corpus has two signatures that agree on
// their first two frames; --group similar makes them one bucket and says
// which it joined. merge does the same from the shards.
func TestBatchGroupSimilar(t *testing.T) {
	cases := sharedtest.Dir(t, "corpus", "cases")
	o0 := filepath.Join(cases, "asan_stack_use_after_scope_clang_O0_dw4", "symbolized.log")
	o2 := filepath.Join(cases, "asan_stack_use_after_scope_clang_O2_dw4", "symbolized.log")
	doc := runBatchJSON(t, 1, "batch", "--symbolize=false", o0, o2)
	if len(doc.Buckets) != 2 {
		t.Fatalf("without --group: %d buckets", len(doc.Buckets))
	}
	doc = runBatchJSON(t, 1, "batch", "--symbolize=false", "--group", "similar", o0, o2)
	if len(doc.Buckets) != 1 {
		t.Fatalf("--group similar: %d buckets, want 1", len(doc.Buckets))
	}
	b := doc.Buckets[0]
	if b.Count != 2 || len(b.Merged) != 1 || b.Merged[0].Count != 1 || !strings.HasPrefix(b.Merged[0].Signature, "AddressSanitizer:stack-use-after-scope:area_of|operator()|") {
		t.Errorf("bucket %+v", b)
	}
	for _, r := range doc.Reports {
		if r.Bucket != b.ID {
			t.Errorf("report of %s in bucket %s, want %s", r.Source.Path, r.Bucket, b.ID)
		}
	}
	out, _, _ := runCLI(t, "", "batch", "--symbolize=false", "--group", "similar", "--format", "text", o0, o2)
	if !strings.Contains(out, "joined: "+b.Merged[0].ID) {
		t.Errorf("text output does not name the joined bucket:\n%s", out)
	}
	// A baseline that knows the joined bucket knows the group.
	dir := t.TempDir()
	base, _, _ := runCLI(t, "", "batch", "--symbolize=false", o0)
	bp := writeFile(t, dir, "base.json", base)
	doc = runBatchJSON(t, 0, "batch", "--symbolize=false", "--group", "similar", "--baseline", bp, "--fail-on", "new", o0, o2)
	if doc.Buckets[0].New {
		t.Errorf("bucket new against a baseline holding one of its signatures")
	}
}

// TestBatchWarnings: -q drops the notes about modules, --warnings=summary
// counts them on one line; the document is the same.
func TestBatchWarnings(t *testing.T) {
	// The log names binaries that are not on this machine: one note each.
	log := repoRoot + "/testdata/reports/tsan_race_global_gcc_O0_dw4.unsymbolized.log"
	all, stderrAll, _ := runCLI(t, "", "batch", "--fail-on", "none", log)
	notes := strings.Count(stderrAll, "\n")
	if notes == 0 {
		t.Fatalf("no notes to silence: %q", stderrAll)
	}
	quiet, stderr, code := runCLI(t, "", "batch", "-q", "--fail-on", "none", log)
	if code != 0 || stderr != "" || quiet != all {
		t.Errorf("-q: exit %d, stderr %q", code, stderr)
	}
	sum, stderr, _ := runCLI(t, "", "batch", "--warnings=summary", "--fail-on", "none", log)
	if sum != all || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "note(s) about modules") {
		t.Errorf("--warnings=summary: stderr %q", stderr)
	}
	_, stderr, code = runCLI(t, "", "batch", "-q", "--warnings=summary", log)
	if code != 2 {
		t.Errorf("-q --warnings=summary: exit %d, %q", code, stderr)
	}
}
