package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// copyPastEOF copies the ELF file from to to, the named section's offset
// moved past the end of the file.
func copyPastEOF(t *testing.T, from, to, section string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	f := fixture.OpenELF(t, from)
	shoff := binary.LittleEndian.Uint64(data[0x28:])
	i := 0
	for i = range f.Sections {
		if f.Sections[i].Name == section {
			break
		}
	}
	if f.Sections[i].Name != section {
		t.Fatalf("%s: no section %s", from, section)
	}
	binary.LittleEndian.PutUint64(data[shoff+uint64(i)*64+24:], 0x7fff0000)
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeDamagedSplitAndSupplementary: from the CLI, a .dwo or a dwz
// supplementary file with one damaged section is still used for the rest
// (the inlined calls of the split unit, the strings of the supplementary
// file without its DIEs), and the damage
// is said once, on one line naming the file and the section.
func TestDecodeDamagedSplitAndSupplementary(t *testing.T) {
	t.Setenv("DEBUGINFOD_URLS", "")
	t.Run("dwo", func(t *testing.T) {
		dir := t.TempDir()
		bin := filepath.Join(dir, "prog")
		fixture.Copy(t, fixtureDir+"/split-dw5/prog", bin)
		copyPastEOF(t, fixtureDir+"/split-dw5/split-tmpl.dwo", filepath.Join(dir, "split-tmpl.dwo"), ".debug_str_offsets.dwo")
		log := fmt.Sprintf(`==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x555555555242 bp 0x7ffd00000000 sp 0x7ffd00000000
READ of size 4 at 0x602000000010 thread T0
    #0 0x555555555242  (%[1]s+0x1242)
    #1 0x555555555391  (%[1]s+0x1391)

SUMMARY: AddressSanitizer: heap-use-after-free (%[1]s+0x1242)
`, bin)
		out, stderr, _ := runCLI(t, log, "decode", "--color=never")
		want := bin + ": split DWARF: " + filepath.Join(dir, "split-tmpl.dwo") + ": .debug_str_offsets.dwo: section goes past the end of the file (offset 0x7fff0000"
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, "lack inlined calls") {
			t.Errorf("stderr %q, want one line with %q", stderr, want)
		}
		// The inline chain is the .dwo's (five frames at 0x1242: #0.1 to
		// #0.4 and #0), its lines the skeleton's.
		if !strings.Contains(out, "#0.4 0x555555555242") || !strings.Contains(out, "/usr/include/c++/12/bits/char_traits.h:354:7") {
			t.Errorf("the .dwo's inline chain is lost:\n%s", out)
		}
	})
	t.Run("dwz", func(t *testing.T) {
		addrs := sampleAddresses(t, fixtureDir+"/dwz/orig/tmpl", 8, 6)
		run := func(dir string) (string, string) {
			var b strings.Builder
			b.WriteString("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x555555555139 bp 0x7ffd00000000 sp 0x7ffd00000000 T0)\n")
			n := 0
			for _, a := range addrs {
				if a != 0 {
					fmt.Fprintf(&b, "    #%d 0x%x  (%s+0x%x)\n", n, 0x555555554000+a, filepath.Join(dir, "tmpl"), a)
					n++
				}
			}
			b.WriteString("\nSUMMARY: AddressSanitizer: SEGV\n")
			out, stderr, _ := runArgv0(t, "sanitrace", []string{"decode", "--color=never", "--debug-file-directory=/nonexistent"}, b.String())
			return strings.ReplaceAll(out, dir, "DIR"), stderr
		}
		with, damaged, without := t.TempDir(), t.TempDir(), t.TempDir()
		for _, d := range []string{with, damaged, without} {
			fixture.Copy(t, fixtureDir+"/dwz/sup/tmpl", filepath.Join(d, "tmpl"))
		}
		fixture.Copy(t, fixtureDir+"/dwz/sup/common.debug", filepath.Join(with, "common.debug"))
		copyPastEOF(t, fixtureDir+"/dwz/sup/common.debug", filepath.Join(damaged, "common.debug"), ".debug_info")
		full, _ := run(with)
		none, _ := run(without)
		got, stderr := run(damaged)
		want := filepath.Join(damaged, "common.debug") + ": .debug_info: section goes past the end of the file (offset 0x7fff0000"
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("stderr %q, want one line with %q", stderr, want)
		}
		if got == full || got == none {
			t.Errorf("answers equal those with the intact file (%v) or without any (%v): want the names its strings give the file's own DIEs, without the shared DIEs", got == full, got == none)
		}
	})
}
