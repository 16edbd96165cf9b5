package debuginfo

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// debug/elf refuses a whole file for one bad header: a program-header
// table past the end of the file, a section whose name index is out of
// range, a compressed section too short for its compression header.
// Everything else in such a file is usually intact, and llvm-symbolizer
// reads it. repairELF checks the headers itself and hands debug/elf a view
// of the file in which each damaged header is neutralised: the program
// headers dropped (e_phnum 0: sections do not need them), a bad section
// header replaced by an SHT_NULL entry or, for a bad name, left nameless
// (that section is lost, the others stay), names dropped when the name table itself is unusable (the symbol
// tables are still found by type). What cannot be worked around (no
// section header table within the file) is an error that says what and
// where.

// elfLayout is the class-dependent placement of the ELF header fields
// the repair reads and rewrites.
type elfLayout struct {
	ehsize                                 int
	phoff, shoff                           int // offsets of e_phoff, e_shoff in the header
	offSize                                int // 4 or 8
	phentsize, phnum, shentsize, shnum, sx int // offsets of the 16-bit fields (sx: e_shstrndx)
	wantPh, wantSh                         int // entry sizes
	// within a section header: sh_name, sh_type, sh_flags, sh_offset, sh_size
	shName, shType, shFlags, shOff, shSize int
	chdrSize                               int
}

var (
	layout32 = elfLayout{ehsize: 52, phoff: 0x1c, shoff: 0x20, offSize: 4,
		phentsize: 0x2a, phnum: 0x2c, shentsize: 0x2e, shnum: 0x30, sx: 0x32,
		wantPh: 32, wantSh: 40, shName: 0, shType: 4, shFlags: 8, shOff: 16, shSize: 20, chdrSize: 12}
	layout64 = elfLayout{ehsize: 64, phoff: 0x20, shoff: 0x28, offSize: 8,
		phentsize: 0x36, phnum: 0x38, shentsize: 0x3a, shnum: 0x3c, sx: 0x3e,
		wantPh: 56, wantSh: 64, shName: 0, shType: 4, shFlags: 8, shOff: 24, shSize: 32, chdrSize: 24}
)

// repairELF opens b, which debug/elf refused with orig, after
// neutralising the damaged headers; damage says what was lost, one error
// per header. err is set when nothing can be read.
func repairELF(b []byte, orig error) (f *elf.File, damage []error, err error) {
	if len(b) < 16 || !bytes.Equal(b[:4], []byte(elf.ELFMAG)) {
		return nil, nil, orig
	}
	var lay elfLayout
	switch elf.Class(b[elf.EI_CLASS]) {
	case elf.ELFCLASS32:
		lay = layout32
	case elf.ELFCLASS64:
		lay = layout64
	default:
		return nil, nil, orig
	}
	var bo binary.ByteOrder
	switch elf.Data(b[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		bo = binary.BigEndian
	default:
		return nil, nil, orig
	}
	if len(b) < lay.ehsize {
		return nil, nil, fmt.Errorf("file too small for an ELF header (0x%x bytes)", len(b))
	}
	size := uint64(len(b))
	word := func(p []byte, off int) uint64 {
		if lay.offSize == 4 {
			return uint64(bo.Uint32(p[off:]))
		}
		return bo.Uint64(p[off:])
	}
	hdr := append([]byte(nil), b[:lay.ehsize]...)
	phoff, shoff := word(hdr, lay.phoff), word(hdr, lay.shoff)
	phentsize, phnum := uint64(bo.Uint16(hdr[lay.phentsize:])), uint64(bo.Uint16(hdr[lay.phnum:]))
	shentsize, shnum := uint64(bo.Uint16(hdr[lay.shentsize:])), uint64(bo.Uint16(hdr[lay.shnum:]))
	shstrndx := uint64(bo.Uint16(hdr[lay.sx:]))

	// Program headers: sections do not need them; drop a table that
	// cannot be read whole.
	if phnum > 0 {
		var why string
		switch {
		case phentsize < uint64(lay.wantPh):
			why = fmt.Sprintf("program header entry size %d is less than %d", phentsize, lay.wantPh)
		case phoff > size || phnum*phentsize > size-phoff:
			why = fmt.Sprintf("program header table goes past the end of the file (offset 0x%x, size 0x%x)", phoff, phnum*phentsize)
		default:
			for i := uint64(0); i < phnum && lay.offSize == 8; i++ {
				e := b[phoff+i*phentsize:]
				if int64(bo.Uint64(e[8:])) < 0 || int64(bo.Uint64(e[32:])) < 0 {
					why = fmt.Sprintf("program header %d has an offset or size past 2^63", i)
					break
				}
			}
		}
		if why != "" {
			damage = append(damage, fmt.Errorf("%s; program headers ignored", why))
			bo.PutUint16(hdr[lay.phnum:], 0)
			phnum = 0
		}
	}
	if phnum == 0 {
		// Unused then, but debug/elf still refuses one past 2^63.
		clear(hdr[lay.phoff : lay.phoff+lay.offSize])
	}

	// The section header table: without it nothing can be found.
	if shoff == 0 && shnum != 0 {
		return nil, nil, fmt.Errorf("section header table offset is 0 but it has %d entries", shnum)
	}
	if shnum == 0 {
		if shoff != 0 {
			// Extended numbering (shnum in section 0's sh_size): rare
			// enough that debug/elf's verdict stands.
			return nil, nil, orig
		}
		f, err := elf.NewFile(patched(b, patch{0, hdr}))
		if err != nil {
			return nil, nil, err
		}
		return f, damage, nil
	}
	if shentsize < uint64(lay.wantSh) {
		return nil, nil, fmt.Errorf("section header entry size %d is less than %d", shentsize, lay.wantSh)
	}
	if shoff > size || shnum*shentsize > size-shoff {
		return nil, nil, fmt.Errorf("section header table goes past the end of the file (offset 0x%x, size 0x%x)", shoff, shnum*shentsize)
	}
	sh := append([]byte(nil), b[shoff:shoff+shnum*shentsize]...)
	entry := func(i uint64) []byte { return sh[i*shentsize : (i+1)*shentsize] }
	nullify := func(i uint64) {
		clear(entry(i)[:lay.wantSh])
	}
	for i := uint64(0); i < shnum; i++ {
		e := entry(i)
		typ := elf.SectionType(bo.Uint32(e[lay.shType:]))
		flags := word(e, lay.shFlags)
		off, sz := word(e, lay.shOff), word(e, lay.shSize)
		switch {
		case int64(off) < 0 || int64(sz) < 0:
			damage = append(damage, fmt.Errorf("section header %d (at 0x%x): offset 0x%x or size 0x%x past 2^63; section ignored", i, shoff+i*shentsize, off, sz))
			nullify(i)
		case flags&uint64(elf.SHF_COMPRESSED) != 0 && typ == elf.SHT_NOBITS && (off > size || size-off < uint64(lay.chdrSize) || sz < uint64(lay.chdrSize)):
			// debug/elf reads a compression header even for a section
			// without bytes: the flag is the damage, the section stays.
			damage = append(damage, fmt.Errorf("section header %d (at 0x%x): SHF_COMPRESSED on a section without file bytes; flag ignored", i, shoff+i*shentsize))
			e := entry(i)
			if lay.offSize == 8 {
				bo.PutUint64(e[lay.shFlags:], flags&^uint64(elf.SHF_COMPRESSED))
			} else {
				bo.PutUint32(e[lay.shFlags:], uint32(flags&^uint64(elf.SHF_COMPRESSED)))
			}
		case flags&uint64(elf.SHF_COMPRESSED) != 0 && (off > size || size-off < uint64(lay.chdrSize) || sz < uint64(lay.chdrSize)):
			damage = append(damage, fmt.Errorf("section header %d (at 0x%x): compressed section too short for its compression header (offset 0x%x, size 0x%x); section ignored", i, shoff+i*shentsize, off, sz))
			nullify(i)
		}
	}
	if shstrndx >= shnum {
		damage = append(damage, fmt.Errorf("section name table index %d is out of range (%d sections); sections have no names", shstrndx, shnum))
		shstrndx = 0
	}
	var names []byte
	if shstrndx != 0 {
		e := entry(shstrndx)
		typ := elf.SectionType(bo.Uint32(e[lay.shType:]))
		off, sz := word(e, lay.shOff), word(e, lay.shSize)
		flags := word(e, lay.shFlags)
		switch {
		case typ != elf.SHT_STRTAB:
			damage = append(damage, fmt.Errorf("section name table (section %d) has type %v, not SHT_STRTAB; sections have no names", shstrndx, typ))
			shstrndx = 0
		case flags&uint64(elf.SHF_COMPRESSED) != 0, off > size, sz > size-off, sz == 0:
			damage = append(damage, fmt.Errorf("section name table (section %d, offset 0x%x, size 0x%x) cannot be read; sections have no names", shstrndx, off, sz))
			shstrndx = 0
		default:
			names = b[off : off+sz]
		}
	}
	if shstrndx == 0 {
		bo.PutUint16(hdr[lay.sx:], 0)
	} else {
		for i := uint64(0); i < shnum; i++ {
			e := entry(i)
			if n := uint64(bo.Uint32(e[lay.shName:])); n >= uint64(len(names)) {
				// Nameless, it cannot be found by name, but a symbol
				// table still reaches its strings by index, as llvm's does.
				damage = append(damage, fmt.Errorf("section header %d (at 0x%x): bad section name index 0x%x; the section has no name", i, shoff+i*shentsize, n))
				bo.PutUint32(e[lay.shName:], 0)
			}
		}
	}
	f, err = elf.NewFile(patched(b, patch{0, hdr}, patch{shoff, sh}))
	if err != nil {
		return nil, nil, err
	}
	if len(damage) == 0 {
		// Nothing found to repair: debug/elf's reason stands.
		return nil, nil, orig
	}
	return f, damage, nil
}

// overlay is a file's bytes with some ranges replaced.
type overlay struct {
	base    []byte
	patches []patch
}

type patch struct {
	off  uint64
	data []byte
}

// patched returns a reader of b with patches laid over it.
func patched(b []byte, patches ...patch) *overlay {
	return &overlay{base: b, patches: patches}
}

// ReadAt reads from the patched bytes, as bytes.Reader.ReadAt does.
func (o *overlay) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(o.base)) {
		return 0, io.EOF
	}
	n := copy(p, o.base[off:])
	for _, pt := range o.patches {
		lo, hi := max(uint64(off), pt.off), min(uint64(off)+uint64(n), pt.off+uint64(len(pt.data)))
		if lo < hi {
			copy(p[lo-uint64(off):hi-uint64(off)], pt.data[lo-pt.off:hi-pt.off])
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// describeELFError words debug/elf's errors for people: never a bare EOF.
func describeELFError(err error, size int) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("file ends inside its ELF headers (file size 0x%x)", size)
	}
	return err
}
