package cfi

import (
	"encoding/binary"
	"fmt"
)

// Pointer encodings (DW_EH_PE_*) of .eh_frame augmentations and .eh_frame_hdr.
const (
	peAbsptr   = 0x00
	peULEB128  = 0x01
	peUdata2   = 0x02
	peUdata4   = 0x03
	peUdata8   = 0x04
	peSigned   = 0x08
	peSLEB128  = 0x09
	peSdata2   = 0x0a
	peSdata4   = 0x0b
	peSdata8   = 0x0c
	pePcrel    = 0x10
	peTextrel  = 0x20
	peDatarel  = 0x30
	peFuncrel  = 0x40
	peAligned  = 0x50
	peIndirect = 0x80
	peOmit     = 0xff
)

// section is one CFI section as loaded: .eh_frame or .debug_frame.
type section struct {
	name     string // the section's name
	addr     uint64 // sh_addr, the base of pcrel pointers
	eh       bool   // .eh_frame layout: CIE id 0, relative CIE pointers
	data     []byte
	bo       binary.ByteOrder
	addrSize int    // the ELF class's pointer size
	dataBase uint64 // base of datarel pointers (.got on i386), 0 if unknown
}

// CIE is a Common Information Entry.
type CIE struct {
	Offset       uint64 // of the entry's length field in its section
	Length       uint64 // the length field's value
	Format64     bool   // 64-bit DWARF (length escape 0xffffffff)
	ID           uint64 // the CIE id field as stored
	Version      uint8
	Augmentation string
	AddrSize     uint8 // address size (version 4's field, else the ELF class's)
	SegSize      uint8
	CodeAlign    uint64
	DataAlign    int64
	RA           uint64 // return address column
	AugData      []byte // the 'z' augmentation data, nil without 'z'
	HasAugData   bool
	FDEEnc       uint8  // 'R': encoding of FDE addresses
	LSDAEnc      uint8  // 'L': encoding of the LSDA pointer (peOmit when absent)
	PersEnc      uint8  // 'P': encoding of the personality routine pointer
	Personality  uint64 // 'P': the pointer as read (not dereferenced)
	Signal       bool   // 'S': a signal frame; its pc is not a return address
	Instructions []byte // initial instructions
	insnOff      int    // section offset of Instructions
	sec          *section
}

// FDE is a Frame Description Entry.
type FDE struct {
	Offset       uint64 // of the entry's length field in its section
	Length       uint64
	Format64     bool
	CIEPointer   uint64 // the CIE pointer field as stored
	CIE          *CIE
	Begin, End   uint64 // link-time addresses of the code it covers [Begin, End)
	Segment      uint64 // version 4 segment selector, when SegSize > 0
	AugData      []byte
	HasAugData   bool
	LSDA         uint64 // 'L': LSDA pointer as read, 0 when absent
	Instructions []byte
	insnOff      int
	sec          *section
}

// Section returns the name of the section the FDE was read from.
func (f *FDE) Section() string { return f.sec.name }

// entryKind classifies what sits at an offset of a CFI section.
type entryKind uint8

const (
	kindCIE entryKind = iota
	kindFDE
	kindZero // a zero length: .eh_frame's terminator
)

// rawEntry is the outer shape of one entry: enough to find the next one
// and to tell CIEs from FDEs without interpreting either.
type rawEntry struct {
	off      int    // of the length field
	length   uint64 // as stored
	format64 bool
	idOff    int // offset of the CIE id / CIE pointer field
	id       uint64
	bodyOff  int // first byte after the id field
	end      int // first byte after the entry
	kind     entryKind
}

// readRaw reads the entry header at off. An error means the walk over the
// section cannot go on (the next entry's position is unknown).
func (s *section) readRaw(off int) (rawEntry, error) {
	e := rawEntry{off: off}
	r := newReader(s.name, s.data, off, s.bo)
	l := uint64(r.U32())
	hdr := 4
	if l == 0xffffffff {
		e.format64 = true
		l = r.U64()
		hdr = 12
	}
	if r.Err() != nil {
		return e, fmt.Errorf("%s entry at 0x%x: length field runs past the end of the section", s.name, off)
	}
	e.length = l
	if l == 0 {
		e.kind = kindZero
		e.end = off + hdr
		return e, nil
	}
	if l > uint64(len(s.data)-off-hdr) {
		return e, fmt.Errorf("%s entry at 0x%x: length 0x%x runs past the end of the section (0x%x bytes)", s.name, off, l, len(s.data))
	}
	e.end = off + hdr + int(l)
	e.idOff = off + hdr
	r.Limit(e.end - r.Pos())
	if e.format64 {
		e.id = r.U64()
	} else {
		e.id = uint64(r.U32())
	}
	if r.Err() != nil {
		return e, fmt.Errorf("%s entry at 0x%x: length 0x%x too short for its CIE id", s.name, off, l)
	}
	e.bodyOff = r.Pos()
	switch {
	case s.eh && e.id == 0:
		e.kind = kindCIE
	case !s.eh && !e.format64 && e.id == 0xffffffff, !s.eh && e.format64 && e.id == ^uint64(0):
		e.kind = kindCIE
	default:
		e.kind = kindFDE
	}
	return e, nil
}

// ciePointer is the section offset of the CIE an FDE names.
func (s *section) ciePointer(e rawEntry) (int, error) {
	if s.eh {
		if e.id > uint64(e.idOff) {
			return 0, fmt.Errorf("%s FDE at 0x%x: CIE pointer 0x%x points before the section", s.name, e.off, e.id)
		}
		return e.idOff - int(e.id), nil
	}
	if e.id >= uint64(len(s.data)) {
		return 0, fmt.Errorf("%s FDE at 0x%x: CIE pointer 0x%x points past the end of the section", s.name, e.off, e.id)
	}
	return int(e.id), nil
}

// parseCIE interprets a CIE's fields.
func (s *section) parseCIE(e rawEntry) (*CIE, error) {
	c := &CIE{Offset: uint64(e.off), Length: e.length, Format64: e.format64, ID: e.id, sec: s,
		AddrSize: uint8(s.addrSize), LSDAEnc: peOmit, PersEnc: peOmit}
	r := newReader(s.name, s.data[:e.end], e.bodyOff, s.bo)
	c.Version = r.U8()
	if r.Err() == nil && c.Version != 1 && c.Version != 3 && c.Version != 4 {
		return c, fmt.Errorf("%s CIE at 0x%x: unsupported version %d", s.name, e.off, c.Version)
	}
	c.Augmentation = r.CString()
	if c.Augmentation == "eh" {
		r.Bytes(s.addrSize) // old gcc's exception table pointer
	}
	if c.Version >= 4 {
		c.AddrSize = r.U8()
		c.SegSize = r.U8()
		if r.Err() == nil && (!intSize(c.AddrSize) || c.SegSize != 0 && !intSize(c.SegSize)) {
			return c, fmt.Errorf("%s CIE at 0x%x: bad address size %d or segment size %d", s.name, e.off, c.AddrSize, c.SegSize)
		}
	}
	c.CodeAlign = r.Uleb()
	c.DataAlign = r.Sleb()
	if c.Version == 1 {
		c.RA = uint64(r.U8())
	} else {
		c.RA = r.Uleb()
	}
	if r.Err() != nil {
		return c, fmt.Errorf("%s CIE at 0x%x: %v", s.name, e.off, r.Err())
	}
	if len(c.Augmentation) > 0 && c.Augmentation[0] == 'z' {
		augOff, err := s.readAugData(r, &c.AugData)
		if err != nil {
			return c, fmt.Errorf("%s CIE at 0x%x: %v", s.name, e.off, err)
		}
		c.HasAugData = true
		a := newReader(s.name, s.data[:augOff+len(c.AugData)], augOff, s.bo)
	aug:
		for _, ch := range c.Augmentation[1:] {
			switch ch {
			case 'L':
				c.LSDAEnc = a.U8()
			case 'R':
				c.FDEEnc = a.U8()
			case 'P':
				c.PersEnc = a.U8()
				c.Personality, _ = s.readEncoded(a, c.PersEnc, int(c.AddrSize))
			case 'S':
				c.Signal = true
			case 'B', 'G':
				// AArch64 BTI / MTE: no data.
			default:
				break aug // unknown: the rest of the data is skipped thanks to 'z'
			}
		}
		if a.Err() != nil {
			return c, fmt.Errorf("%s CIE at 0x%x: augmentation data: %v", s.name, e.off, a.Err())
		}
	} else if c.Augmentation != "" && c.Augmentation != "eh" {
		return c, fmt.Errorf("%s CIE at 0x%x: unknown augmentation %q", s.name, e.off, c.Augmentation)
	}
	c.insnOff = r.Pos()
	c.Instructions = s.data[r.Pos():e.end]
	return c, nil
}

// readAugData reads the augmentation data of an entry whose augmentation
// starts with 'z' (a ULEB128 length, then the bytes) into *data and
// returns its section offset.
func (s *section) readAugData(r *reader, data *[]byte) (int, error) {
	n := r.Uleb()
	if r.Err() != nil || n > uint64(r.Left()) {
		return 0, fmt.Errorf("augmentation data length 0x%x runs past the entry", n)
	}
	at := r.Pos()
	*data = r.Bytes(int(n))
	return at, nil
}

// intSize says whether n is an integer size the reader handles.
func intSize(n uint8) bool { return n == 1 || n == 2 || n == 4 || n == 8 }

// encodedSize is the byte size of a fixed-size pointer encoding.
func encodedSize(enc uint8, addrSize int) int {
	switch enc & 0x0f {
	case peAbsptr, peSigned:
		return addrSize
	case peUdata2, peSdata2:
		return 2
	case peUdata4, peSdata4:
		return 4
	case peUdata8, peSdata8:
		return 8
	}
	return 0
}

// readEncoded reads a pointer in encoding enc, applying pcrel and datarel
// (indirect pointers are returned as read).
func (s *section) readEncoded(r *reader, enc uint8, addrSize int) (uint64, error) {
	if enc == peOmit {
		return 0, nil
	}
	at := s.addr + uint64(r.Pos())
	var v uint64
	switch enc & 0x0f {
	case peULEB128:
		v = r.Uleb()
	case peSLEB128:
		v = uint64(r.Sleb())
	case peAbsptr, peUdata2, peUdata4, peUdata8:
		v = r.UintN(encodedSize(enc, addrSize))
	case peSigned, peSdata2, peSdata4, peSdata8:
		v = uint64(sint(r, encodedSize(enc, addrSize)))
	default:
		r.Fail(fmt.Sprintf("unknown pointer encoding 0x%x", enc))
		return 0, r.Err()
	}
	switch enc & 0x70 {
	case peAbsptr:
	case pePcrel:
		v += at
	case peDatarel:
		v += s.dataBase
	case peTextrel, peFuncrel, peAligned:
		// Not used by any x86 toolchain; read as absolute.
	default:
		r.Fail(fmt.Sprintf("unknown pointer encoding 0x%x", enc))
	}
	if addrSize < 8 {
		v &= 1<<(8*uint(addrSize)) - 1
	}
	return v, r.Err()
}

// parseFDE interprets an FDE's fields given its CIE.
func (s *section) parseFDE(e rawEntry, c *CIE) (*FDE, error) {
	f := &FDE{Offset: uint64(e.off), Length: e.length, Format64: e.format64, CIEPointer: e.id, CIE: c, sec: s}
	r := newReader(s.name, s.data[:e.end], e.bodyOff, s.bo)
	as := int(c.AddrSize)
	if c.SegSize > 0 {
		f.Segment = r.UintN(int(c.SegSize))
	}
	var rng uint64
	if s.eh {
		f.Begin, _ = s.readEncoded(r, c.FDEEnc, as)
		// The range is a length: its encoding's size and sign, no base.
		rng, _ = s.readEncoded(r, c.FDEEnc&0x0f, as)
	} else {
		f.Begin = r.UintN(as)
		rng = r.UintN(as)
	}
	f.End = f.Begin + rng
	if as < 8 {
		f.End &= 1<<(8*uint(as)) - 1
	}
	if r.Err() != nil {
		return f, fmt.Errorf("%s FDE at 0x%x: %v", s.name, e.off, r.Err())
	}
	if c.HasAugData {
		augOff, err := s.readAugData(r, &f.AugData)
		if err != nil {
			return f, fmt.Errorf("%s FDE at 0x%x: %v", s.name, e.off, err)
		}
		f.HasAugData = true
		if c.LSDAEnc != peOmit {
			a := newReader(s.name, s.data[:augOff+len(f.AugData)], augOff, s.bo)
			f.LSDA, _ = s.readEncoded(a, c.LSDAEnc, as)
		}
	}
	f.insnOff = r.Pos()
	f.Instructions = s.data[r.Pos():e.end]
	return f, nil
}
