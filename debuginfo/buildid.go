package debuginfo

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

const ntGNUBuildID = 3

// maxNoteBytes bounds how much of one note area is read.
const maxNoteBytes = 1 << 20

// BuildID returns the GNU build-id note of f, nil when it has none. Every
// SHT_NOTE section is searched (the note is usually .note.gnu.build-id),
// then the PT_NOTE segments of files without section headers.
func BuildID(f *elf.File) []byte {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE || s.Size > maxNoteBytes {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		if id := ParseBuildIDNote(data, f.ByteOrder); id != nil {
			return id
		}
	}
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE || p.Filesz > maxNoteBytes {
			continue
		}
		data := make([]byte, p.Filesz)
		if _, err := io.ReadFull(p.Open(), data); err != nil {
			continue
		}
		if id := ParseBuildIDNote(data, f.ByteOrder); id != nil {
			return id
		}
	}
	return nil
}

// ParseBuildIDNote walks the ELF notes in data and returns a copy of the
// descriptor of the first NT_GNU_BUILD_ID note owned by "GNU"; nil when
// there is none.
func ParseBuildIDNote(data []byte, order binary.ByteOrder) []byte {
	for len(data) >= 12 {
		nameSz := uint64(order.Uint32(data[0:]))
		descSz := uint64(order.Uint32(data[4:]))
		typ := order.Uint32(data[8:])
		data = data[12:]
		nameEnd := (nameSz + 3) &^ 3
		descEnd := (descSz + 3) &^ 3
		if nameEnd > uint64(len(data)) || nameEnd+descSz > uint64(len(data)) {
			return nil
		}
		name := data[:nameSz]
		desc := data[nameEnd : nameEnd+descSz]
		if typ == ntGNUBuildID && bytes.Equal(bytes.TrimRight(name, "\x00"), []byte("GNU")) && descSz > 0 {
			return append([]byte(nil), desc...)
		}
		if nameEnd+descEnd > uint64(len(data)) {
			return nil
		}
		data = data[nameEnd+descEnd:]
	}
	return nil
}

// ReadBuildID returns the GNU build-id of the ELF file at path (nil, nil
// when it has none). It reads only the section headers and the notes.
func ReadBuildID(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read build-id of %s: %w", path, err)
	}
	defer f.Close()
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("read build-id of %s: %w", path, err)
	}
	return BuildID(ef), nil
}

// BuildIDPath returns dir/.build-id/xx/rest.debug for a build-id, the layout
// gdb, llvm-symbolizer and debuginfod caches use; "" for an id shorter than
// two bytes.
func BuildIDPath(dir string, id []byte) string {
	if len(id) < 2 {
		return ""
	}
	h := hex.EncodeToString(id)
	return dir + "/.build-id/" + h[:2] + "/" + h[2:] + ".debug"
}
