package resolve

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
)

// elfInfo is what locating a module needs to know about a candidate file,
// read from its headers and notes only.
type elfInfo struct {
	buildID string // lower-case hex; "" when the file has none
	exec    bool   // ET_EXEC: addresses are absolute, the module offset is the pc
}

// errNotELF marks a file that is not an ELF object at all.
var errNotELF = errors.New("not an ELF file")

// readELFInfo reads the GNU build-id and type of the ELF file at path.
func readELFInfo(path string) (elfInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return elfInfo{}, err
	}
	defer f.Close()
	return parseELFInfo(f)
}

// parseELFInfo reads the build-id from the ELF in r. debug/elf can panic on
// adversarial headers, so a panic becomes an error for this file.
func parseELFInfo(r io.ReaderAt) (info elfInfo, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt ELF: %v", p)
		}
	}()
	var magic [4]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || string(magic[:]) != elf.ELFMAG {
		return elfInfo{}, errNotELF
	}
	f, err := elf.NewFile(r)
	if err != nil {
		return elfInfo{}, err
	}
	info.exec = f.Type == elf.ET_EXEC
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		if id, ok := buildIDNote(s.Open(), f.ByteOrder, s.Size); ok {
			info.buildID = id
			return info, nil
		}
	}
	// Files without section headers (rare: sstripped) keep notes in PT_NOTE.
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		if id, ok := buildIDNote(p.Open(), f.ByteOrder, p.Filesz); ok {
			info.buildID = id
			return info, nil
		}
	}
	return info, nil
}

// maxNoteBytes bounds how much of one note section is read.
const maxNoteBytes = 1 << 16

// buildIDNote scans an ELF note area for NT_GNU_BUILD_ID with owner "GNU".
func buildIDNote(r io.Reader, order binary.ByteOrder, size uint64) (string, bool) {
	if size > maxNoteBytes {
		size = maxNoteBytes
	}
	data := make([]byte, size)
	n, _ := io.ReadFull(r, data)
	data = data[:n]
	for len(data) >= 12 {
		namesz := uint64(order.Uint32(data[0:]))
		descsz := uint64(order.Uint32(data[4:]))
		typ := order.Uint32(data[8:])
		data = data[12:]
		nameEnd := align4(namesz)
		descEnd := nameEnd + align4(descsz)
		if nameEnd > uint64(len(data)) || nameEnd+descsz > uint64(len(data)) {
			return "", false
		}
		name := bytes.TrimRight(data[:namesz], "\x00")
		if typ == ntGNUBuildID && string(name) == "GNU" && descsz > 0 {
			return hex.EncodeToString(data[nameEnd : nameEnd+descsz]), true
		}
		if descEnd > uint64(len(data)) {
			return "", false
		}
		data = data[descEnd:]
	}
	return "", false
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }

var errNoOpener = errors.New("no symbolizer configured")

// ntGNUBuildID is NT_GNU_BUILD_ID (elf.h); debug/elf has no name for it.
const ntGNUBuildID = 3
