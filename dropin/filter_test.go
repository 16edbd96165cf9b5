package dropin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// markupSamples is testdata/samples/markup: real clang-19 markup logs, their
// build-id debug tree (gzipped) and llvm-symbolizer-19 --filter-markup's
// outputs (README.md there).
func markupSamples() string { return filepath.Join(golden.Dir(""), "..", "samples", "markup") }

// markupDebugTree unpacks the samples' .build-id tree into a temporary
// directory.
func markupDebugTree(t testing.TB) string {
	t.Helper()
	return fixture.GunzipTree(t, filepath.Join(markupSamples(), "debug"))
}

// markupCase is one recorded llvm-symbolizer-19 --filter-markup run.
type markupCase struct {
	name string // of the .out and .err files under filter/
	log  string // the input
	tree bool   // the debug tree (else an empty directory)
}

// markupCases lists every recorded run of testdata/samples/markup/filter.
func markupCases(t testing.TB) []markupCase {
	t.Helper()
	dir := markupSamples()
	var cases []markupCase
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*.markup.log"))
	for _, l := range logs {
		n := strings.TrimSuffix(filepath.Base(l), ".markup.log")
		cases = append(cases, markupCase{n, l, true}, markupCase{n + ".nodebug", l, false})
	}
	damaged, _ := filepath.Glob(filepath.Join(dir, "damaged", "*.markup.log"))
	for _, l := range damaged {
		cases = append(cases, markupCase{"damaged-" + strings.TrimSuffix(filepath.Base(l), ".markup.log"), l, true})
	}
	if len(cases) == 0 {
		t.Fatalf("no markup logs under %s", dir)
	}
	return cases
}

// TestFilterMarkupSamples runs --filter-markup on every sample log and
// compares stdout and stderr with llvm-symbolizer-19's, byte for byte.
func TestFilterMarkupSamples(t *testing.T) {
	tree := markupDebugTree(t)
	empty := t.TempDir()
	exact := 0
	cases := markupCases(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(c.log)
			if err != nil {
				t.Fatal(err)
			}
			dir := empty
			if c.tree {
				dir = tree
			}
			out, errOut, code := faceRunFace(t, "llvm-symbolizer", []string{"--filter-markup", "--debug-file-directory=" + dir}, string(in))
			wantOut := readSample(t, filepath.Join(markupSamples(), "filter", c.name+".out"))
			wantErr := readSample(t, filepath.Join(markupSamples(), "filter", c.name+".err"))
			if code != 0 {
				t.Errorf("exit status %d", code)
			}
			if out != wantOut {
				t.Errorf("stdout differs from llvm-symbolizer-19's\n%s", golden.FirstDiff(wantOut, out))
			}
			if errOut != wantErr {
				t.Errorf("stderr differs from llvm-symbolizer-19's\n%s", golden.FirstDiff(wantErr, errOut))
			}
			if out == wantOut && errOut == wantErr {
				exact++
			}
		})
	}
	t.Logf("%d of %d recorded runs byte-identical (stdout and stderr)", exact, len(cases))
}

func readSample(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzFilterMarkup: no input makes the filter panic or fail, and a log
// with no markup and no escapes comes back as it is (a line feed after its
// last line). The seeds are the real markup logs.
func FuzzFilterMarkup(f *testing.F) {
	for _, s := range []string{"{{{reset}}}\n{{{module:0:a:elf:ab}}}\n{{{mmap:0x1000:0x100:load:0:rx:0}}}\n{{{bt:0:0x1010}}}\n", "\033[31m{{{pc:0x1}}}\r\n", "plain"} {
		f.Add(s)
	}
	empty := f.TempDir()
	f.Fuzz(func(t *testing.T, in string) {
		out, errOut, code := runLLVM([]string{"--filter-markup", "--debug-file-directory=" + empty}, in, nil)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		if !strings.Contains(in, "{{{") && !strings.Contains(in, "\033") {
			want := in
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if out != want || errOut != "" {
				t.Fatalf("a log without markup came back as %q (stderr %q)", out, errOut)
			}
		}
	})
}
