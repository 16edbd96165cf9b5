package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/wire"
)

// TestBatchCorpusArtifacts: both logs of every corpus case, as a
// directory, a .tar.gz and a .zip.
func TestBatchCorpusArtifacts(t *testing.T) {
	t.Parallel() // long and self-contained
	checkArtifacts(t, corpusCases(t), regexp.MustCompile(`^/build/ci/src/`))
}

// TestBatchFixtureArtifacts: the same from the committed testdata/batch
// cases, so that the checks run where ../shared is absent.
func TestBatchFixtureArtifacts(t *testing.T) {
	checkArtifacts(t, fixtureCases(t), regexp.MustCompile(`^(/build/batch/)?src/`))
}

// checkArtifacts runs issue 10's checks over cases packed three ways.
// userFile matches the source files of the programs themselves: the
// oracle for "user frames" that does not use sanitrace's classification.
func checkArtifacts(t *testing.T, cases []artifactCase, userFile *regexp.Regexp) {
	tr := buildArtifactTree(t, cases)
	caseOf := make(map[string]artifactCase)
	for _, c := range cases {
		caseOf[c.name] = c
	}
	docs := map[string]*wire.Batch{
		"dir": runBatchJSON(t, 1, "batch", "-j", "2", tr.dir),
		"tgz": runBatchJSON(t, 1, "batch", "-j", "2", tr.tgz),
		"zip": runBatchJSON(t, 1, "batch", "-j", "2", tr.zip),
	}
	for form, doc := range docs {
		if doc.Inputs != len(tr.logs) || len(doc.Errors) != 0 {
			t.Errorf("%s: %d inputs (want %d), errors %v", form, doc.Inputs, len(tr.logs), doc.Errors)
		}
	}

	// Each log's reports equal decode's for that log, in every form.
	want := make(map[string][]string)
	var paths []string
	for _, l := range tr.logs {
		paths = append(paths, filepath.Join(filepath.Dir(tr.dir), l))
	}
	out, stderr, code := runCLI(t, "", append([]string{"decode", "--format", "json"}, paths...)...)
	if code != 1 {
		t.Fatalf("decode: exit %d: %s", code, stderr)
	}
	for _, r := range parseDecodeJSON(t, out).Reports {
		l := r.Input.Name[strings.Index(r.Input.Name, "artifacts/"):]
		want[l] = append(want[l], reportKey(t, r))
	}
	for form, doc := range docs {
		got := make(map[string][]string)
		for _, r := range doc.Reports {
			got[logOf(r)] = append(got[logOf(r)], reportKey(t, r.Report))
		}
		for _, l := range tr.logs {
			if !reflect.DeepEqual(got[l], want[l]) {
				t.Errorf("%s: %s: batch's reports differ from decode's (%d vs %d reports)", form, l, len(got[l]), len(want[l]))
			}
		}
	}

	doc := docs["dir"]
	bucketOf := make(map[string]*wire.Bucket)
	for i := range doc.Buckets {
		bucketOf[doc.Buckets[i].ID] = &doc.Buckets[i]
	}
	// Both runs of one bug share a bucket; different programs never do.
	caseBuckets := make(map[string]map[string]bool)
	bucketPrograms := make(map[string]map[string]bool)
	for _, r := range doc.Reports {
		c := strings.Split(logOf(r), "/")[1]
		if caseBuckets[c] == nil {
			caseBuckets[c] = make(map[string]bool)
		}
		caseBuckets[c][r.Bucket] = true
		if bucketPrograms[r.Bucket] == nil {
			bucketPrograms[r.Bucket] = make(map[string]bool)
		}
		bucketPrograms[r.Bucket][caseOf[c].program] = true
	}
	for c, bs := range caseBuckets {
		if len(bs) != 1 {
			var sigs []string
			for id := range bs {
				sigs = append(sigs, bucketOf[id].Signature)
			}
			t.Errorf("case %s: its two logs fall into %d buckets: %q", c, len(bs), sigs)
		}
	}
	for id, ps := range bucketPrograms {
		if len(ps) > 1 {
			t.Errorf("bucket %s (%s) holds reports of %d programs: %v", id, bucketOf[id].Signature, len(ps), ps)
		}
	}

	// The gcc and clang builds of one program share a bucket exactly when
	// the frames the runtimes symbolized themselves agree: the first three
	// frames in the program's own sources, by unqualified function name.
	type runtimeView struct {
		key      string // tool, kind, frames
		bucket   string
		compiler string
	}
	views := make(map[string][]runtimeView) // program -> one per case
	for _, r := range doc.Reports {
		l := logOf(r)
		if !strings.HasSuffix(l, "/symbolized.log") {
			continue
		}
		var names []string
		if len(r.Stacks) > 0 {
			for _, f := range r.Stacks[0].Frames {
				if f.File == nil || f.Function == nil || !userFile.MatchString(*f.File) || len(names) == 3 {
					continue
				}
				names = append(names, plainName(*f.Function))
			}
		}
		c := caseOf[strings.Split(l, "/")[1]]
		views[c.program] = append(views[c.program], runtimeView{r.Tool + ":" + r.Kind + ":" + strings.Join(names, "|"), r.Bucket,
			compilerRE.FindStringSubmatch(c.name)[1]})
	}
	agree := 0 // pairs of a gcc and a clang build with the same frames
	for prog, vs := range views {
		for i := range vs {
			for j := range i {
				same := vs[i].key == vs[j].key
				if same != (vs[i].bucket == vs[j].bucket) {
					t.Errorf("%s: runtime frames %q and %q, buckets %s and %s", prog, vs[i].key, vs[j].key, vs[i].bucket, vs[j].bucket)
				}
				if same && vs[i].compiler != vs[j].compiler {
					agree++
				}
			}
		}
	}
	if agree == 0 {
		t.Errorf("no gcc and clang build of one program printed the same frames: the check above proved nothing")
	}

	// Sharded runs merge into exactly the unsharded run, in every format.
	tmp := t.TempDir()
	var shards []string
	total := 0
	for i := 1; i <= 3; i++ {
		p := filepath.Join(tmp, "shard"+string(rune('0'+i))+".json")
		out, stderr, code := runCLI(t, "", "batch", "--shard", string(rune('0'+i))+"/3", "--fail-on", "none", "-o", p, tr.tgz)
		if code != 0 || out != "" {
			t.Fatalf("shard %d: exit %d, stdout %q, stderr %s", i, code, out, stderr)
		}
		d := runBatchJSON(t, 0, "merge", p)
		if d.Inputs == 0 || d.Inputs == len(tr.logs) {
			t.Errorf("shard %d/3 took %d of %d logs", i, d.Inputs, len(tr.logs))
		}
		total += d.Inputs
		shards = append(shards, p)
	}
	if total != len(tr.logs) {
		t.Errorf("the shards took %d logs in all, want %d", total, len(tr.logs))
	}
	for _, format := range render.BatchFormats() {
		whole, _, code := runCLI(t, "", "batch", "--format", format, tr.tgz)
		if code != 1 {
			t.Fatalf("batch --format %s: exit %d", format, code)
		}
		merged, stderr, code := runCLI(t, "", append([]string{"merge", "--format", format}, shards...)...)
		if code != 0 {
			t.Fatalf("merge --format %s: exit %d: %s", format, code, stderr)
		}
		if merged != whole {
			t.Errorf("merge --format %s of 3 shards differs from the unsharded run", format)
		}
	}

	// Baseline: a run without one program; against it, exactly that
	// program's buckets are new and --fail-on new fails.
	drop := cases[0].program
	var kept []artifactCase
	for _, c := range cases {
		if c.program != drop {
			kept = append(kept, c)
		}
	}
	old := buildArtifactTree(t, kept)
	base := filepath.Join(tmp, "baseline.json")
	if _, stderr, code := runCLI(t, "", "batch", "--fail-on", "none", "-o", base, old.dir); code != 0 {
		t.Fatalf("baseline run: exit %d: %s", code, stderr)
	}
	gated := runBatchJSON(t, 1, "batch", "--baseline", base, "--fail-on", "new", tr.dir)
	for _, b := range gated.Buckets {
		wantNew := bucketPrograms[b.ID][drop]
		if b.New != wantNew {
			t.Errorf("bucket %s (%s): new = %v, want %v", b.ID, b.Signature, b.New, wantNew)
		}
	}
	if _, _, code := runCLI(t, "", "batch", "--baseline", filepath.Join(tmp, "shard1.json"), "--fail-on", "new", "--format", "text", tr.tgz); code != 1 {
		t.Errorf("against one shard's output as baseline, --fail-on new: exit %d, want 1", code)
	}
	full := filepath.Join(tmp, "full.json")
	runCLI(t, "", "batch", "--fail-on", "none", "-o", full, tr.zip)
	if d := runBatchJSON(t, 0, "batch", "--baseline", full, "--fail-on", "new", tr.dir); countNew(d) != 0 {
		t.Errorf("against its own output as baseline: %d new buckets", countNew(d))
	}
	if _, _, code := runCLI(t, "", "batch", "--fail-on", "none", "--format", "text", tr.dir); code != 0 {
		t.Errorf("--fail-on none: exit %d", code)
	}
	// merge --baseline decides new again, as the run would have.
	if d := runBatchJSON(t, 1, append([]string{"merge", "--baseline", base, "--fail-on", "new"}, shards...)...); !reflect.DeepEqual(newIDs(d), newIDs(gated)) {
		t.Errorf("merge --baseline: new buckets %v, want %v", newIDs(d), newIDs(gated))
	}
}

// plainName is a runtime's function name reduced the simplest way: no
// parameters, no namespaces or classes.
func plainName(fn string) string {
	fn = strings.TrimSuffix(fn, " const")
	if i := strings.LastIndex(fn, "()"); i > 0 && strings.HasSuffix(fn, ")") && strings.HasSuffix(fn[:len(fn)-len("()")], "operator()") {
		fn = fn[:len(fn)-2]
	} else if i := strings.Index(fn, "("); i > 0 && !strings.HasSuffix(fn[:i], "operator") {
		fn = fn[:i]
	}
	if i := strings.LastIndex(fn, "::"); i >= 0 {
		fn = fn[i+2:]
	}
	return fn
}

func countNew(d *wire.Batch) int { return len(newIDs(d)) }

func newIDs(d *wire.Batch) []string {
	var ids []string
	for _, b := range d.Buckets {
		if b.New {
			ids = append(ids, b.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// TestBatchUsage: flag errors exit 2 with one line; a missing input exits
// 2 after the others were processed.
func TestBatchUsage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "run.log")
	os.WriteFile(good, []byte("nothing to see\n"), 0o644)
	for _, args := range [][]string{
		{"batch", "--format", "pdf", good},
		{"batch", "--fail-on", "sometimes", good},
		{"batch", "--shard", "4/3", good},
		{"batch", "--shard", "0/3", good},
		{"batch", "-j", "0", good},
		{"batch", "--max-entry-size", "lots", good},
		{"batch", "--baseline", filepath.Join(dir, "missing.json"), good},
		{"batch"},
		{"merge", filepath.Join(dir, "missing.json")},
		{"merge", good},
	} {
		_, stderr, code := runCLI(t, "", args...)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.HasPrefix(stderr, "sanitrace: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	doc := runBatchJSON(t, 2, "batch", good, filepath.Join(dir, "missing.log"))
	if doc.Inputs != 1 || len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Error, "no such file") {
		t.Errorf("with a missing input: %d inputs, errors %v", doc.Inputs, doc.Errors)
	}
	// A command-line input that cannot be opened: 2 as well (root reads
	// anything); the same file inside a directory input changes nothing.
	if os.Geteuid() != 0 {
		sub := filepath.Join(dir, "sub")
		os.Mkdir(sub, 0o755)
		noperm := filepath.Join(sub, "noperm.log")
		os.WriteFile(noperm, []byte("x\n"), 0)
		if doc := runBatchJSON(t, 2, "batch", good, noperm); doc.Inputs != 1 || len(doc.Errors) != 1 {
			t.Errorf("with an unreadable input: %d inputs, errors %v", doc.Inputs, doc.Errors)
		}
		if doc := runBatchJSON(t, 0, "batch", sub); len(doc.Errors) != 1 {
			t.Errorf("with an unreadable file in a directory: errors %v", doc.Errors)
		}
	}
	if doc := runBatchJSON(t, 0, "batch", good); doc.Inputs != 1 || len(doc.Reports) != 0 {
		t.Errorf("a log without reports: %+v", doc)
	}
	// "-" is stdin, one log.
	log, err := os.ReadFile(filepath.Join(fixtureCases(t)[0].dir, "symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, string(log), "batch", "-")
	if code != 1 || !strings.Contains(out, `"path": "-"`) || !strings.Contains(out, `"count": 1`) {
		t.Errorf("batch -: exit %d, stderr %q\n%.500s", code, stderr, out)
	}
}

// TestBatchProgress: --progress always draws a bar on stderr and leaves
// stdout alone; auto draws none when stderr is no terminal.
func TestBatchProgress(t *testing.T) {
	dir := fixtureCases(t)[0].dir
	out, stderr, code := runCLI(t, "", "batch", "--progress=always", "--format", "text", dir)
	if code != 1 || !strings.Contains(stderr, "decoding logs") || !strings.Contains(stderr, "/2, ") || strings.Contains(out, "decoding logs") {
		t.Errorf("--progress always: exit %d, stderr %q", code, stderr)
	}
	_, stderr, _ = runCLI(t, "", "batch", "--progress=auto", "--format", "text", dir)
	if strings.Contains(stderr, "decoding logs") {
		t.Errorf("--progress auto drew a bar on a pipe: %q", stderr)
	}
	if _, _, code := runCLI(t, "", "batch", "--progress=sometimes", dir); code != 2 {
		t.Errorf("--progress sometimes: exit %d", code)
	}

	// On a terminal, auto draws it: util-linux's script(1) gives the
	// command a pseudo-terminal.
	script := reftool.NeedFor(t, "script", "--progress auto not tried on a terminal")
	exe := buildSanitrace(t)
	outFile := filepath.Join(t.TempDir(), "out.json")
	cmdline := exe + " batch --fail-on none -o " + outFile + " " + dir
	tty, err := exec.Command(script, "-qec", cmdline, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("script -c %q: %v\n%s", cmdline, err, tty)
	}
	// The bar is throttled and cleared at the end: some state of it shows.
	if !regexp.MustCompile(`decoding logs +\d+% \|.*\| \(\d/2, `).Match(tty) {
		t.Errorf("--progress auto on a terminal: no bar in %q", tty)
	}
	if doc, err := os.ReadFile(outFile); err != nil || strings.Contains(string(doc), "decoding logs") {
		t.Errorf("the output file: %v, %.200s", err, doc)
	}
}

// TestBatchDecodeFlags: decode's symbolization flags work in batch as in
// decode: kernel frames against --vmlinux and --modules-dir, libwebsockets
// ~m# records against --obj; --exit-zero forces 0 where 1 was due.
func TestBatchDecodeFlags(t *testing.T) {
	same := func(t *testing.T, log string, flags ...string) *wire.Batch {
		t.Helper()
		out, stderr, code := runCLI(t, "", append(append([]string{"decode", "--format", "json"}, flags...), log)...)
		if code > 1 {
			t.Fatalf("decode: exit %d: %s", code, stderr)
		}
		var want []string
		for _, r := range parseDecodeJSON(t, out).Reports {
			want = append(want, reportKey(t, r))
		}
		doc := runBatchJSON(t, 0, append(append([]string{"batch", "--fail-on", "none"}, flags...), log)...)
		var got []string
		for _, r := range doc.Reports {
			got = append(got, reportKey(t, r.Report))
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("batch %v: %d reports differ from decode's %d", flags, len(got), len(want))
		}
		return doc
	}
	symbolized := func(doc *wire.Batch) int {
		n := 0
		for _, r := range doc.Reports {
			for _, s := range r.Stacks {
				for _, f := range s.Frames {
					if f.Symbolized == "sanitrace" {
						n++
					}
				}
			}
		}
		return n
	}

	t.Run("kernel", func(t *testing.T) {
		td := filepath.Join(repoRoot, "testdata")
		log := filepath.Join(td, "kernel", "standin.log")
		with := same(t, log, "--vmlinux", filepath.Join(td, "elf", "kernel", "vmlinux"), "--modules-dir", filepath.Join(td, "elf", "kernel"))
		without := same(t, log)
		if symbolized(with) == 0 || symbolized(without) != 0 {
			t.Errorf("kernel frames symbolized: %d with --vmlinux, %d without", symbolized(with), symbolized(without))
		}
	})
	t.Run("lws", func(t *testing.T) {
		bin, _, allocs := buildAllocs(t, "-no-pie")
		log := filepath.Join(t.TempDir(), "device.log")
		if err := os.WriteFile(log, []byte(allocsLog(t, allocs)), 0o644); err != nil {
			t.Fatal(err)
		}
		with := same(t, log, "--obj", bin)
		if symbolized(with) == 0 {
			t.Errorf("no heap dump frame symbolized with --obj")
		}
		if _, _, code := runCLI(t, "", "batch", "--base", "0x1000", log); code != exitUsage {
			t.Errorf("--base without --obj: exit %d", code)
		}
	})
	t.Run("exit-zero", func(t *testing.T) {
		dir := fixtureCases(t)[0].dir
		if _, _, code := runCLI(t, "", "batch", "--format", "text", dir); code != exitFound {
			t.Errorf("without --exit-zero: exit %d", code)
		}
		if _, stderr, code := runCLI(t, "", "batch", "--exit-zero", "--format", "text", dir); code != 0 {
			t.Errorf("--exit-zero: exit %d: %s", code, stderr)
		}
		if _, _, code := runCLI(t, "", "batch", "--exit-zero", "--format", "text", dir, filepath.Join(dir, "missing.log")); code != exitUsage {
			t.Errorf("--exit-zero with a missing input: exit %d, want 2", code)
		}
	})
}
