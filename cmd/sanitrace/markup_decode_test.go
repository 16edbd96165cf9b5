package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/debuginfodtest"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/wire"
)

// The clang-19 markup logs that have a classic twin (testdata/samples/markup).
var markupTwins = []string{"asan-uaf", "asan-segv", "asan-overflow", "lsan", "msan", "tsan", "ubsan"}

// markupDebugDirs unpacks the programs' build-id tree and returns the
// --debug-file-directory flags for it, plus the host's /usr/lib/debug
// when it has the debug file of the libc the logs name (the twins were
// symbolized with libc6-dbg): hostLibc says whether it does.
func markupDebugDirs(t *testing.T) (flags []string, hostLibc bool) {
	t.Helper()
	tree := fixture.GunzipTree(t, filepath.Join(markupDir, "debug"))
	flags = []string{"--debug-file-directory=" + tree}
	if _, err := os.Stat(hostDebugFile(markupLibcBuildID)); err == nil {
		flags = append(flags, "--debug-file-directory=/usr/lib/debug")
		hostLibc = true
	}
	return flags, hostLibc
}

// markupLibcBuildID is the libc the markup logs were made with (Debian
// bookworm's libc6 2.36).
const markupLibcBuildID = "93ac61ec5a8eb1396f9fbd350e3169a558528a40"

func hostDebugFile(id string) string {
	return filepath.Join("/usr/lib/debug/.build-id", id[:2], id[2:]+".debug")
}

// TestDecodeMarkupAsClassicTwin: every clang-19 markup log decodes, from
// the CLI, into the reports of its classic twin (the same program's
// report symbolized by the runtime through llvm-symbolizer-19): the same
// reports, stacks, titles, frames, functions and file:line:column, and
// SUMMARY and location lines; in JSON and in text.
func TestDecodeMarkupAsClassicTwin(t *testing.T) {
	dirs, hostLibc := markupDebugDirs(t)
	t.Setenv("DEBUGINFOD_URLS", "")
	if !hostLibc {
		t.Logf("no debug file of libc %s under /usr/lib/debug (Debian's libc6-dbg): libc frames are not compared", markupLibcBuildID)
	}
	for _, name := range markupTwins {
		t.Run(name, func(t *testing.T) {
			markupLog := filepath.Join(markupDir, "logs", name+".markup.log")
			classicLog := filepath.Join(markupDir, "logs", name+".classic.log")
			args := append([]string{"decode", "--format=json"}, dirs...)
			mOut, mErr, _ := runCLI(t, "", append(args, markupLog)...)
			cOut, _, _ := runCLI(t, "", "decode", "--format=json", classicLog)
			if mErr != "" {
				t.Errorf("stderr: %s", mErr)
			}
			m, c := parseDecodeJSON(t, mOut), parseDecodeJSON(t, cOut)
			compareTwins(t, m.Reports, c.Reports, hostLibc)

			if !hostLibc || name == "asan-overflow" {
				return // the text's libc lines or its different fault (compareTwins) differ
			}
			for _, mode := range [][]string{{"--format=text"}, {"--passthrough"}} {
				mt, _, _ := runCLI(t, "", append(append(append([]string{"decode"}, mode...), dirs...), markupLog)...)
				ct, _, _ := runCLI(t, "", append(append([]string{"decode"}, mode...), classicLog)...)
				if got, want := twinText(mt), twinText(ct); got != want {
					t.Errorf("decode %s: the markup log's text is not its twin's\n%s", mode[0], firstLineDiff(want, got))
				}
			}
		})
	}
}

// compareTwins compares a markup log's reports with its classic twin's.
// What differs between two runs of a program (addresses, pids) is not
// compared; a frame whose pc differs in its page offset is another
// instruction (asan-overflow's runs overflowed the stack in different
// instructions of the same function), and only its function is compared.
func compareTwins(t *testing.T, m, c []wire.Report, hostLibc bool) {
	t.Helper()
	if len(m) != len(c) {
		t.Fatalf("%d reports, the twin has %d", len(m), len(c))
	}
	for i := range m {
		mr, cr := &m[i], &c[i]
		if mr.Tool != cr.Tool || mr.Kind != cr.Kind || mr.Severity != cr.Severity {
			t.Errorf("report %d: %s %s %s, twin %s %s %s", i, mr.Tool, mr.Kind, mr.Severity, cr.Tool, cr.Kind, cr.Severity)
		}
		if len(mr.Stacks) != len(cr.Stacks) {
			t.Errorf("report %d: %d stacks, twin %d", i, len(mr.Stacks), len(cr.Stacks))
			continue
		}
		faultMoved := false
		for si := range mr.Stacks {
			ms, cs := &mr.Stacks[si], &cr.Stacks[si]
			if maskRun(ms.Title) != maskRun(cs.Title) || ms.Role != cs.Role {
				t.Errorf("report %d stack %d: %q (%s), twin %q (%s)", i, si, ms.Title, ms.Role, cs.Title, cs.Role)
			}
			if len(ms.Frames) != len(cs.Frames) {
				t.Errorf("report %d stack %d: %d frames, twin %d\n%s\ntwin:\n%s", i, si, len(ms.Frames), len(cs.Frames), frameList(ms.Frames), frameList(cs.Frames))
				continue
			}
			for fi := range ms.Frames {
				mf, cf := &ms.Frames[fi], &cs.Frames[fi]
				if !hostLibc && mf.BuildID == markupLibcBuildID {
					continue
				}
				if mf.Symbolized != "sanitrace" {
					t.Errorf("report %d stack %d frame %d: symbolized %q", i, si, fi, mf.Symbolized)
				}
				moved := pageOffset(mf.PC) != pageOffset(cf.PC)
				faultMoved = faultMoved || moved && si == 0 && fi == 0
				if str(mf.Function) != str(cf.Function) || !moved && (str(mf.File) != str(cf.File) || mf.Line != cf.Line || mf.Column != cf.Column) {
					t.Errorf("report %d stack %d frame %d: %s %s:%d:%d, twin %s %s:%d:%d", i, si, fi,
						str(mf.Function), str(mf.File), mf.Line, mf.Column, str(cf.Function), str(cf.File), cf.Line, cf.Column)
				}
				if mf.Offset != nil && cf.Offset != nil && *mf.Offset != *cf.Offset {
					t.Errorf("report %d stack %d frame %d: offset %s, twin %s", i, si, fi, *mf.Offset, *cf.Offset)
				}
			}
		}
		if !faultMoved && maskRun(str(mr.Summary)) != maskRun(str(cr.Summary)) {
			t.Errorf("report %d: summary %q, twin %q", i, str(mr.Summary), str(cr.Summary))
		}
		if maskRun(str(mr.Location)) != maskRun(str(cr.Location)) {
			t.Errorf("report %d: location %q, twin %q", i, str(mr.Location), str(cr.Location))
		}
	}
}

func pageOffset(pc *string) int64 {
	if pc == nil {
		return -1
	}
	v, _ := strconv.ParseUint(strings.TrimPrefix(*pc, "0x"), 16, 64)
	return int64(v & 0xfff)
}

func frameList(fs []wire.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %s:%d\n", str(f.Function), str(f.File), f.Line)
	}
	return b.String()
}

var (
	runAddr  = regexp.MustCompile(`0x[0-9a-f]{8,}\b`)
	runPID   = regexp.MustCompile(`==\d+==|\(pid=\d+\)|tid=\d+`)
	runBytes = regexp.MustCompile(`(?m)^ [0-9a-f]{2}( +[0-9a-f]{2})+$`) // UBSan's dump of the bytes pointed at
)

// maskRun masks what differs between two runs of a program: addresses
// (and register values), process and thread ids, the stack's bytes.
func maskRun(s string) string {
	s = runBytes.ReplaceAllString(s, "BYTES")
	return runPID.ReplaceAllString(runAddr.ReplaceAllString(s, "0xADDR"), "PID")
}

// twinText is decode's text for comparison with a twin's: run-dependent
// numbers masked, the mark of frames sanitrace symbolized (the twin's
// runtime symbolized its own) dropped, and the frames' numbers too: the
// twin's runtime numbers the inlined calls it found as frames of their
// own, decode numbers those it finds N.1, N.2 under the {{{bt}}}'s own N
// (text never renumbers the log's frames; docs/differences.md).
func twinText(s string) string {
	s = strings.ReplaceAll(s, " (sanitrace)\n", "\n")
	s = frameNo.ReplaceAllString(s, "$1#N ")
	return maskRun(s)
}

var frameNo = regexp.MustCompile(`(?m)^( *)#[0-9]+(\.[0-9]+)? `)

func firstLineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  twin:   %q\n  markup: %q", i+1, a, b)
		}
	}
	return ""
}

// TestDecodeMarkupMulti: three processes in one log (asan-uaf, lsan,
// ubsan, each opening with {{{reset}}} and its own module table) decode
// into the reports of the three logs decoded alone: every process's
// frames resolve through its own table.
func TestDecodeMarkupMulti(t *testing.T) {
	dirs, _ := markupDebugDirs(t)
	t.Setenv("DEBUGINFOD_URLS", "")
	decode := func(name string) []wire.Report {
		out, errOut, _ := runCLI(t, "", append(append([]string{"decode", "--format=json"}, dirs...), filepath.Join(markupDir, "logs", name+".markup.log"))...)
		if errOut != "" {
			t.Errorf("%s: stderr: %s", name, errOut)
		}
		rs := parseDecodeJSON(t, out).Reports
		for i := range rs {
			rs[i].Input = wire.Input{}
		}
		return rs
	}
	var want []wire.Report
	for _, n := range []string{"asan-uaf", "lsan", "ubsan"} {
		want = append(want, decode(n)...)
	}
	got := decode("multi")
	if len(got) != len(want) || len(got) != 5 {
		t.Fatalf("%d reports, want %d (5)", len(got), len(want))
	}
	for i := range got {
		g, w := jsonOf(t, got[i]), jsonOf(t, want[i])
		if g != w {
			t.Errorf("report %d differs from its log's decoded alone:\n%s", i, firstLineDiff(w, g))
		}
	}
}

// TestDecodeMarkupDamaged: each damaged log (one edit of asan-uaf's)
// costs one warning naming the file and the edited line, and the report
// is still decoded with its program frames symbolized.
func TestDecodeMarkupDamaged(t *testing.T) {
	dirs, _ := markupDebugDirs(t)
	t.Setenv("DEBUGINFOD_URLS", "")
	orig := strings.Split(readMarkup(t, "logs/asan-uaf.markup.log"), "\n")
	for _, c := range []struct{ name, msg string }{
		{"unknown-element", `unknown element "backtrace"`},
		{"truncated", `"{{{bt:2:0x" is never closed`},
		{"undeclared-module", "unknown module ID 0x5"},
		{"unmapped-pc", "no mmap covers address: {{{bt:1:0x10}}}"},
		{"overlapping-mmap", "overlapping mmap"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rel := "damaged/" + c.name + ".markup.log"
			lines := strings.Split(readMarkup(t, rel), "\n")
			edited := 0 // the first line that differs from the original
			for i := range lines {
				if i >= len(orig) || lines[i] != orig[i] {
					edited = i + 1
					break
				}
			}
			path := filepath.Join(markupDir, rel)
			out, errOut, code := runCLI(t, "", append(append([]string{"decode", "--format=json"}, dirs...), path)...)
			want := fmt.Sprintf("%s:%d:", path, edited)
			warns := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			if len(warns) != 1 || !strings.HasPrefix(warns[0], want) || !strings.Contains(warns[0], "bad symbolizer markup: "+c.msg) {
				t.Errorf("stderr %q, want one warning %q... %q", errOut, want, c.msg)
			}
			if code != exitFound {
				t.Errorf("exit %d", code)
			}
			rs := parseDecodeJSON(t, out).Reports
			if len(rs) != 1 || len(rs[0].Stacks) != 3 {
				t.Fatalf("%d reports, want 1 with 3 stacks", len(rs))
			}
			fs := rs[0].Stacks[0].Frames
			if len(fs) < 2 || str(fs[0].Function) != "read_id" || str(fs[1].Function) != "item_id" {
				t.Errorf("the access stack's first frames: %s", frameList(fs))
			}
		})
	}
}

// TestBatchMarkupAsClassic: batch puts the markup logs' reports into the
// buckets of their classic twins (the signatures come from the
// symbolized frames).
func TestBatchMarkupAsClassic(t *testing.T) {
	dirs, hostLibc := markupDebugDirs(t)
	t.Setenv("DEBUGINFOD_URLS", "")
	mdir, cdir := t.TempDir(), t.TempDir()
	for _, n := range markupTwins {
		for _, c := range []struct{ kind, dir string }{{"markup", mdir}, {"classic", cdir}} {
			b := readMarkup(t, "logs/"+n+"."+c.kind+".log")
			if err := os.WriteFile(filepath.Join(c.dir, n+".log"), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sigs := func(args ...string) []string {
		out, errOut, _ := runCLI(t, "", append([]string{"batch", "--format=json"}, args...)...)
		if errOut != "" {
			t.Errorf("batch %q: stderr: %s", args, errOut)
		}
		var b wire.Batch
		if err := jsonUnmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, k := range b.Buckets {
			s = append(s, k.Signature)
		}
		slices.Sort(s)
		return s
	}
	got, want := sigs(append(dirs, mdir)...), sigs(cdir)
	if !hostLibc {
		t.Logf("libc's debug file is not here: the signatures may differ in libc frames; only their number is compared")
		if len(got) != len(want) {
			t.Errorf("%d buckets, the twins make %d", len(got), len(want))
		}
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("buckets of the markup logs:\n%s\nof the classic twins:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestDecodeMarkupFindsModules: a markup log's modules are found by
// build-id on a real debuginfod server (nothing on disk) and, in
// --binary-dir, by the base name of the path the module line names (the
// file's build-id checked), as well as in --debug-file-directory trees
// (the tests above).
func TestDecodeMarkupFindsModules(t *testing.T) {
	tree := fixture.GunzipTree(t, filepath.Join(markupDir, "debug"))
	const asanID = "03659bb429b64d8786338021f8e0e7270d6f50de"
	log := filepath.Join(markupDir, "logs", "asan-uaf.markup.log")
	check := func(t *testing.T, args ...string) {
		t.Helper()
		out, errOut, _ := runCLI(t, "", append(append([]string{"decode", "--format=json"}, args...), log)...)
		rs := parseDecodeJSON(t, out).Reports
		if len(rs) != 1 || len(rs[0].Stacks) == 0 || len(rs[0].Stacks[0].Frames) < 2 ||
			str(rs[0].Stacks[0].Frames[0].Function) != "read_id" || str(rs[0].Stacks[0].Frames[0].File) != "/build/ci/samples/src/markup/asan.c" {
			t.Errorf("%q: the access stack's frames are not symbolized (stderr %q)", args, errOut)
		}
	}
	t.Run("debuginfod", func(t *testing.T) {
		s := debuginfodtest.Start(t, filepath.Join(tree, ".build-id"), 5)
		debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
		check(t, "--debug-file-directory="+t.TempDir())
	})
	t.Run("binary-dir", func(t *testing.T) {
		t.Setenv("DEBUGINFOD_URLS", "")
		dir := t.TempDir()
		b, err := os.ReadFile(filepath.Join(tree, ".build-id", asanID[:2], asanID[2:]+".debug"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "asan"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		check(t, "--debug-file-directory="+t.TempDir(), "--binary-dir="+dir)
	})
}
