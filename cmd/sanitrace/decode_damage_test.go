package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeEscapesAndDamage: from the command line, a UBSan log whose every
// line starts with a window title and tput sgr0's "\e(B\e[m" decodes with
// its stack; a header word with a NUL in it is read and the repair named on
// stderr; frames after a header damaged beyond reading are named on stderr
// with their lines.
func TestDecodeEscapesAndDamage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "reports", "ubsan_ub_misaligned_clang_O2_dw4.symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var esc strings.Builder
	for _, l := range lines {
		if l != "" {
			esc.WriteString("\x1b]0;ci: run tests\x07\x1b(B\x1b[m" + l)
		}
	}
	out, stderr, _ := runCLI(t, esc.String(), "decode", "--symbolize=false", "--format", "json")
	d := parseDecodeJSON(t, out)
	if len(d.Reports) != 1 || d.Reports[0].Tool != "UndefinedBehaviorSanitizer" || len(d.Reports[0].Stacks) != 1 || len(d.Reports[0].Stacks[0].Frames) != 6 {
		t.Fatalf("escaped log: %+v (stderr %q)", d.Reports, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}

	damaged := strings.Replace(string(data), "runtime error", "runtime e\x00ror", 1)
	out, stderr, _ = runCLI(t, damaged, "decode", "--symbolize=false", "--format", "json")
	d = parseDecodeJSON(t, out)
	if len(d.Reports) != 1 || len(d.Reports[0].Stacks) != 1 || d.Reports[0].Kind != "misaligned-pointer-use" {
		t.Fatalf("damaged header: %+v", d.Reports)
	}
	if want := "<stdin>:1: damaged report header (NUL or invalid UTF-8) read as \"runtime error\" from the stack frames after it\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}

	lost := strings.Replace(string(data), "runtime error", "r\xff\xff\xff\xffe error", 1)
	out, stderr, _ = runCLI(t, lost, "decode", "--symbolize=false", "--format", "json")
	if d = parseDecodeJSON(t, out); len(d.Reports) != 0 {
		t.Fatalf("lost header: %+v", d.Reports)
	}
	if want := "<stdin>:5-10: 6 stack frame lines outside any report were not decoded (no report header before them; a damaged one?)\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}
