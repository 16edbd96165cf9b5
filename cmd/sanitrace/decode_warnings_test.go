package main

import (
	"strings"
	"testing"
)

// TestDecodeWarningsAreOneSafeLine: a module path read from a log comes
// back in the warning that it cannot be opened; a bell, a carriage return
// (which would overwrite the start of the warning on a terminal) or C1
// control in it is spelled out, so every warning is one printable line.
func TestDecodeWarningsAreOneSafeLine(t *testing.T) {
	log := "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc 0x55 bp 0x1 sp 0x2\n" +
		"READ of size 1 at 0x602000000011 thread T0\n" +
		"    #0 0x55d4  (/nonexistent/zz\aq\rX+0x1234)\n" +
		"    #1 0x55d5  (/nonexistent/c1\u009b31m+0x1234)\n" +
		"\nSUMMARY: AddressSanitizer: heap-buffer-overflow x\n"
	_, stderr, _ := runCLI(t, log, "decode", "--color=never", "-")
	for _, want := range []string{`/nonexistent/zz\x07q\x0dX: not found`, `/nonexistent/c1\x9b31m: not found`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%q", want, stderr)
		}
	}
	for _, r := range strings.TrimSuffix(stderr, "\n") {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			t.Errorf("stderr holds control %U:\n%q", r, stderr)
		}
	}
}
