package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestDecodeSplitDWARF: decode symbolizes frames of a split-DWARF binary
// with their inlined calls when the .dwo is next to the binary, and when it
// is missing says so once on stderr (which .dwo, where it looked) and still
// gives the symbol table's name and the skeleton's file and line.
func TestDecodeSplitDWARF(t *testing.T) {
	report := func(bin string) string {
		return fmt.Sprintf(`==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x555555555242 bp 0x7ffd00000000 sp 0x7ffd00000000
READ of size 4 at 0x602000000010 thread T0
    #0 0x555555555242  (%[1]s+0x1242)
    #1 0x555555555391  (%[1]s+0x1391)

SUMMARY: AddressSanitizer: heap-use-after-free (%[1]s+0x1242)
`, bin)
	}
	withDWO, without := t.TempDir(), t.TempDir()
	fixture.Copy(t, fixtureDir+"/split-dw5/prog", filepath.Join(withDWO, "prog"))
	fixture.Copy(t, fixtureDir+"/split-dw5/split-tmpl.dwo", filepath.Join(withDWO, "split-tmpl.dwo"))
	fixture.Copy(t, fixtureDir+"/split-dw5/prog", filepath.Join(without, "prog"))

	out, stderr, code := runCLI(t, report(filepath.Join(withDWO, "prog")), "decode", "--color=never")
	if code != exitFound || stderr != "" {
		t.Fatalf("with the .dwo: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		// The chain found at the log's #0: its inlined calls #0.1-#0.4.
		"#0.1 0x555555555242 in std::char_traits<char>::assign(char&, char const&) /usr/include/c++/12/bits/char_traits.h:354:7",
		"#0 0x555555555242 in (anonymous namespace)::checked(int) (.cold) /build/sanitrace/src/tmpl.cc:48:44",
		"in main /build/sanitrace/src/tmpl.cc:65:19",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("with the .dwo: no %q in\n%s", want, out)
		}
	}

	out, stderr, _ = runCLI(t, report(filepath.Join(without, "prog")), "decode", "--color=never")
	wantWarn := filepath.Join(without, "prog") + ": split DWARF: split-tmpl.dwo not found (looked in /build/sanitrace/src/split-tmpl.dwo, " +
		filepath.Join(without, "split-tmpl.dwo") + "); frames there lack inlined calls"
	if strings.Count(stderr, "split DWARF") != 1 || !strings.Contains(stderr, wantWarn) {
		t.Errorf("without the .dwo: stderr %q, want one line with %q", stderr, wantWarn)
	}
	if want := "#0 0x555555555242 in (anonymous namespace)::checked(int) (.cold) /usr/include/c++/12/bits/char_traits.h:354:7"; !strings.Contains(out, want) || strings.Contains(out, "#2 ") {
		t.Errorf("without the .dwo: want only the skeleton's frames (%q), got\n%s", want, out)
	}
}
