package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

const ntGNUBuildID = 3

// maxNoteBytes bounds how much of one note area is read.
const maxNoteBytes = 1 << 20

// BuildIDOf returns the GNU build-id note of f, nil when it has none. Every
// SHT_NOTE section is searched (the note is usually .note.gnu.build-id),
// then the PT_NOTE segments of files without section headers.
func BuildIDOf(f *elf.File) []byte {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE || s.Size > maxNoteBytes {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		if id := parseBuildIDNote(data, f.ByteOrder); id != nil {
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
		if id := parseBuildIDNote(data, f.ByteOrder); id != nil {
			return id
		}
	}
	return nil
}

// parseBuildIDNote walks the notes in data and returns the descriptor of the
// first NT_GNU_BUILD_ID note owned by "GNU".
func parseBuildIDNote(data []byte, bo interface{ Uint32([]byte) uint32 }) []byte {
	for len(data) >= 12 {
		nameSz := uint64(bo.Uint32(data[0:]))
		descSz := uint64(bo.Uint32(data[4:]))
		typ := bo.Uint32(data[8:])
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

// ReadBuildID returns the GNU build-id of the ELF file at path (nil, nil when
// it has none). It reads only the section headers and the note sections.
func ReadBuildID(path string) (id []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read build-id of %s: %w", path, err)
	}
	defer f.Close()
	defer func() {
		if p := recover(); p != nil {
			id, err = nil, fmt.Errorf("read build-id of %s: corrupt ELF (%v)", path, p)
		}
	}()
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("read build-id of %s: %w", path, err)
	}
	return BuildIDOf(ef), nil
}

// VerifyBuildID checks that the ELF file at path has build-id want; the
// error wraps ErrBuildIDMismatch when it differs.
func VerifyBuildID(path string, want []byte) error {
	got, err := ReadBuildID(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: has build-id %q, want %q: %w", path, hex.EncodeToString(got), hex.EncodeToString(want), ErrBuildIDMismatch)
	}
	return nil
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

// crc32File computes the .gnu_debuglink CRC (IEEE CRC-32) of a file,
// streaming.
func crc32File(path string) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	h := newCRC32()
	if _, err := io.Copy(h, f); err != nil {
		return 0, err
	}
	return h.Sum32(), nil
}
