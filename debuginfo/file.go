package debuginfo

import (
	"bytes"
	"debug/elf"
	"hash/crc32"
	"io"
	"os"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A File is an ELF file opened for reading: its bytes mapped (or held in
// memory), its headers parsed and its build-id read, once. Its owner
// closes it; the engine then owns it when given one (symbolize.OpenFile).
type File struct {
	Path    string    // as opened; a label for a file held in memory
	ELF     *elf.File // headers over Data's bytes
	BuildID []byte    // nil when the file has none
	// Damage lists the headers that were damaged and left out (the file
	// was read without them); nil for a sound file.
	Damage []error
	data   *dwarfbuf.File
}

// Open opens the ELF file at path. Its errors are those of os and
// debug/elf as they are (callers add the path), or a description of the
// damaged headers that cost the file (repair.go).
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := dwarfbuf.Map(f)
	if err != nil {
		return nil, err
	}
	return newFile(path, m)
}

// OpenMemory is Open for an ELF file held in memory, such as a binary read
// out of a CI artifact that is never written to disk. data must not change
// while the File is open.
func OpenMemory(name string, data []byte) (*File, error) {
	return newFile(name, dwarfbuf.Memory(data))
}

// newFile parses the headers of the file mapped as m; m is closed when
// that fails. (debug/elf's documentation allows it to panic on malformed
// files; Go 1.26's does not on damaged headers and sections: see
// TestDamagedHeadersNoPanic, which keeps that true.)
func newFile(path string, m *dwarfbuf.File) (*File, error) {
	ef, err := elf.NewFile(bytes.NewReader(m.Bytes()))
	var damage []error
	if err != nil {
		// One bad header need not cost the file (repair.go).
		ef, damage, err = repairELF(m.Bytes(), err)
		if err != nil {
			err = describeELFError(err, len(m.Bytes()))
			m.Close()
			return nil, err
		}
	}
	return &File{Path: path, ELF: ef, BuildID: BuildID(ef), Damage: damage, data: m}, nil
}

// Bytes returns the file's contents: read-only, invalid after Close.
func (f *File) Bytes() []byte { return f.data.Bytes() }

// Mapped returns the file's bytes as the DWARF readers take them.
func (f *File) Mapped() *dwarfbuf.File { return f.data }

// Exec reports whether the file is an ET_EXEC executable, whose addresses
// are absolute: a module offset is then the pc itself.
func (f *File) Exec() bool { return f.ELF.Type == elf.ET_EXEC }

// PIE reports whether the file is a position-independent executable
// (ET_DYN with an interpreter): a loader chose its base, which a log may
// not say (Valgrind's "??? (in prog)" frames, resolve).
func (f *File) PIE() bool {
	if f.ELF.Type != elf.ET_DYN {
		return false
	}
	for _, p := range f.ELF.Progs {
		if p.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}

// HasDWARF reports whether the file holds DWARF (.debug_info or the legacy
// compressed .zdebug_info).
func (f *File) HasDWARF() bool {
	for _, n := range []string{".debug_info", ".zdebug_info"} {
		if s := f.ELF.Section(n); s != nil && s.Type != elf.SHT_NOBITS && s.Size > 0 {
			return true
		}
	}
	return false
}

// ExecRanges returns the link-time address ranges [start, end) of the
// executable PT_LOAD segments; of the executable sections when the file
// has no program headers (or they were damaged and left out).
func (f *File) ExecRanges() [][2]uint64 {
	var r [][2]uint64
	for _, p := range f.ELF.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			r = append(r, [2]uint64{p.Vaddr, p.Vaddr + p.Memsz})
		}
	}
	if len(f.ELF.Progs) == 0 {
		for _, s := range f.ELF.Sections {
			if s.Flags&elf.SHF_ALLOC != 0 && s.Flags&elf.SHF_EXECINSTR != 0 && s.Size > 0 {
				r = append(r, [2]uint64{s.Addr, s.Addr + s.Size})
			}
		}
	}
	return r
}

// ReadAt reads the file's bytes at off, as os.File.ReadAt does.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	b := f.Bytes()
	if off < 0 || off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Close releases the file's bytes; reads afterwards find none. Closing
// twice is harmless.
func (f *File) Close() error {
	if f == nil {
		return nil
	}
	return f.data.Close()
}

// debugLink reads the .gnu_debuglink section: a NUL-terminated file name,
// padding to 4 bytes, then the CRC-32 of the debug file.
func (f *File) debugLink() (name string, crc uint32, ok bool) {
	s := f.ELF.Section(".gnu_debuglink")
	if s == nil || s.Size > 4096 {
		return "", 0, false
	}
	data, err := s.Data()
	if err != nil {
		return "", 0, false
	}
	i := bytes.IndexByte(data, 0)
	if i <= 0 {
		return "", 0, false
	}
	off := (i + 4) &^ 3
	if off+4 > len(data) {
		return "", 0, false
	}
	return string(data[:i]), f.ELF.ByteOrder.Uint32(data[off:]), true
}

// crc is the .gnu_debuglink checksum (IEEE CRC-32) of the whole file.
func (f *File) crc() uint32 { return crc32.ChecksumIEEE(f.Bytes()) }

// IsELF reports whether the file at path starts with the ELF magic.
func IsELF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return false
	}
	return string(magic[:]) == elf.ELFMAG
}
