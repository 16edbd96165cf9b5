package debuginfo

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestRepairMessages: every header debug/elf refuses the file for is
// either worked around (the file opens, File.Damage says what was left
// out) or named in the error, with where it is.
func TestRepairMessages(t *testing.T) {
	pristine, err := os.ReadFile(fixture.ELF(t, "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	size := len(pristine)
	le := binary.LittleEndian
	shoff := le.Uint64(pristine[0x28:])
	shdr := func(i int) int { return int(shoff) + i*64 }
	cases := []struct {
		name       string
		damage     func(b []byte) []byte
		wantErr    string // the open fails with this
		wantDamage string // or the file opens with this damage
		wantSecs   bool   // and its sections keep their names
	}{
		{"phnum past the end", func(b []byte) []byte { le.PutUint16(b[0x38:], 0xffff); return b }, "",
			"program header table goes past the end of the file (offset 0x40, size 0x37ffc8); program headers ignored", true},
		{"phentsize too small", func(b []byte) []byte { le.PutUint16(b[0x36:], 8); return b }, "",
			"program header entry size 8 is less than 56; program headers ignored", true},
		{"bad section name index", func(b []byte) []byte { le.PutUint32(b[shdr(3):], 0x7fffffff); return b }, "",
			fmt.Sprintf("section header 3 (at 0x%x): bad section name index 0x7fffffff; the section has no name", shdr(3)), true},
		{"compressed section without room for its header", func(b []byte) []byte {
			le.PutUint64(b[shdr(3)+8:], 0x800) // SHF_COMPRESSED
			le.PutUint64(b[shdr(3)+32:], 4)
			return b
		}, "", fmt.Sprintf("section header 3 (at 0x%x): compressed section too short for its compression header", shdr(3)), true},
		{"section name table index out of range", func(b []byte) []byte { le.PutUint16(b[0x3e:], 0x999); return b }, "",
			"section name table index 2457 is out of range", false},
		{"section name table of the wrong type", func(b []byte) []byte {
			sx := int(le.Uint16(b[0x3e:]))
			le.PutUint32(b[shdr(sx)+4:], 1) // SHT_PROGBITS
			return b
		}, "", "has type SHT_PROGBITS, not SHT_STRTAB; sections have no names", false},
		{"section header table past the end", func(b []byte) []byte { le.PutUint64(b[0x28:], uint64(size)); return b },
			fmt.Sprintf("section header table goes past the end of the file (offset 0x%x, size 0x", size), "", false},
		{"section header table offset past 2^63", func(b []byte) []byte { le.PutUint64(b[0x28:], 1<<63); return b },
			"section header table goes past the end of the file (offset 0x8000000000000000, size 0x", "", false},
		{"shentsize too small", func(b []byte) []byte { le.PutUint16(b[0x3a:], 10); return b },
			"section header entry size 10 is less than 64", "", false},
		{"cut inside the ELF header", func(b []byte) []byte { return b[:50] },
			"file too small for an ELF header (0x32 bytes)", "", false},
		{"cut inside the section headers", func(b []byte) []byte { return b[:shoff+100] },
			"section header table goes past the end of the file", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.damage(append([]byte(nil), pristine...))
			p := filepath.Join(t.TempDir(), "bin")
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := Open(p)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Open: %v, want an error with %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "EOF") {
					t.Errorf("Open: %v: a bare EOF", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer f.Close()
			if got := damageText(f); !strings.Contains(got, tc.wantDamage) {
				t.Errorf("Damage = %q, want %q", got, tc.wantDamage)
			}
			if named := f.ELF.Section(".debug_info") != nil; named != tc.wantSecs {
				t.Errorf(".debug_info found by name: %v, want %v", named, tc.wantSecs)
			}
			if tc.wantSecs && len(f.ExecRanges()) == 0 {
				t.Error("no executable ranges (from the program headers or the sections)")
			}
		})
	}
}

// TestModuleUnreadable: a candidate that is there but cannot be read is
// named with the reason, not reported as "not found".
func TestModuleUnreadable(t *testing.T) {
	dir := t.TempDir()
	f := &Finder{BinaryDirs: []string{dir}}
	defer f.Close()
	if _, err := f.Module(Query{Name: "/build/prog"}); err == nil || !strings.Contains(err.Error(), "not found (searched "+filepath.Join(dir, "prog")) {
		t.Errorf("missing module: %v, want not found (searched ...)", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prog"), []byte("\x7fELF\x02\x01\x01"), 0o600); err != nil {
		t.Fatal(err)
	}
	f2 := &Finder{BinaryDirs: []string{dir}}
	defer f2.Close()
	_, err := f2.Module(Query{Name: "/build/prog"})
	want := "found " + filepath.Join(dir, "prog") + " but unreadable: file ends inside its ELF headers (file size 0x7)"
	if err == nil || err.Error() != want {
		t.Errorf("unreadable module: %v, want %q", err, want)
	}
}

// TestRepair32: the same repairs on a 32-bit file (its own header layout).
func TestRepair32(t *testing.T) {
	pristine, err := os.ReadFile(fixture.ELF(t, "cfi/i386-eh"))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	shoff := int(le.Uint32(pristine[0x20:]))
	b := append([]byte(nil), pristine...)
	le.PutUint16(b[0x2c:], 0xffff)           // e_phnum past the end
	le.PutUint32(b[shoff+2*40:], 0x7fffffff) // section 2's name
	p := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer f.Close()
	all := damageText(f)
	for _, want := range []string{"program header table goes past the end of the file (offset 0x34, size 0x1fffe0)",
		fmt.Sprintf("section header 2 (at 0x%x): bad section name index 0x7fffffff", shoff+2*40)} {
		if !strings.Contains(all, want) {
			t.Errorf("Damage = %q, want %q", all, want)
		}
	}
	if f.ELF.Section(".debug_info") == nil || len(f.ELF.Progs) != 0 {
		t.Errorf("sections %d, program headers %d: want the sections by name and no program headers", len(f.ELF.Sections), len(f.ELF.Progs))
	}
}

// damageText is f.Damage, one error a line.
func damageText(f *File) string {
	var lines []string
	for _, d := range f.Damage {
		lines = append(lines, d.Error())
	}
	return strings.Join(lines, "\n")
}
