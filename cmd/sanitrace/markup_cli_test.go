package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/debuginfodtest"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// markupDir holds the clang-19 symbolizer-markup samples with
// llvm-symbolizer-19 --filter-markup's outputs (its README.md).
const markupDir = repoRoot + "/testdata/samples/markup"

func readMarkup(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(markupDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFilterMarkupCLI: `sanitrace symbolize --filter-markup` and
// `llvm-symbolizer --filter-markup` (argv[0]) print llvm-symbolizer-19's
// recorded stdout and stderr for a markup log, with the build-id tree and
// with an empty directory.
func TestFilterMarkupCLI(t *testing.T) {
	tree := fixture.GunzipTree(t, filepath.Join(markupDir, "debug"))
	empty := t.TempDir()
	t.Setenv("DEBUGINFOD_URLS", "")
	for _, c := range []struct{ name, dir string }{{"multi", tree}, {"multi.nodebug", empty}} {
		in := readMarkup(t, "logs/multi.markup.log")
		wantOut, wantErr := readMarkup(t, "filter/"+c.name+".out"), readMarkup(t, "filter/"+c.name+".err")
		out, errOut, code := runCLI(t, in, "symbolize", "--filter-markup", "--debug-file-directory="+c.dir)
		if out != wantOut || errOut != wantErr || code != 0 {
			t.Errorf("sanitrace symbolize --filter-markup (%s): exit %d\nstdout: %s\nstderr: %s", c.name, code,
				golden.FirstDiff(wantOut, out), golden.FirstDiff(wantErr, errOut))
		}
		out, errOut, code = runArgv0(t, "llvm-symbolizer", []string{"--filter-markup", "--debug-file-directory=" + c.dir}, in)
		if out != wantOut || errOut != wantErr || code != 0 {
			t.Errorf("llvm-symbolizer --filter-markup (%s): exit %d\nstdout: %s\nstderr: %s", c.name, code,
				golden.FirstDiff(wantOut, out), golden.FirstDiff(wantErr, errOut))
		}
	}
}

// TestFilterMarkupDebuginfod: with the programs' debug files on a real
// elfutils debuginfod and none on disk, the filter prints what
// llvm-symbolizer-19 printed with them on disk; with --no-debuginfod (or no
// DEBUGINFOD_URLS) it prints what it printed without them.
func TestFilterMarkupDebuginfod(t *testing.T) {
	tree := fixture.GunzipTree(t, filepath.Join(markupDir, "debug"))
	s := debuginfodtest.Start(t, filepath.Join(tree, ".build-id"), 5)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	empty := t.TempDir()
	in := readMarkup(t, "logs/asan-uaf.markup.log")
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"asan-uaf", []string{"--debug-file-directory=" + empty}},
		{"asan-uaf", []string{"--debuginfod", "--debug-file-directory=" + empty}},
		{"asan-uaf.nodebug", []string{"--no-debuginfod", "--debug-file-directory=" + empty}},
		{"asan-uaf", []string{"--no-debuginfod", "--debuginfod", "--debug-file-directory=" + empty}},
	} {
		out, errOut, code := runCLI(t, in, append([]string{"symbolize", "--filter-markup"}, c.args...)...)
		wantOut, wantErr := readMarkup(t, "filter/"+c.golden+".out"), readMarkup(t, "filter/"+c.golden+".err")
		if out != wantOut || errOut != wantErr || code != 0 {
			t.Errorf("%q: exit %d\nstdout: %s\nstderr: %s", c.args, code, golden.FirstDiff(wantOut, out), golden.FirstDiff(wantErr, errOut))
		}
	}
}
