package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestSymbolizeCacheSize: through the command line, a session over many
// modules in turns answers byte for byte the same with every module kept
// open (the default --cache-size) and with none kept but the last
// (--cache-size=0), as the subcommand and as the llvm-symbolizer face; a
// bad value is llvm-symbolizer 19's usage error.
func TestSymbolizeCacheSize(t *testing.T) {
	var in strings.Builder
	for pass := 0; pass < 2; pass++ {
		for _, m := range []string{"c-O2-dw5-pie", "cxx-O2-dw5", "c-O2-zlib", "split-dw5/prog", "go-trimpath", "rust-v0-O", "stl-O2-dw5-pie"} {
			path := fixtureDir + "/" + m
			for i, s := range fixture.Funcs(t, path) {
				if i == 3 {
					break
				}
				fmt.Fprintf(&in, "%s 0x%x\n", path, s.Value+s.Size/2)
			}
		}
	}
	want, wantErr, code := runArgv0(t, "sanitrace", []string{"symbolize", "--inlines"}, in.String())
	if code != 0 || wantErr != "" || strings.Count(want, "??:0:0") > strings.Count(in.String(), "\n")/4 {
		t.Fatalf("default bound: exit %d, stderr %q, stdout:\n%s", code, wantErr, want)
	}
	for _, argv := range [][]string{
		{"sanitrace", "symbolize", "--inlines", "--cache-size=0"},
		{"sanitrace", "symbolize", "--inlines", "--cache-size", "4096"},
		{"llvm-symbolizer", "--inlines", "--cache-size=0"},
	} {
		got, gotErr, code := runArgv0(t, argv[0], argv[1:], in.String())
		if got != want || gotErr != "" || code != 0 {
			t.Errorf("%q: exit %d, stderr %q; answers differ from the default bound's:\n%s", argv, code, gotErr, golden.FirstDiff(want, got))
		}
	}
	out, stderr, code := runArgv0(t, "sanitrace", []string{"symbolize", "--cache-size=512M"}, in.String())
	if out != "" || stderr != "--cache-size=: expected a non-negative integer, but got '512M'" || code != 1 {
		t.Errorf("--cache-size=512M: (%q, %q, %d), want llvm-symbolizer 19's usage error", out, stderr, code)
	}
}

// TestDecodeBatchCacheSize: decode and batch answer byte for byte the same
// with every module kept open (the default --cache-size) and with none kept
// but those in use (--cache-size=0), on logs that name modules again after
// others; a size that is not one is a usage error.
func TestDecodeBatchCacheSize(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "batch", "*", "unsymbolized.log"))
	if err != nil || len(cases) < 2 {
		t.Fatalf("batch fixtures: %v, %d logs", err, len(cases))
	}
	var log strings.Builder
	args := []string{"decode", "--format=json"}
	for pass := 0; pass < 2; pass++ {
		for _, c := range cases {
			log.WriteString(readFile(t, c))
			if pass == 0 {
				args = append(args, "--binary-dir", filepath.Dir(c))
			}
		}
	}
	in := filepath.Join(t.TempDir(), "ci.log")
	if err := os.WriteFile(in, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantErr, code := runCLI(t, "", append(args, in)...)
	if code != exitFound || !strings.Contains(want, `"symbolized": "sanitrace"`) {
		t.Fatalf("decode: exit %d, nothing symbolized? stderr %q", code, wantErr)
	}
	got, gotErr, code := runCLI(t, "", append(args, "--cache-size=0", in)...)
	if got != want || gotErr != wantErr || code != exitFound {
		t.Errorf("decode --cache-size=0: exit %d, stderr %q; the reports differ:\n%s", code, gotErr, golden.FirstDiff(want, got))
	}

	tree := filepath.Join(repoRoot, "testdata", "batch")
	batch := []string{"batch", "--fail-on=none", "-j", "2", tree, tree}
	want, _, code = runCLI(t, "", batch...)
	if code != exitOK || !strings.Contains(want, `"symbolized": "sanitrace"`) {
		t.Fatalf("batch: exit %d, nothing symbolized?", code)
	}
	for _, size := range []string{"0", "64K"} {
		got, _, code := runCLI(t, "", append([]string{"batch", "--cache-size", size}, batch[1:]...)...)
		if got != want || code != exitOK {
			t.Errorf("batch --cache-size %s: exit %d; the document differs:\n%s", size, code, golden.FirstDiff(want, got))
		}
	}

	for _, cmd := range []string{"decode", "batch"} {
		_, stderr, code := runCLI(t, "", cmd, "--cache-size=lots", in)
		if code != exitUsage || stderr != "sanitrace: --cache-size: \"lots\": not a byte count (like 512M or 4G)\n" {
			t.Errorf("%s --cache-size=lots: exit %d, stderr %q; want a usage error", cmd, code, stderr)
		}
	}
}
