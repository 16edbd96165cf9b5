package dwarfbuf

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
)

// FuzzSectionDecompress: arbitrary bytes as the contents of a compressed
// DWARF section, in each of the three forms (SHF_COMPRESSED zlib and zstd,
// legacy .zdebug_ with its "ZLIB" header): Section and Sections must give
// the inflated bytes or an error naming the section, never a panic, a
// hang, or more than the header's (plausibility-bounded) size.
func FuzzSectionDecompress(f *testing.F) {
	ef, m := open(f, "c-O2-zlib")
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_COMPRESSED != 0 && s.FileSize < 2048 {
			f.Add(uint8(0), append([]byte(nil), m.Bytes()[s.Offset:s.Offset+s.FileSize]...))
		}
	}
	ef, m = open(f, "c-O2-zstd")
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_COMPRESSED != 0 && s.FileSize < 2048 {
			f.Add(uint8(1), append([]byte(nil), m.Bytes()[s.Offset:s.Offset+s.FileSize]...))
		}
	}
	ef, m = open(f, "c-O2-zdebug")
	for _, s := range ef.Sections {
		if s.FileSize < 2048 && len(s.Name) > 8 && s.Name[:8] == ".zdebug_" {
			f.Add(uint8(2), append([]byte(nil), m.Bytes()[s.Offset:s.Offset+s.FileSize]...))
		}
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte("hello, DWARF"))
	w.Close()
	f.Add(uint8(0), append(elfbuild.Chdr(elf.COMPRESS_ZLIB, 12), z.Bytes()...))
	f.Add(uint8(0), append(elfbuild.Chdr(elf.COMPRESS_ZLIB, 1<<40), z.Bytes()...))
	f.Fuzz(func(t *testing.T, kind uint8, payload []byte) {
		sec := elfbuild.Section{Name: ".debug_info", Type: elf.SHT_PROGBITS, Flags: elf.SHF_COMPRESSED, Data: payload}
		switch kind % 3 {
		case 1:
			if len(payload) >= 4 {
				// the compression type is the fuzzer's, but lean to zstd
				binary.LittleEndian.PutUint32(payload, uint32(elf.COMPRESS_ZSTD))
			}
		case 2:
			sec.Name, sec.Flags = ".zdebug_info", 0
		}
		file := elfbuild.Build(sec)
		ef, err := elf.NewFile(bytes.NewReader(file))
		if err != nil {
			return // a header debug/elf refuses (too short a compression header)
		}
		var got []byte
		gerr := Sections(ef, file, []Want{{Name: ".debug_info", Dst: &got}})[0]
		if gerr != nil {
			if got != nil {
				t.Fatalf("error %v with %d bytes", gerr, len(got))
			}
			if !bytes.Contains([]byte(gerr.Error()), []byte(sec.Name)) {
				t.Fatalf("error %q does not name %s", gerr, sec.Name)
			}
			return
		}
		if uint64(len(got)) > maxSectionSize {
			t.Fatalf("%d bytes, over the bound", len(got))
		}
	})
}
