package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestFacesThroughSubcommands checks that "sanitrace symbolize|addr2line"
// behave exactly as the argv[0] faces (cobra hands the flags over as they
// are) and that exit codes come through.
func TestFacesThroughSubcommands(t *testing.T) {
	bin := fixtureDir + "/c-O2-dw5-pie"
	tests := []struct {
		face, sub string
		args      []string
		stdin     string
		code      int
	}{
		{"llvm-symbolizer", "symbolize", []string{"--obj=" + bin, "-a", "-p", "0x1090", "0"}, "", 0},
		{"llvm-symbolizer", "symbolize", []string{"-e", bin, "--output-style=JSON"}, "0x1090\nzz\n", 0},
		{"llvm-symbolizer", "symbolize", []string{"--bogus"}, "", 1},
		{"llvm-symbolizer", "symbolize", []string{"--help"}, "", 0},
		{"addr2line", "addr2line", []string{"-fiCa", "-e", bin}, "1090\n0\n", 0},
		{"addr2line", "addr2line", []string{"-Q"}, "", 1},
	}
	for _, tt := range tests {
		wantOut, wantErr, wantCode := runArgv0(t, tt.face, tt.args, tt.stdin)
		gotOut, gotErr, gotCode := runArgv0(t, "sanitrace", append([]string{tt.sub}, tt.args...), tt.stdin)
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode || gotCode != tt.code {
			t.Errorf("%s %q: subcommand gave (%q, %q, %d), argv[0] face (%q, %q, %d), want exit %d",
				tt.sub, tt.args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode, tt.code)
		}
	}
}

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
