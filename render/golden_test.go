package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/report"
)

// goldenDir is testdata/golden/render.
var goldenDir = golden.Dir("render")

// goldenCase is one rendered input: a corpus case or a hand-made model.
type goldenCase struct {
	name    string
	reports func(t *testing.T) []*report.Report
}

func corpusCase(id string) goldenCase {
	return goldenCase{id, func(t *testing.T) []*report.Report {
		return scanLog(t, filepath.Join("testdata", "corpus", id, "symbolized.log"))
	}}
}

var goldenCases = []goldenCase{
	corpusCase("asan_heap_overflow_read_clang_O2_dw4"),
	{"asan_heap_overflow_read_clang_O2_dw4.unsymbolized", func(t *testing.T) []*report.Report {
		dir := filepath.Join("testdata", "corpus", "asan_heap_overflow_read_clang_O2_dw4")
		reports := scanLog(t, filepath.Join(dir, "unsymbolized.log"))
		fillFromReference(t, reports, filepath.Join(dir, "expected_unsymbolized.json"))
		return reports
	}},
	corpusCase("asan_use_after_free_gcc_O0"),
	corpusCase("asan_stack_overflow_clang_O0"),
	corpusCase("asan_stack_buffer_overflow_clang_O0_dw4"),
	corpusCase("asan_global_buffer_overflow_clang_O0"),
	corpusCase("lsan_leak_list_gcc_O2"),
	corpusCase("tsan_race_global_clang_O2_dw4"),
	corpusCase("tsan_race_heap_gcc_O0_dw4"),
	corpusCase("tsan_lock_order_clang_O0_2ndstack_nopie"),
	corpusCase("msan_heap_origin_clang_O2_dw4"),
	corpusCase("msan_stack_origin_clang_O0_dw4"),
	corpusCase("ubsan_ub_signed_overflow_gcc_O0"),
	corpusCase("ubsan_ub_bounds_clang_O2_nostack_nopie_dw4"),
	{"glibc_backtrace", glibcBacktrace},
}

func renderText(t *testing.T, reports []*report.Report, opts Options) []byte {
	t.Helper()
	var b bytes.Buffer
	tx := NewText(&b, opts)
	for _, r := range reports {
		if err := tx.Report(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func renderJSON(t *testing.T, reports []*report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	j := NewJSON(&b)
	for _, r := range reports {
		if err := j.Report(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestTextGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			reports := c.reports(t)
			if len(reports) == 0 {
				t.Fatal("no reports")
			}
			plain := renderText(t, reports, Options{})
			if bytes.Contains(plain, []byte("\x1b[")) {
				t.Error("color off, but the output has ANSI escapes")
			}
			golden.Check(t, filepath.Join(goldenDir, c.name+".txt"), plain)
			colored := renderText(t, reports, Options{Color: true})
			if !bytes.Contains(colored, []byte("\x1b[")) {
				t.Error("color on, but the output has no ANSI escapes")
			}
			// Colors must only decorate: stripped, the text is the same,
			// the "(sanitrace)" marker included.
			stripped := ansiRE.ReplaceAllString(string(colored), "")
			if stripped != string(plain) {
				t.Errorf("colored output differs from plain output beyond colors:\n%s", golden.FirstDiff(string(plain), stripped))
			}
			golden.Check(t, filepath.Join(goldenDir, c.name+".color.txt"), colored)
		})
	}
}

func TestJSONGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			out := renderJSON(t, c.reports(t))
			checkSchema(t, out)
			golden.Check(t, filepath.Join(goldenDir, c.name+".json"), out)
		})
	}
}

func TestSourceContext(t *testing.T) {
	reports := scanLog(t, filepath.Join("testdata", "corpus", "asan_heap_overflow_read_clang_O2_dw4", "symbolized.log"))
	opts := Options{SourceContext: 2, SourcePath: func(p string) string {
		return strings.Replace(p, "/build/ci/src/", filepath.Join("testdata", "src")+"/", 1)
	}}
	out := renderText(t, reports, opts)
	// heap_overflow_read.c:20 is "  return s->data[i];" in sample_at.
	src := readLines(t, filepath.Join("testdata", "src", "heap_overflow_read.c"))
	want := "      > 20 | " + expandTabs([]byte(src[19]))
	if !strings.Contains(string(out), want+"\n") {
		t.Errorf("output lacks the marked source line %q", want)
	}
	// Runtime frames (libc, the interceptor) get no context, and an
	// unreadable file is skipped without a word.
	if strings.Contains(string(out), "libc_start_call_main.h:58:16\n        ") {
		t.Error("source context printed for a libc frame")
	}
	golden.Check(t, filepath.Join(goldenDir, "asan_heap_overflow_read_clang_O2_dw4.context.txt"), out)
}

// TestTextSameFromReferenceParse renders each corpus log twice, from
// parse.Scanner and from the corpus's reference parse (expected.json): the
// text must not depend on which of the two produced the model.
func TestTextSameFromReferenceParse(t *testing.T) {
	for _, c := range goldenCases {
		dir := filepath.Join("testdata", "corpus", c.name)
		if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
			continue // not a plain corpus case
		}
		t.Run(c.name, func(t *testing.T) {
			fromScanner := renderText(t, c.reports(t), Options{})
			fromReference := renderText(t, loadCorpus(t, dir, "symbolized.log", "expected.json", false), Options{})
			if !bytes.Equal(fromScanner, fromReference) {
				t.Errorf("text differs between parse.Scanner and the reference parse:\n%s", golden.FirstDiff(string(fromReference), string(fromScanner)))
			}
		})
	}
}
