package dwarfbuf

import (
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

const elfDir = "../../testdata/elf"

func open(t testing.TB, name string) (*elf.File, *File) {
	t.Helper()
	f, err := os.Open(filepath.Join(elfDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Map(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	ef, err := elf.NewFile(bytes.NewReader(m.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return ef, m
}

// TestCompressed compares sections read from compressed fixtures with the
// same sections stored plain: c-O2-zdebug is objcopy's zlib-gnu copy of
// c-O2-dw5-pie, and c-O2-zlib and c-O2-zstd are one build linked with
// --compress-debug-sections=zlib and =zstd (testdata/Makefile).
func TestCompressed(t *testing.T) {
	sections := []string{".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_line_str", ".debug_rnglists"}
	for _, pair := range [][2]string{{"c-O2-dw5-pie", "c-O2-zdebug"}, {"c-O2-zlib", "c-O2-zstd"}} {
		plainELF, plain := open(t, pair[0])
		packedELF, packed := open(t, pair[1])
		for _, name := range sections {
			want, err := Section(plainELF, plain.Bytes(), name)
			if err != nil {
				t.Fatalf("%s %s: %v", pair[0], name, err)
			}
			got, err := Section(packedELF, packed.Bytes(), name)
			if err != nil {
				t.Fatalf("%s %s: %v", pair[1], name, err)
			}
			if len(want) == 0 && name != ".debug_rnglists" {
				t.Errorf("%s: %s is empty", pair[0], name)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s from %s (%d bytes) differs from %s (%d bytes)", name, pair[1], len(got), pair[0], len(want))
			}
		}
	}
	// The zlib and zstd builds really are compressed; the plain one is a
	// slice of the mapped file.
	for _, name := range []string{"c-O2-zlib", "c-O2-zstd"} {
		ef, _ := open(t, name)
		if _, ok := Uncompressed(ef, ".debug_info"); ok {
			t.Errorf("%s: .debug_info reported stored uncompressed", name)
		}
	}
	ef, m := open(t, "c-O2-dw5-pie")
	off, ok := Uncompressed(ef, ".debug_info")
	info, _ := Section(ef, m.Bytes(), ".debug_info")
	if !ok || len(info) == 0 || &m.Bytes()[off] != &info[0] {
		t.Errorf("plain .debug_info at 0x%x (%v) is not a slice of the file", off, ok)
	}
	m.Release(0, uint64(len(m.Bytes())))
	if again, _ := Section(ef, m.Bytes(), ".debug_info"); !bytes.Equal(again, info) {
		t.Error("released pages did not read back the same")
	}
}

func TestSections(t *testing.T) {
	ef, m := open(t, "c-O2-zstd")
	var info, str, absent []byte
	errs := Sections(ef, m.Bytes(), []Want{
		{Name: ".debug_info", Dst: &info},
		{Name: ".debug_str", Dst: &str},
		{Name: ".debug_nonesuch", Dst: &absent},
	})
	if err := errors.Join(errs...); err != nil || len(info) == 0 || len(str) == 0 || absent != nil {
		t.Errorf("Sections: err %v, %d, %d, %d bytes; want info and str, nothing absent", err, len(info), len(str), len(absent))
	}
	// A section beyond the end of the file is an error.
	plainELF, plain := open(t, "c-O2-dw5-pie")
	var s *elf.Section
	for _, sec := range plainELF.Sections {
		if sec.Name == ".debug_str" {
			s = sec
		}
	}
	if _, err := Section(plainELF, plain.Bytes()[:s.Offset+1], ".debug_str"); err == nil {
		t.Error("section beyond the end of the file read without error")
	}
}
