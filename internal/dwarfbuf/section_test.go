package dwarfbuf

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
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

// TestSectionUnits checks a compressed section read in parts against the
// same section read whole: the parts put together are the section, each
// starts where a unit starts, and their counts add up to its units.
func TestSectionUnits(t *testing.T) {
	for _, tc := range []struct{ file, section string }{
		{"go-trimpath", ".debug_line"}, // zlib, 51 line programs
		{"go-trimpath", ".debug_info"},
		{"c-O2-zstd", ".debug_line"},
		{"c-O2-dw5-pie", ".debug_line"}, // stored plain: read whole
	} {
		ef, m := open(t, tc.file)
		whole, err := Section(ef, m.Bytes(), tc.section)
		if err != nil {
			t.Fatal(err)
		}
		var dst []byte
		var u Units
		if errs := Sections(ef, m.Bytes(), []Want{{Name: tc.section, Dst: &dst, Units: &u}}); errs[0] != nil {
			t.Fatal(errs[0])
		}
		compressed := ef.Section(tc.section).Flags&elf.SHF_COMPRESSED != 0
		if !compressed {
			if len(u.Offs) != 0 || !bytes.Equal(dst, whole) {
				t.Errorf("%s %s: stored plain, read in %d parts", tc.file, tc.section, len(u.Offs))
			}
			continue
		}
		if dst != nil || len(u.Offs) == 0 || u.Size != uint64(len(whole)) {
			t.Fatalf("%s %s: %d parts of %d bytes, whole %d, dst %d", tc.file, tc.section, len(u.Offs), u.Size, len(whole), len(dst))
		}
		var joined []byte
		for i, b := range u.Bufs {
			if u.Offs[i] != uint64(len(joined)) {
				t.Errorf("%s %s: part %d at 0x%x, want 0x%x", tc.file, tc.section, i, u.Offs[i], len(joined))
			}
			joined = append(joined, b...)
		}
		units := len(u.Starts)
		if !bytes.Equal(joined, whole) {
			t.Errorf("%s %s: the parts are not the section", tc.file, tc.section)
		}
		want := 0
		for off := uint64(0); off < uint64(len(whole)); want++ {
			if want < len(u.Starts) && u.Starts[want] != off {
				t.Errorf("%s %s: unit %d starts at 0x%x, not 0x%x", tc.file, tc.section, want, off, u.Starts[want])
			}
			off += 4 + uint64(ef.ByteOrder.Uint32(whole[off:]))
		}
		if units != want {
			t.Errorf("%s %s: %d units in the parts, %d in the section", tc.file, tc.section, units, want)
		}
		t.Logf("%s %s: %d units in %d parts", tc.file, tc.section, units, len(u.Offs))
	}
}

// TestSectionUnitsDamaged damages the compressed stream of a copy of
// go-trimpath (bytes changed, a header promising more bytes than the
// stream holds): read in parts, the section fails with Section's error or
// gives Section's bytes.
func TestSectionUnitsDamaged(t *testing.T) {
	ef, m := open(t, "go-trimpath")
	s := ef.Section(".debug_line")
	failed, short := 0, 0
	for i := 0; i < 40; i++ {
		data := append([]byte(nil), m.Bytes()...)
		switch {
		case i < 30:
			pos := s.Offset + 24 + uint64(i)*(s.FileSize-24)/30
			data[pos] ^= 0x5a
		default: // a compression header promising more than the stream holds
			ef.ByteOrder.PutUint64(data[s.Offset+8:], s.Size+uint64(i-29)*1000)
		}
		f, err := elf.NewFile(bytes.NewReader(data))
		if err != nil {
			continue
		}
		whole, werr := Section(f, data, ".debug_line")
		var dst []byte
		var u Units
		uerr := Sections(f, data, []Want{{Name: ".debug_line", Dst: &dst, Units: &u}})[0]
		if fmt.Sprint(werr) != fmt.Sprint(uerr) {
			t.Errorf("damage %d: whole: %v; in parts: %v", i, werr, uerr)
			continue
		}
		if werr != nil {
			failed++
		} else if uint64(len(whole)) < f.Section(".debug_line").Size {
			short++
		}
		var joined []byte
		for _, b := range u.Bufs {
			joined = append(joined, b...)
		}
		if dst != nil {
			joined = dst
		}
		if !bytes.Equal(joined, whole) {
			t.Errorf("damage %d: the parts (%d bytes) are not the section (%d bytes)", i, len(joined), len(whole))
		}
	}
	if failed == 0 || short == 0 {
		t.Errorf("%d copies failed to inflate and %d were cut short: the damage missed", failed, short)
	}
	t.Logf("%d copies failed to inflate, %d were cut short", failed, short)
}

// TestZstdWindowBounded: a zstd section may not ask for a window larger
// than the section (the power of two above its size): a frame of ten
// bytes asking 64 MiB for 100 bytes of output fails, naming the section,
// and the same frame asking 1 KB inflates.
func TestZstdWindowBounded(t *testing.T) {
	frame := func(windowDescriptor byte) []byte {
		// magic; no single segment, no content size, no checksum; the
		// window; one last RLE block of 100 'x'.
		return []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor, 0x23, 0x03, 0x00, 'x'}
	}
	for _, c := range []struct {
		name       string
		descriptor byte
		ok         bool
	}{
		{"1 KB window", 0x00, true},
		{"64 MiB window", 16 << 3, false},
	} {
		payload := append(elfbuild.Chdr(elf.COMPRESS_ZSTD, 100), frame(c.descriptor)...)
		file := elfbuild.Build(elfbuild.Section{Name: ".debug_info", Type: elf.SHT_PROGBITS, Flags: elf.SHF_COMPRESSED, Data: payload})
		ef, err := elf.NewFile(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		err = Sections(ef, file, []Want{{Name: ".debug_info", Dst: &got}})[0]
		switch {
		case c.ok && (err != nil || !bytes.Equal(got, bytes.Repeat([]byte("x"), 100))):
			t.Errorf("%s: %d bytes, %v; want 100 x", c.name, len(got), err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), ".debug_info: zstd decompression")):
			t.Errorf("%s: %d bytes, %v; want an error naming the section", c.name, len(got), err)
		}
	}
}
