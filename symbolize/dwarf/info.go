package dwarf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// This file is the engine's own .debug_info reader. debug/dwarf decodes
// every attribute of every DIE into an Entry with a []Field and copies every
// string; on a big C++ unit that allocation dominates both the first lookup
// and the peak RSS. Here a DIE is walked straight from the section bytes:
// attributes the engine does not need are skipped by size, and strings stay
// section offsets (StrRef) until a frame actually prints them.

// A Header is a unit header plus the bases its root DIE declares. Outside
// this package it is a handle: a split unit's, as DWOUnit or PackageUnit
// found it, handed back through a SplitOpener.
type Header struct {
	off       uint64 // of the unit header
	end       uint64 // first byte after the unit
	dieOff    uint64 // of the root DIE
	version   int
	unitType  uint8
	addrSize  int
	dwarf64   bool
	abbrevOff uint64

	strOffsetsBase, addrBase, rnglistsBase uint64
	base                                   uint64 // DW_AT_entry_pc, else DW_AT_low_pc: the range-list base

	// Split units (DWARF 5 DW_UT_split_compile, or the GNU extension to
	// DWARF 4) read from a .dwo file: dwo is its sections (nil for the
	// object's own units); .debug_addr stays the binary's. rangesBase is
	// the skeleton's DW_AT_GNU_ranges_base, added to DWARF 4 range offsets.
	dwo        *DWO
	rangesBase uint64
	dwoID      uint64 // from a DWARF 5 skeleton or split unit header
	// sup: a unit of the dwz supplementary file (dwo holds its sections);
	// its references carry supBit.
	sup bool
}

func (h *Header) offSize() int {
	if h.dwarf64 {
		return 8
	}
	return 4
}

// parseUnitHeader reads the unit header at off in .debug_info.
func parseUnitHeader(info []byte, off uint64, bo binary.ByteOrder) (Header, error) {
	h := Header{off: off}
	if off >= uint64(len(info)) {
		return h, fmt.Errorf(".debug_info unit at 0x%x: past the end of the section (0x%x)", off, len(info))
	}
	b := dwarfbuf.NewReader(".debug_info", off, info[off:], bo)
	n := uint64(b.U32())
	if n == 0xffffffff {
		h.dwarf64 = true
		n = b.U64()
	} else if n >= 0xfffffff0 {
		return h, fmt.Errorf(".debug_info unit at 0x%x: reserved unit length 0x%x", off, n)
	}
	if b.Err() != nil {
		return h, fmt.Errorf(".debug_info unit at 0x%x: unit length cut off by the end of the section (0x%x)", off, len(info))
	}
	if n > uint64(b.Left()) {
		return h, fmt.Errorf(".debug_info unit at 0x%x: length 0x%x goes past the end of the section (0x%x)", off, n, len(info))
	}
	// From here on the unit's extent is known (h.end): a caller can skip
	// a unit whose header it cannot use and read the next one.
	h.end = b.Offset() + n
	b.Limit(int(n))
	h.version = int(b.U16())
	if h.version < 2 || h.version > 5 {
		return h, fmt.Errorf(".debug_info unit at 0x%x: unsupported version %d", off, h.version)
	}
	if h.version >= 5 {
		h.unitType = b.U8()
		h.addrSize = int(b.U8())
		h.abbrevOff = b.UintN(h.offSize())
		switch h.unitType {
		case 4, 5: // skeleton, split_compile: dwo_id
			h.dwoID = b.U64()
		case 2, 6: // type, split_type: signature and type offset
			b.U64()
			b.UintN(h.offSize())
		}
	} else {
		h.unitType = 1
		h.abbrevOff = b.UintN(h.offSize())
		h.addrSize = int(b.U8())
	}
	if b.Err() != nil {
		return h, fmt.Errorf(".debug_info unit at 0x%x: header longer than the unit (length 0x%x)", off, n)
	}
	switch h.addrSize {
	case 1, 2, 4, 8:
	default:
		return h, fmt.Errorf(".debug_info unit at 0x%x: unsupported address size %d", off, h.addrSize)
	}
	h.dieOff = b.Offset()
	return h, nil
}

// attrSpec is one attribute of an abbreviation.
type attrSpec struct {
	attr, form uint32
	implicit   int64 // DW_FORM_implicit_const's value
	size       int32 // fixedFormSize in the unit's format, -1 when it varies
}

// abbrev is one abbreviation; size is the byte size of its attributes when
// every form has a fixed size in this unit format (-1 otherwise), so DIEs
// the engine ignores are skipped in one step.
type abbrev struct {
	tag      uint32
	children bool
	size     int
	attrs    []attrSpec
	// skip is how to step over the values when size is -1 (nil when a
	// form is one skipSteps cannot step over).
	skip []skipStep
	// hasRanges: DW_AT_low_pc, DW_AT_high_pc or DW_AT_ranges is among
	// the attributes.
	hasRanges bool
}

// skipStep steps over fixed bytes, then over one value of variable size.
type skipStep struct {
	fixed int32
	kind  uint8 // skipLEB, skipBlock..., skipString; skipNone: fixed bytes only
	width uint8 // skipBlockN: the size of the length
}

const (
	skipNone = iota
	skipLEB
	skipBlock  // ULEB128 length, then that many bytes (block, exprloc)
	skipBlockN // a width-byte length, then that many bytes (block1, 2, 4)
	skipString
)

// skipPlan compiles attrs into skip steps: a DIE nobody needs is stepped
// over with a few bounds checks instead of a readAttr call per attribute.
// nil when a form needs readAttr (DW_FORM_indirect, unknown forms).
func skipPlan(attrs []attrSpec, h *Header) []skipStep {
	var plan []skipStep
	fixed := int32(0)
	for _, s := range attrs {
		if n := fixedFormSize(s.form, h); n >= 0 {
			fixed += int32(n)
			continue
		}
		st := skipStep{fixed: fixed}
		switch s.form {
		case FormUdata, FormSdata, FormRefUdata, FormStrx, FormAddrx, FormRnglistx, FormLoclistx, FormGNUAddrIndex, FormGNUStrIndex:
			st.kind = skipLEB
		case FormBlock, FormExprloc:
			st.kind = skipBlock
		case FormBlock1:
			st.kind, st.width = skipBlockN, 1
		case FormBlock2:
			st.kind, st.width = skipBlockN, 2
		case FormBlock4:
			st.kind, st.width = skipBlockN, 4
		case FormString:
			st.kind = skipString
		default:
			return nil
		}
		plan = append(plan, st)
		fixed = 0
	}
	if fixed > 0 {
		plan = append(plan, skipStep{fixed: fixed})
	}
	return plan
}

// skipValues steps over values by plan from data[pos:] and returns where
// they end; ok is false when they do not fit (the caller then reads them
// with readAttr, which says what is wrong where).
func skipValues(plan []skipStep, data []byte, pos int, big bool) (end int, ok bool) {
	for _, st := range plan {
		pos += int(st.fixed)
		if pos > len(data) {
			return 0, false
		}
		var n uint64
		switch st.kind {
		case skipNone:
			continue
		case skipLEB:
			for pos < len(data) && data[pos] >= 0x80 {
				pos++
			}
			if pos >= len(data) {
				return 0, false
			}
			pos++
			continue
		case skipString:
			i := bytes.IndexByte(data[pos:], 0)
			if i < 0 {
				return 0, false
			}
			pos += i + 1
			continue
		case skipBlock:
			var shift uint
			for ; pos < len(data); pos++ {
				c := data[pos]
				if shift < 64 {
					n |= uint64(c&0x7f) << shift
				}
				shift += 7
				if c < 0x80 {
					break
				}
			}
			if pos >= len(data) {
				return 0, false
			}
			pos++
		case skipBlockN:
			w := int(st.width)
			if w > len(data)-pos {
				return 0, false
			}
			for i, c := range data[pos : pos+w] {
				if big {
					n = n<<8 | uint64(c)
				} else {
					n |= uint64(c) << (8 * i)
				}
			}
			pos += w
		}
		if n > uint64(len(data)-pos) {
			return 0, false
		}
		pos += int(n)
	}
	return pos, true
}

// abbrevTable maps codes to abbreviations; codes are nearly always dense
// from 1, so a slice serves them and a map the rest.
type abbrevTable struct {
	dense  []abbrev
	sparse map[uint64]*abbrev
}

func (t *abbrevTable) get(code uint64) *abbrev {
	if code-1 < uint64(len(t.dense)) {
		return &t.dense[code-1]
	}
	return t.sparse[code]
}

// abbrevKey identifies a parsed table: fixed form sizes depend on the unit
// format as well as on the table.
type abbrevKey struct {
	dwo      *DWO // nil: the object's own .debug_abbrev
	off      uint64
	addrSize int
	dwarf64  bool
	version  int
}

// abbrevCache shares parsed tables between units (gcc and clang give every
// unit its own, but linkers and dwz share them).
type abbrevCache struct {
	mu sync.Mutex
	m  map[abbrevKey]*abbrevTable
}

// lookup returns the table of unit h's abbreviations if it is parsed,
// and its key.
func (c *abbrevCache) lookup(h *Header) (abbrevKey, *abbrevTable) {
	k := abbrevKey{h.dwo, h.abbrevOff, h.addrSize, h.dwarf64, h.version}
	c.mu.Lock()
	defer c.mu.Unlock()
	return k, c.m[k]
}

func (dw *Data) abbrevs(h *Header) (*abbrevTable, error) {
	c := &dw.abbrevCache
	k, t := c.lookup(h)
	if t != nil {
		return t, nil
	}
	// Parsed outside the lock: the lookup workers find their units' tables
	// as they first read them, and one parsing must not hold up the other
	// (two parsing one table at once keep the first).
	t, err := parseAbbrevs(dw.secOf(h).abbrev, h, dw.byteOrder, 0)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if had, ok := c.m[k]; ok {
		return had, nil
	}
	if c.m == nil {
		c.m = map[abbrevKey]*abbrevTable{}
	}
	c.m[k] = t
	return t, nil
}

// rootAbbrevs is a table that serves unit h's root DIE, whose code is
// code: the unit's whole table when it is parsed already, else that
// code's entry alone, not kept. An index of every unit reads each unit's
// root alone (buildUnitIndex), and gcc and clang give every unit a table
// of its own (libc's debug file: 1,700 units, each table of dozens of
// codes): building them whole there was half of a core file's start-up.
func (dw *Data) rootAbbrevs(h *Header, code uint64) (*abbrevTable, error) {
	if _, t := dw.abbrevCache.lookup(h); t != nil {
		return t, nil
	}
	return parseAbbrevs(dw.secOf(h).abbrev, h, dw.byteOrder, code)
}

// parseAbbrevs parses the abbreviation table of unit h; with only > 0,
// only the entry of that code: the others are stepped over without being
// built (gcc numbers a table's codes by use, so a unit's root, used once,
// comes near the end of its table).
func parseAbbrevs(sec []byte, h *Header, bo binary.ByteOrder, only uint64) (*abbrevTable, error) {
	if h.abbrevOff >= uint64(len(sec)) {
		return nil, fmt.Errorf("abbreviation offset 0x%x beyond .debug_abbrev (size 0x%x)", h.abbrevOff, len(sec))
	}
	b := dwarfbuf.NewReader(".debug_abbrev", h.abbrevOff, sec[h.abbrevOff:], bo)
	t := &abbrevTable{}
	for b.Err() == nil {
		code := b.Uleb()
		if code == 0 {
			break
		}
		if only > 0 && code != only {
			skipAbbrev(&b)
			continue
		}
		a := readAbbrev(&b, h)
		if code == uint64(len(t.dense))+1 && t.sparse == nil {
			t.dense = append(t.dense, a)
		} else {
			if t.sparse == nil {
				t.sparse = map[uint64]*abbrev{}
			}
			t.sparse[code] = &a
		}
		if code == only {
			break
		}
	}
	if b.Err() != nil {
		return nil, b.Err()
	}
	return t, nil
}

// readAbbrev reads an abbreviation after its code: its tag, children flag
// and attribute specifications.
func readAbbrev(b *dwarfbuf.Reader, h *Header) abbrev {
	a := abbrev{tag: uint32(b.Uleb()), children: b.U8() != 0}
	for b.Err() == nil {
		at, form := b.Uleb(), b.Uleb()
		if at == 0 && form == 0 {
			break
		}
		s := attrSpec{attr: uint32(at), form: uint32(form), size: int32(fixedFormSize(uint32(form), h))}
		if form == FormImplicitConst {
			s.implicit = b.Sleb()
		}
		switch s.attr {
		case AttrLowpc, AttrHighpc, AttrRanges:
			a.hasRanges = true
		}
		a.attrs = append(a.attrs, s)
	}
	a.size = 0
	for _, s := range a.attrs {
		n := fixedFormSize(s.form, h)
		if n < 0 {
			a.size = -1
			break
		}
		a.size += n
	}
	if a.size < 0 {
		a.skip = skipPlan(a.attrs, h)
	}
	return a
}

// skipAbbrev steps over an abbreviation after its code.
func skipAbbrev(b *dwarfbuf.Reader) {
	b.Uleb() // tag
	b.U8()   // children
	for b.Err() == nil {
		at, form := b.Uleb(), b.Uleb()
		if at == 0 && form == 0 {
			return
		}
		if form == FormImplicitConst {
			b.Sleb()
		}
	}
}

// fixedFormSize is the encoded size of form in unit h, -1 when it varies.
func fixedFormSize(form uint32, h *Header) int {
	switch form {
	case FormAddr:
		return h.addrSize
	case FormData1, FormRef1, FormFlag, FormStrx1, FormAddrx1:
		return 1
	case FormData2, FormRef2, FormStrx2, FormAddrx2:
		return 2
	case FormStrx3, FormAddrx3:
		return 3
	case FormData4, FormRef4, FormStrx4, FormAddrx4, FormRefSup4:
		return 4
	case FormData8, FormRef8, FormRefSig8, FormRefSup8:
		return 8
	case FormData16:
		return 16
	case FormFlagPresent, FormImplicitConst:
		return 0
	case FormStrp, FormLineStrp, FormSecOffset, FormStrpSup, FormGNURefAlt, FormGNUStrpAlt:
		return h.offSize()
	case FormRefAddr:
		if h.version <= 2 {
			return h.addrSize
		}
		return h.offSize()
	}
	return -1
}

// valKind says how to read an Value.
type valKind uint8

const (
	valNone     valKind = iota // a block, expression or other value the engine ignores
	valConst                   // data, flag, udata: v
	valSigned                  // sdata, implicit_const: int64(v)
	valAddr                    // v is an address
	valAddrx                   // v is an index into .debug_addr
	valRef                     // v is a .debug_info offset
	valStr                     // v is a StrRef
	valStrx                    // v is an index into .debug_str_offsets
	valSecOff                  // sec_offset
	valRnglistx                // v is an index into the unit's range-list offsets
	valBlock                   // a block or expression: n bytes at .debug_info offset v
	valLoclistx                // v is an index into the unit's location-list offsets
	valStrSup                  // v is an offset into the dwz supplementary file's .debug_str
)

// A Value is one attribute value of a DIE as read from .debug_info:
// strings, addresses and range lists are resolved on demand (Str, Block,
// Data's methods), constants and references are at hand.
type Value struct {
	kind valKind
	n    uint32 // valBlock's length
	v    uint64
}

// Ref returns the .debug_info offset a reference value names; one into a
// supplementary file carries a tag bit, and is passed back to Data as it
// is.
func (v Value) Ref() (uint64, bool) { return v.v, v.kind == valRef }

// Const returns a constant value's bits; signed says the form is a signed
// one (DW_FORM_sdata, DW_FORM_implicit_const), whose bits are an int64.
func (v Value) Const() (bits uint64, signed, ok bool) {
	return v.v, v.kind == valSigned, v.kind == valConst || v.kind == valSigned
}

// Int returns a constant value as an int64, def for other values.
func (v Value) Int(def int64) int64 { return intOf(v, def) }

// SectionOffset returns a DW_FORM_sec_offset value.
func (v Value) SectionOffset() (uint64, bool) { return v.v, v.kind == valSecOff }

// LoclistIndex returns a DW_FORM_loclistx value: an index into the unit's
// location-list offsets (Data.LoclistOffset).
func (v Value) LoclistIndex() (uint64, bool) { return v.v, v.kind == valLoclistx }

// Block returns a block or expression value's bytes, nil for other
// values.
func (dw *Data) Block(v Value) []byte {
	if v.kind != valBlock || v.v+uint64(v.n) > uint64(len(dw.sec.info)) {
		return nil
	}
	return dw.sec.info[v.v : v.v+uint64(v.n)]
}

// block reads n bytes as a valBlock value.
func block(b *dwarfbuf.Reader, n uint64) Value {
	if n > uint64(b.Left()) {
		b.Fail("block beyond unit")
		return Value{}
	}
	start := b.Offset()
	b.Skip(int(n))
	return Value{kind: valBlock, n: uint32(n), v: start}
}

// indexKind is the kind of an index form's value: the string index forms
// (strx*) and the address index forms (addrx*) are read alike.
func indexKind(form uint32) valKind {
	if form == FormStrx || form == FormGNUStrIndex || form >= FormStrx1 && form <= FormStrx4 {
		return valStrx
	}
	return valAddrx
}

// readAttr decodes one attribute value at b's position.
func readAttr(b *dwarfbuf.Reader, form uint32, implicit int64, h *Header) Value {
	for form == FormIndirect && b.Err() == nil {
		form = uint32(b.Uleb())
	}
	switch form {
	case FormAddr:
		return Value{kind: valAddr, v: b.UintN(h.addrSize)}
	case FormData1, FormFlag:
		return Value{kind: valConst, v: uint64(b.U8())}
	case FormData2:
		return Value{kind: valConst, v: uint64(b.U16())}
	case FormData4:
		return Value{kind: valConst, v: uint64(b.U32())}
	case FormData8:
		return Value{kind: valConst, v: b.U64()}
	case FormUdata:
		return Value{kind: valConst, v: b.Uleb()}
	case FormSdata:
		return Value{kind: valSigned, v: uint64(b.Sleb())}
	case FormImplicitConst:
		return Value{kind: valSigned, v: uint64(implicit)}
	case FormFlagPresent:
		return Value{kind: valConst, v: 1}
	case FormRef1:
		return h.ref(h.off + uint64(b.U8()))
	case FormRef2:
		return h.ref(h.off + uint64(b.U16()))
	case FormRef4:
		return h.ref(h.off + uint64(b.U32()))
	case FormRef8:
		return h.ref(h.off + b.U64())
	case FormRefUdata:
		return h.ref(h.off + b.Uleb())
	case FormRefAddr:
		if h.version <= 2 {
			return h.ref(b.UintN(h.addrSize))
		}
		return h.ref(b.UintN(h.offSize()))
	case FormGNURefAlt:
		return Value{kind: valRef, v: supBit | b.UintN(h.offSize())&^supBit}
	case FormRefSup4:
		return Value{kind: valRef, v: supBit | uint64(b.U32())}
	case FormRefSup8:
		return Value{kind: valRef, v: supBit | b.U64()&^supBit}
	case FormGNUStrpAlt, FormStrpSup:
		return Value{kind: valStrSup, v: b.UintN(h.offSize())}
	case FormString:
		start := b.Offset()
		if b.SkipCString(); b.Err() != nil {
			return Value{}
		}
		return Value{kind: valStr, v: uint64(strSecInfo) | start}
	case FormStrp:
		return Value{kind: valStr, v: uint64(strSecStr) | b.UintN(h.offSize())&strOffMask}
	case FormLineStrp:
		return Value{kind: valStr, v: uint64(strSecLineStr) | b.UintN(h.offSize())&strOffMask}
	case FormStrx, FormGNUStrIndex, FormAddrx, FormGNUAddrIndex:
		return Value{kind: indexKind(form), v: b.Uleb()}
	case FormStrx1, FormAddrx1:
		return Value{kind: indexKind(form), v: uint64(b.U8())}
	case FormStrx2, FormAddrx2:
		return Value{kind: indexKind(form), v: uint64(b.U16())}
	case FormStrx3, FormAddrx3:
		return Value{kind: indexKind(form), v: b.U24()}
	case FormStrx4, FormAddrx4:
		return Value{kind: indexKind(form), v: uint64(b.U32())}
	case FormSecOffset:
		return Value{kind: valSecOff, v: b.UintN(h.offSize())}
	case FormRnglistx:
		return Value{kind: valRnglistx, v: b.Uleb()}
	case FormLoclistx:
		return Value{kind: valLoclistx, v: b.Uleb()}
	case FormData16:
		b.Bytes(16)
	case FormBlock1:
		return block(b, uint64(b.U8()))
	case FormBlock2:
		return block(b, uint64(b.U16()))
	case FormBlock4:
		return block(b, uint64(b.U32()))
	case FormBlock, FormExprloc:
		return block(b, b.Uleb())
	case FormRefSig8:
		b.U64()
	default:
		b.Fail(fmt.Sprintf("unknown attribute form 0x%x", form))
	}
	return Value{}
}

// ref is a reference to the DIE at .debug_info offset off of h's file.
func (h *Header) ref(off uint64) Value {
	if h.sup {
		off |= supBit
	}
	return Value{kind: valRef, v: off}
}

// dieReader walks the DIEs of one unit: it needs the unit's header, its
// abbreviations and its bytes, nothing of the object.
type dieReader struct {
	h    *Header
	tab  *abbrevTable
	big  bool // big-endian
	b    dwarfbuf.Reader
	vals []Value // the current DIE's values, aligned with its abbrev's attrs
}

func (dw *Data) newDIEReader(h *Header) (*dieReader, error) {
	tab, err := dw.abbrevs(h)
	if err != nil {
		return nil, fmt.Errorf("unit at 0x%x: %w", h.off, err)
	}
	return dw.dieReaderWith(h, tab), nil
}

// newRootReader is newDIEReader for reading unit h's root DIE only.
func (dw *Data) newRootReader(h *Header) (*dieReader, error) {
	r := dw.dieReaderWith(h, nil)
	code, ok := r.b.Uleb1()
	if !ok {
		code = r.b.Uleb()
	}
	if r.b.Err() != nil || code == 0 {
		return dw.newDIEReader(h) // no root: as any reader finds it
	}
	r.b.Seek(int(h.dieOff - h.off))
	tab, err := dw.rootAbbrevs(h, code)
	if err != nil {
		return nil, fmt.Errorf("unit at 0x%x: %w", h.off, err)
	}
	r.tab = tab
	return r, nil
}

func (dw *Data) dieReaderWith(h *Header, tab *abbrevTable) *dieReader {
	r := &dieReader{h: h, tab: tab, big: dw.byteOrder == binary.BigEndian}
	r.b = dwarfbuf.NewReader(".debug_info", h.off, dw.secOf(h).info[h.off:h.end], dw.byteOrder)
	r.b.Seek(int(h.dieOff - h.off))
	return r
}

// seek positions the reader at the DIE at section offset off.
func (r *dieReader) seek(off uint64) {
	r.b.Seek(int(off - r.h.off))
}

// next reads the next DIE's abbreviation: nil and off with a zero code (a
// null entry ending a sibling list); done at the end of the unit or on error.
// Only when decode(abbreviation) are the attribute values decoded into
// r.vals; otherwise (and with a nil decode) they are skipped.
func (r *dieReader) next(decode func(a *abbrev) bool) (off uint64, a *abbrev, done bool) {
	off, a, done = r.nextAbbrev()
	if a == nil {
		return off, nil, done
	}
	r.attrs(a, decode != nil && decode(a))
	return off, a, r.b.Err() != nil
}

// decodeAll is next's decode for reading a DIE whole.
func decodeAll(*abbrev) bool { return true }

// nextAbbrev reads the next DIE's abbreviation code, as next does, and
// leaves its attributes to attrs.
func (r *dieReader) nextAbbrev() (off uint64, a *abbrev, done bool) {
	b := &r.b
	if b.Err() != nil || b.Left() == 0 {
		return 0, nil, true
	}
	off = b.Offset()
	code, ok := b.Uleb1()
	if !ok {
		code = b.Uleb()
	}
	if code == 0 {
		return off, nil, b.Err() != nil
	}
	a = r.tab.get(code)
	if a == nil {
		b.Fail(fmt.Sprintf("unknown abbreviation code %d", code))
		return off, nil, true
	}
	return off, a, false
}

// attrs reads the attributes of the DIE whose abbreviation nextAbbrev
// returned: decoded into r.vals when decode is set, else skipped.
func (r *dieReader) attrs(a *abbrev, decode bool) {
	b := &r.b
	r.vals = r.vals[:0]
	if decode {
		for _, s := range a.attrs {
			r.vals = append(r.vals, readAttr(b, s.form, s.implicit, r.h))
		}
	} else if a.size >= 0 {
		b.Bytes(a.size)
	} else {
		if a.skip != nil {
			if end, ok := skipValues(a.skip, b.Data(), b.Pos(), r.big); ok {
				b.Seek(end)
				return
			}
		}
		for _, s := range a.attrs {
			readAttr(b, s.form, s.implicit, r.h)
		}
	}
}

// rangeVals reads the DW_AT_low_pc, DW_AT_high_pc and DW_AT_ranges
// values of the DIE whose abbreviation nextAbbrev returned, as attrs with
// decode set would (the last of each wins), and steps over the others:
// where the DIE's code is is all a probe needs to know of most
// subprograms. The reader ends where attrs leaves it, and fails where it
// fails.
func (r *dieReader) rangeVals(a *abbrev) (low, high, ranges Value) {
	if !a.hasRanges {
		r.attrs(a, false)
		return
	}
	b := &r.b
	for _, s := range a.attrs {
		switch s.attr {
		case AttrLowpc:
			low = readAttr(b, s.form, s.implicit, r.h)
		case AttrHighpc:
			high = readAttr(b, s.form, s.implicit, r.h)
		case AttrRanges:
			ranges = readAttr(b, s.form, s.implicit, r.h)
		default:
			if s.size >= 0 {
				b.Skip(int(s.size))
			} else {
				readAttr(b, s.form, s.implicit, r.h)
			}
		}
	}
	return low, high, ranges
}

// walkSubtree reads, in DIE order, the DIEs below the one r has just read,
// to the end of its subtree. visit gets each DIE (its values in r.vals when
// decode(abbreviation), as next says) with the state its parent handed
// down, and returns the state for the DIE's own children. It stops at the
// first decode error.
func walkSubtree[S any](r *dieReader, decode func(a *abbrev) bool, top S, visit func(off uint64, a *abbrev, parent S) S) error {
	stack := []S{top}
	for len(stack) > 0 {
		off, a, done := r.next(decode)
		if err := r.b.Err(); err != nil {
			return err
		}
		if a == nil {
			if done {
				break
			}
			stack = stack[:len(stack)-1]
			continue
		}
		next := visit(off, a, stack[len(stack)-1])
		if a.children {
			stack = append(stack, next)
		}
	}
	return nil
}

// intOf returns a constant value as debug/dwarf's int64 would hold it.
func intOf(v Value, def int64) int64 {
	switch v.kind {
	case valConst, valSigned:
		return int64(v.v)
	}
	return def
}

// secOf returns the sections h's DIEs are read from.
func (dw *Data) secOf(h *Header) *debugSections {
	if h.dwo != nil {
		return &h.dwo.debugSections
	}
	return dw.sec
}

// Subroutine resolves a reference from a DIE of fi (nil: from no index)
// to the DIE at off: from fi when it holds it, else by decoding that one
// DIE (a DW_FORM_ref_addr into another unit, the supplementary file, or a
// DIE a probe left out).
func (dw *Data) Subroutine(fi *FuncIndex, off uint64) (Subroutine, bool) {
	if fi != nil {
		if i, ok := fi.byOff(off); ok {
			return fi.DIE(int32(i)), true
		}
	}
	var h *Header
	switch {
	case off&supBit != 0:
		u := dw.UnitOfDIE(off)
		if u == nil {
			return Subroutine{}, false
		}
		h = &u.h
	case fi != nil && fi.h != nil && fi.h.dwo != nil:
		// A split unit's references stay within its .dwo unit.
		if off < fi.h.dieOff || off >= fi.h.end {
			return Subroutine{}, false
		}
		h = fi.h
	default:
		u := dw.units.unitAt(off)
		if u == nil {
			return Subroutine{}, false
		}
		h = &u.h
	}
	r, err := dw.newDIEReader(h)
	if err != nil {
		return Subroutine{}, false
	}
	r.seek(off &^ supBit)
	_, a, _ := r.next(decodeAll)
	if a == nil || r.b.Err() != nil {
		return Subroutine{}, false
	}
	di, _, _, _ := dw.readDieInfo(h, a, r.vals)
	return di, true
}

// readDieInfo extracts a DIE's naming and call-site attributes from its
// decoded values; low, high and ranges are returned for dieRanges.
func (dw *Data) readDieInfo(h *Header, a *abbrev, vals []Value) (di Subroutine, low, high, ranges Value) {
	di = Subroutine{Name: NoStr, Linkage: NoStr, DeclFile: -1, DeclLine: -1, CallFile: -1, Inlined: a.tag == TagInlinedSubroutine}
	for i, s := range a.attrs {
		v := vals[i]
		switch s.attr {
		case AttrName:
			di.Name = dw.strOf(h, v)
		case AttrLinkageName, AttrMIPSLinkageName:
			if r := dw.strOf(h, v); r != NoStr {
				di.Linkage = r
			}
		case AttrSpecification:
			if v.kind == valRef {
				di.Spec = v.v
			}
		case AttrAbstractOrigin:
			if v.kind == valRef {
				di.Origin = v.v
			}
		case AttrDeclFile:
			di.DeclFile = int32(intOf(v, -1))
			if s.form == FormImplicitConst {
				di.flags |= dieDeclFileImplicit
			}
		case AttrDeclLine:
			di.DeclLine = int32(intOf(v, -1))
		case AttrCallFile:
			di.CallFile = int32(intOf(v, -1))
		case AttrCallLine:
			di.CallLine = int32(intOf(v, 0))
		case AttrCallColumn:
			di.CallColumn = int32(intOf(v, 0))
		case AttrGNUDiscriminator:
			di.Discriminator = int32(intOf(v, 0))
		case AttrLowpc:
			low = v
			di.LowPC, di.HasLowPC = dw.addrOf(h, v)
		case AttrHighpc:
			high = v
		case AttrRanges:
			ranges = v
			if s.form == FormRnglistx {
				di.flags |= dieRangesIndexed
			}
		}
	}
	return di, low, high, ranges
}

// Ranges returns the address ranges of the DIE at off (of one of the
// Data's own units), in the order its attributes give them: low and high
// pc, or its range list in list order. Empty ranges are left out.
func (dw *Data) Ranges(off uint64) [][2]uint64 {
	u := dw.units.unitAt(off)
	if u == nil {
		return nil
	}
	r, err := dw.newDIEReader(&u.h)
	if err != nil {
		return nil
	}
	r.seek(off)
	_, a, _ := r.next(decodeAll)
	if a == nil || r.b.Err() != nil {
		return nil
	}
	_, low, high, ranges := dw.readDieInfo(&u.h, a, r.vals)
	return dw.dieRanges(&u.h, low, high, ranges, nil)
}

// A StrRef names a NUL-terminated string of the DWARF without copying it
// (Str copies it): the section in the top two bits, the offset below.
// Strings of .dwo and supplementary files share one extra space, so a
// StrRef names one string among all the files of a Data and can key a
// cache.
type StrRef uint64

// NoStr is the StrRef of an absent string.
const NoStr = StrRef(^uint64(0))

const (
	strSecStr     = 0 << 62
	strSecLineStr = 1 << 62
	strSecInfo    = 2 << 62
	strSecExt     = 3 << 62 // the string space of split units' .dwo files (extStrings)
	strOffMask    = 1<<62 - 1
)

// strOf resolves a string value to a StrRef; NoStr when it is not a string
// or cannot be resolved. The string's bytes are not touched here, so
// indexing a unit does not page in .debug_str; nonEmpty checks them later.
func (dw *Data) strOf(h *Header, v Value) StrRef {
	switch v.kind {
	case valStr:
	case valStrSup:
		return dw.supStr(v.v)
	case valStrx:
		offs := dw.secOf(h).strOffsets
		n := uint64(h.offSize())
		p := h.strOffsetsBase + v.v*n
		if p+n > uint64(len(offs)) || p < h.strOffsetsBase {
			return NoStr
		}
		var off uint64
		if n == 8 {
			off = dw.byteOrder.Uint64(offs[p:])
		} else {
			off = uint64(dw.byteOrder.Uint32(offs[p:]))
		}
		v.v = uint64(strSecStr) | off&strOffMask
	default:
		return NoStr
	}
	if h.dwo != nil {
		return h.dwo.extRef(v.v)
	}
	sec, off := dw.strBytes(StrRef(v.v))
	if off >= uint64(len(sec)) {
		return NoStr
	}
	return StrRef(v.v)
}

// NonEmpty reports whether s names a non-empty string.
func (dw *Data) NonEmpty(s StrRef) bool {
	if s == NoStr {
		return false
	}
	if off, end, ok := dw.storedStr(s); ok {
		return dw.sec.file.NonEmptyAt(off, end)
	}
	sec, off := dw.strBytes(s)
	return off < uint64(len(sec)) && sec[off] != 0
}

// strBytes returns the section s points into and its offset there.
func (dw *Data) strBytes(s StrRef) ([]byte, uint64) {
	off := uint64(s) & strOffMask
	switch uint64(s) &^ strOffMask {
	case strSecStr:
		return dw.sec.str, off
	case strSecLineStr:
		return dw.sec.lineStr, off
	case strSecInfo:
		return dw.sec.info, off
	case strSecExt:
		return dw.ext.find(off)
	}
	return nil, 0
}

// storedStr returns where in the file the string s starts, and where
// .debug_str ends, when s is in a .debug_str stored uncompressed: its
// bytes are then read from the file, not through the mapping (see
// debugSections.strStored).
func (dw *Data) storedStr(s StrRef) (off, end uint64, ok bool) {
	st := dw.sec.strStored
	if uint64(s)&^strOffMask != strSecStr || st[1] <= st[0] {
		return 0, 0, false
	}
	return st[0] + uint64(s)&strOffMask, st[1], true
}

// str copies the string s names; "" for NoStr or a bad offset.
func (dw *Data) Str(s StrRef) string {
	if s == NoStr {
		return ""
	}
	if off, end, ok := dw.storedStr(s); ok {
		v, _ := dw.sec.file.CStringAt(off, end)
		return v
	}
	sec, off := dw.strBytes(s)
	v, _ := dwarfbuf.CStringAt(sec, off)
	return v
}

// extRef turns a string value read from the .dwo (a StrRef tagged with the
// .dwo's own section) into a reference in the Data's extended space.
func (d *DWO) extRef(v uint64) StrRef {
	off := v & strOffMask
	switch v &^ strOffMask {
	case strSecStr:
		if off < uint64(len(d.str)) {
			return StrRef(strSecExt | (d.strBase + off))
		}
	case strSecInfo:
		if off < uint64(len(d.info)) {
			return StrRef(strSecExt | (d.infoBase + off))
		}
	case strSecLineStr:
		if off < uint64(len(d.lineStr)) {
			return StrRef(strSecExt | (d.lineStrBase + off))
		}
	}
	return NoStr
}

// extStrings gives the string-bearing sections of .dwo files one offset
// space, so that a StrRef (and the name caches keyed by it) still names a
// string in any of the Data's files. Segments are only ever added.
type extStrings struct {
	mu   sync.Mutex
	next uint64
	segs atomic.Pointer[[]extSeg]
}

type extSeg struct {
	base uint64
	data []byte
}

// add places data in the space and returns its base.
func (e *extStrings) add(data []byte) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	base := e.next
	e.next += uint64(len(data)) + 1 // +1: an empty section still gets its own base
	var segs []extSeg
	if p := e.segs.Load(); p != nil {
		segs = append(segs, *p...)
	}
	segs = append(segs, extSeg{base: base, data: data})
	e.segs.Store(&segs)
	return base
}

// find returns the section holding off and the offset in it.
func (e *extStrings) find(off uint64) ([]byte, uint64) {
	p := e.segs.Load()
	if p == nil {
		return nil, 0
	}
	segs := *p
	i := sort.Search(len(segs), func(i int) bool { return segs[i].base > off }) - 1
	if i < 0 || off-segs[i].base >= uint64(len(segs[i].data)) {
		return nil, 0
	}
	return segs[i].data, off - segs[i].base
}

// supStr resolves a DW_FORM_GNU_strp_alt or DW_FORM_strp_sup offset.
func (dw *Data) supStr(off uint64) StrRef {
	if dw.sup == nil || off >= uint64(len(dw.sup.sec.str)) {
		return NoStr
	}
	return StrRef(strSecExt | (dw.sup.sec.strBase + off))
}

// addrOf resolves an address value (DW_FORM_addr or an index into
// .debug_addr).
func (dw *Data) addrOf(h *Header, v Value) (uint64, bool) {
	switch v.kind {
	case valAddr:
		return v.v, true
	case valAddrx:
		return dw.debugAddr(h, v.v)
	}
	return 0, false
}

func (dw *Data) debugAddr(h *Header, idx uint64) (uint64, bool) {
	n := uint64(h.addrSize)
	p := h.addrBase + idx*n
	if idx > uint64(len(dw.sec.addr)) || p+n > uint64(len(dw.sec.addr)) || p < h.addrBase {
		return 0, false
	}
	b := dwarfbuf.NewReader(".debug_addr", p, dw.sec.addr[p:p+n], dw.byteOrder)
	return b.UintN(int(n)), true
}

// rangesOf returns the address ranges of a DIE from its DW_AT_low_pc,
// DW_AT_high_pc and DW_AT_ranges values, as debug/dwarf's Data.Ranges does
// (low/high first, then the range list); empty ranges are kept for the
// caller to drop.
func (dw *Data) rangesOf(h *Header, low, high, ranges Value, dst [][2]uint64) ([][2]uint64, error) {
	rl := dw.rnglistsOf(h)
	lo, loOK := dw.addrOf(h, low)
	if loOK {
		switch high.kind {
		case valAddr, valAddrx:
			if hi, ok := dw.addrOf(h, high); ok {
				dst = append(dst, [2]uint64{lo, hi})
			}
		case valConst, valSigned:
			dst = append(dst, [2]uint64{lo, lo + high.v})
		}
	}
	switch ranges.kind {
	case valSecOff, valConst:
		if h.version >= 5 && rl != nil {
			return dw.rnglist(h, ranges.v, dst)
		}
		if ranges.kind == valConst && h.version >= 4 {
			return dst, nil // a constant is not a rangelistptr in DWARF 4+
		}
		if dw.sec.ranges != nil {
			return dw.dwarf2Ranges(h, ranges.v, dst)
		}
	case valRnglistx:
		if h.version >= 5 && rl != nil {
			n := uint64(h.offSize())
			p := h.rnglistsBase + ranges.v*n
			if ranges.v > uint64(len(rl)) || p+n > uint64(len(rl)) {
				return nil, fmt.Errorf("DW_FORM_rnglistx %d out of range", ranges.v)
			}
			b := dwarfbuf.NewReader(".debug_rnglists", p, rl[p:p+n], dw.byteOrder)
			return dw.rnglist(h, h.rnglistsBase+b.UintN(int(n)), dst)
		}
	}
	return dst, nil
}

func (dw *Data) dwarf2Ranges(h *Header, off uint64, dst [][2]uint64) ([][2]uint64, error) {
	off += h.rangesBase
	if off > uint64(len(dw.sec.ranges)) {
		return nil, fmt.Errorf("invalid range offset %d (max %d)", off, len(dw.sec.ranges))
	}
	b := dwarfbuf.NewReader(".debug_ranges", off, dw.sec.ranges[off:], dw.byteOrder)
	base := h.base
	maxAddr := ^uint64(0) >> uint((8-h.addrSize)*8)
	for b.Left() > 0 && b.Err() == nil {
		lo, hi := b.UintN(h.addrSize), b.UintN(h.addrSize)
		if lo == 0 && hi == 0 {
			break
		}
		if lo == maxAddr {
			base = hi
		} else {
			dst = append(dst, [2]uint64{base + lo, base + hi})
		}
	}
	return dst, nil
}

// rnglist decodes the DWARF 5 range list at off in .debug_rnglists.
func (dw *Data) rnglist(h *Header, off uint64, dst [][2]uint64) ([][2]uint64, error) {
	rl := dw.rnglistsOf(h)
	if off > uint64(len(rl)) {
		return nil, fmt.Errorf("invalid rnglist offset %d (max %d)", off, len(rl))
	}
	b := dwarfbuf.NewReader(".debug_rnglists", off, rl[off:], dw.byteOrder)
	base := h.base
	addr := func(idx uint64) (uint64, error) {
		a, ok := dw.debugAddr(h, idx)
		if !ok {
			return 0, fmt.Errorf("DW_FORM_addrx index %d out of range", idx)
		}
		return a, nil
	}
	for {
		op := b.U8()
		if b.Err() != nil {
			return nil, b.Err()
		}
		switch op {
		case 0: // DW_RLE_end_of_list
			return dst, nil
		case 1: // base_addressx
			a, err := addr(b.Uleb())
			if err != nil {
				return nil, err
			}
			base = a
		case 2: // startx_endx
			si, ei := b.Uleb(), b.Uleb()
			s, err := addr(si)
			if err != nil {
				return nil, err
			}
			e, err := addr(ei)
			if err != nil {
				return nil, err
			}
			dst = append(dst, [2]uint64{s, e})
		case 3: // startx_length
			si, n := b.Uleb(), b.Uleb()
			s, err := addr(si)
			if err != nil {
				return nil, err
			}
			dst = append(dst, [2]uint64{s, s + n})
		case 4: // offset_pair
			a, c := b.Uleb(), b.Uleb()
			dst = append(dst, [2]uint64{base + a, base + c})
		case 5: // base_address
			base = b.UintN(h.addrSize)
		case 6: // start_end
			s, e := b.UintN(h.addrSize), b.UintN(h.addrSize)
			dst = append(dst, [2]uint64{s, e})
		case 7: // start_length
			s, n := b.UintN(h.addrSize), b.Uleb()
			dst = append(dst, [2]uint64{s, s + n})
		}
	}
}

// rnglistsOf returns the .debug_rnglists h's range lists are in: a split
// unit's own (.debug_rnglists.dwo), else the object's.
func (dw *Data) rnglistsOf(h *Header) []byte {
	if h.dwo != nil {
		return h.dwo.rnglists
	}
	return dw.sec.rnglists
}

// dieRanges returns a DIE's non-empty address ranges: low_pc/high_pc when
// both are present, else its range list.
func (dw *Data) dieRanges(h *Header, low, high, ranges Value, dst [][2]uint64) [][2]uint64 {
	if lo, ok := dw.addrOf(h, low); ok && high.kind != valNone {
		var hi uint64
		switch high.kind {
		case valAddr, valAddrx:
			hi, _ = dw.addrOf(h, high)
		case valConst, valSigned:
			hi = lo + high.v
		}
		if lo < hi {
			return append(dst, [2]uint64{lo, hi})
		}
		return dst
	}
	if ranges.kind == valNone {
		return dst
	}
	rs, err := dw.rangesOf(h, Value{}, Value{}, ranges, dst)
	if err != nil {
		return dst[:0]
	}
	out := rs[:0]
	for _, r := range rs {
		if r[0] < r[1] {
			out = append(out, r)
		}
	}
	return out
}
