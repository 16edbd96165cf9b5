package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestDecodeDWZ: decode reads a dwz-processed binary with its supplementary
// file as the binary before dwz, and without it says once on stderr which
// file it looked for and where.
func TestDecodeDWZ(t *testing.T) {
	addrs := sampleAddresses(t, fixtureDir+"/dwz/orig/tmpl", 8, 6)
	log := func(bin string) string {
		var b strings.Builder
		b.WriteString("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x555555555139 bp 0x7ffd00000000 sp 0x7ffd00000000 T0)\n")
		n := 0
		for _, a := range addrs {
			if a != 0 {
				fmt.Fprintf(&b, "    #%d 0x%x  (%s+0x%x)\n", n, 0x555555554000+a, bin, a)
				n++
			}
		}
		return b.String() + "\nSUMMARY: AddressSanitizer: SEGV\n"
	}
	t.Setenv("DEBUGINFOD_URLS", "")
	orig, with, without := t.TempDir(), t.TempDir(), t.TempDir()
	fixture.Copy(t, fixtureDir+"/dwz/orig/tmpl", filepath.Join(orig, "tmpl"))
	fixture.Copy(t, fixtureDir+"/dwz/gnu/tmpl", filepath.Join(with, "tmpl"))
	fixture.Copy(t, fixtureDir+"/dwz/gnu/common.debug", filepath.Join(with, "common.debug"))
	fixture.Copy(t, fixtureDir+"/dwz/gnu/tmpl", filepath.Join(without, "tmpl"))
	run := func(dir string) (string, string) {
		out, stderr, _ := runArgv0(t, "sanitrace", []string{"decode", "--color=never", "--debug-file-directory=/nonexistent"}, log(filepath.Join(dir, "tmpl")))
		return strings.ReplaceAll(out, dir, "DIR"), stderr
	}
	want, _ := run(orig)
	got, stderr := run(with)
	if stderr != "" || got != want {
		t.Errorf("with the supplementary file: stderr %q\n%s", stderr, golden.FirstDiff(want, got))
	}
	got, stderr = run(without)
	if got == want {
		t.Error("without the supplementary file the frames are complete: the test shows nothing")
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "dwz supplementary file common.debug") ||
		!strings.Contains(stderr, filepath.Join(without, "common.debug")) {
		t.Errorf("without the supplementary file: stderr %q, want one line naming it and where it was looked for", stderr)
	}
}
