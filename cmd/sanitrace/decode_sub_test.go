package main

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestDecodeSubNames: frames in a binary stripped of every symbol but
// .dynsym are named sub_<start of their FDE> by decode, and that start is
// where the unstripped binary's symbol for the code begins.
func TestDecodeSubNames(t *testing.T) {
	stripped, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "elf", "c-O2-stripped-all"))
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(filepath.Join(repoRoot, "testdata", "elf", "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := ef.Symbols()
	ef.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, s := range syms {
		if (s.Name == "main" || s.Name == "_start") && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			want[s.Name] = s.Value
		}
	}
	if len(want) != 2 {
		t.Fatalf("symbols main and _start not both in the unstripped fixture: %v", want)
	}
	log := fmt.Sprintf(`==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55d0c0a0109a bp 0x1 sp 0x2 T0)
==1==The signal is caused by a READ memory access.
    #0 0x55d0c0a0109a  (%[1]s+0x%[2]x)
    #1 0x55d0c0a01105  (%[1]s+0x%[3]x)
SUMMARY: AddressSanitizer: SEGV (%[1]s+0x%[2]x)
==1==ABORTING
`, stripped, want["main"]+10, want["_start"]+5)
	in := filepath.Join(t.TempDir(), "asan.log")
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := runCLI(t, "", "decode", "--format", "json", in)
	d := parseDecodeJSON(t, out)
	if len(d.Reports) != 1 || len(d.Reports[0].Stacks) == 0 {
		t.Fatalf("no report: %s\n%s", out, stderr)
	}
	fr := d.Reports[0].Stacks[0].Frames
	if len(fr) != 2 {
		t.Fatalf("%d frames: %+v", len(fr), fr)
	}
	for i, name := range []string{"main", "_start"} {
		exp := fmt.Sprintf("sub_%x", want[name])
		if str(fr[i].Function) != exp || fr[i].Symbolized != "sanitrace" {
			t.Errorf("frame %d (%s): %q symbolized %q, want %s by sanitrace", i, name, str(fr[i].Function), fr[i].Symbolized, exp)
		}
	}
	// The llvm-symbolizer face stays llvm-symbolizer's: no name.
	sym, _, _ := runCLI(t, "", "symbolize", "--obj", stripped, fmt.Sprintf("0x%x", want["main"]+10))
	if sym != "??\n??:0:0\n\n" {
		t.Errorf("symbolize face: %q, want llvm-symbolizer's ??", sym)
	}
}
