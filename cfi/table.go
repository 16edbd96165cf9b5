package cfi

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// maxInflated bounds the inflated size of a compressed .debug_frame.
const maxInflated = 1 << 30

// Table is the CFI of one module: its .eh_frame and .debug_frame (the
// binary's, else its separate debug file's), parsed once and indexed by
// address. Addresses are link-time addresses of the module. A Table is
// immutable after Load and safe for concurrent use.
type Table struct {
	secs     []*section
	fdes     []*FDE   // sorted by Begin; ties keep .eh_frame first
	maxEnd   []uint64 // maxEnd[i]: the largest End of fdes[:i+1]
	ehByOff  map[uint64]*FDE
	hdr      *ehHdr
	errs     []error
	addrSize int
	machine  elf.Machine
}

// Errors returns one error per CFI entry (or section) that could not be
// read. They never stop the rest of the table.
func (t *Table) Errors() []error { return t.errs }

// Load reads the CFI of f, and the .debug_frame of its separate debug file
// debug (which may be nil) when f has none.
func Load(f *elf.File, debug *elf.File) (*Table, error) {
	t := &Table{ehByOff: map[uint64]*FDE{}, addrSize: 8, machine: f.Machine}
	if f.Class == elf.ELFCLASS32 {
		t.addrSize = 4
	}
	eh, err := loadSection(f, ".eh_frame", t.addrSize)
	if err != nil {
		t.errs = append(t.errs, err)
	}
	if eh != nil {
		t.secs = append(t.secs, eh)
		if h, err := loadHdr(f, eh); err != nil {
			t.errs = append(t.errs, err)
		} else {
			t.hdr = h
		}
	}
	df, err := loadDebugFrame(f, t.addrSize)
	if err != nil {
		t.errs = append(t.errs, err)
	}
	if df == nil && debug != nil {
		df, err = loadDebugFrame(debug, t.addrSize)
		if err != nil {
			t.errs = append(t.errs, err)
		}
	}
	if df != nil {
		t.secs = append(t.secs, df)
	}
	t.build()
	return t, nil
}

// build indexes the FDEs of t.secs.
func (t *Table) build() {
	for _, s := range t.secs {
		t.index(s)
	}
	sort.SliceStable(t.fdes, func(i, j int) bool { return t.fdes[i].Begin < t.fdes[j].Begin })
	t.maxEnd = make([]uint64, len(t.fdes))
	var m uint64
	for i, f := range t.fdes {
		m = max(m, f.End)
		t.maxEnd[i] = m
	}
}

func loadDebugFrame(f *elf.File, addrSize int) (*section, error) {
	s, err := loadSection(f, ".debug_frame", addrSize)
	if s != nil || err != nil {
		return s, err
	}
	return loadSection(f, ".zdebug_frame", addrSize)
}

// loadSection returns the named section's contents, inflated, or nil when
// the file has no such section with contents.
func loadSection(f *elf.File, name string, addrSize int) (*section, error) {
	sh := f.Section(name)
	if sh == nil || sh.Type == elf.SHT_NOBITS || sh.Size == 0 {
		return nil, nil
	}
	data, err := sectionData(sh)
	if err != nil {
		return nil, err
	}
	relocErr := applyRelocations(f, sh, data)
	s := &section{name: name, addr: sh.Addr, eh: name == ".eh_frame", data: data, bo: f.ByteOrder, addrSize: addrSize}
	if got := f.Section(".got"); got != nil {
		s.dataBase = got.Addr
	}
	return s, relocErr
}

// sectionData reads a section; debug/elf inflates SHF_COMPRESSED (zlib,
// zstd) and the legacy .zdebug form, and the read is bounded whatever the
// compression header claims.
func sectionData(sh *elf.Section) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(sh.Open(), maxInflated+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", sh.Name, err)
	}
	if len(data) > maxInflated {
		return nil, fmt.Errorf("%s: more than %d bytes", sh.Name, maxInflated)
	}
	return data, nil
}

// entryWalk calls fn for each entry header of s in order; it stops at the
// first header that cannot be trusted (reported through fn with err set).
func (s *section) walk(fn func(e rawEntry, err error) bool) {
	off := 0
	for off < len(s.data) {
		e, err := s.readRaw(off)
		if !fn(e, err) || err != nil {
			return
		}
		off = e.end
	}
}

// cieAt parses the CIE at off (cached in cies).
func (s *section) cieAt(off int, cies map[int]*CIE) (*CIE, error) {
	if c, ok := cies[off]; ok {
		if c == nil {
			return nil, fmt.Errorf("its CIE at 0x%x is unreadable", off)
		}
		return c, nil
	}
	cies[off] = nil
	e, err := s.readRaw(off)
	if err != nil {
		return nil, err
	}
	if e.kind != kindCIE {
		return nil, fmt.Errorf("no CIE at 0x%x", off)
	}
	c, err := s.parseCIE(e)
	if err != nil {
		return nil, err
	}
	cies[off] = c
	return c, nil
}

func (t *Table) index(s *section) {
	cies := map[int]*CIE{}
	s.walk(func(e rawEntry, err error) bool {
		if err != nil {
			t.errs = append(t.errs, err)
			return false
		}
		switch e.kind {
		case kindCIE:
			if _, err := s.cieAt(e.off, cies); err != nil {
				t.errs = append(t.errs, err)
			}
		case kindFDE:
			cp, err := s.ciePointer(e)
			if err != nil {
				t.errs = append(t.errs, err)
				return true
			}
			c, err := s.cieAt(cp, cies)
			if err != nil {
				t.errs = append(t.errs, fmt.Errorf("%s FDE at 0x%x: %v", s.name, e.off, err))
				return true
			}
			f, err := s.parseFDE(e, c)
			if err != nil {
				t.errs = append(t.errs, err)
				return true
			}
			if f.End <= f.Begin {
				return true // discarded by the linker (range 0) or wrapped
			}
			t.fdes = append(t.fdes, f)
			if s.eh {
				t.ehByOff[f.Offset] = f
			}
		}
		return true
	})
}

// FDEFor returns the FDE covering the link-time address pc: through
// .eh_frame_hdr's search table when there is one, else (and for
// .debug_frame) through the sorted index.
func (t *Table) FDEFor(pc uint64) (*FDE, bool) {
	if t.hdr != nil {
		if off, ok := t.hdr.lookup(pc); ok {
			if f := t.ehByOff[off]; f != nil && pc >= f.Begin && pc < f.End {
				return f, true
			}
		}
	}
	i := sort.Search(len(t.fdes), func(i int) bool { return t.fdes[i].Begin > pc })
	// The closest start first; earlier ones only while some FDE up to
	// there still reaches past pc (ranges overlap only in odd CFI).
	for j := i - 1; j >= 0 && t.maxEnd[j] > pc; j-- {
		if f := t.fdes[j]; pc < f.End {
			return f, true
		}
	}
	return nil, false
}

// ErrNoFDE is returned when no FDE covers a pc.
var ErrNoFDE = errors.New("no CFI covers the pc")

// RowAt returns the unwind rules in force at the link-time address pc.
func (t *Table) RowAt(pc uint64) (*Row, error) {
	f, ok := t.FDEFor(pc)
	if !ok {
		return nil, fmt.Errorf("pc 0x%x: %w", pc, ErrNoFDE)
	}
	return f.RowAt(pc)
}

// Func is the address range of one FDE: for stripped code, the bounds of a
// function (or of one of its parts, such as a .cold block).
type Func struct {
	Begin, End uint64
}

// Functions returns the ranges of every FDE, sorted by start and without
// duplicates (an .eh_frame and a .debug_frame FDE for the same code).
func (t *Table) Functions() []Func {
	out := make([]Func, 0, len(t.fdes))
	for _, f := range t.fdes {
		if n := len(out); n > 0 && out[n-1].Begin == f.Begin {
			if f.End > out[n-1].End {
				out[n-1].End = f.End
			}
			continue
		}
		out = append(out, Func{f.Begin, f.End})
	}
	return out
}

// FuncAt returns the FDE range covering pc, for naming code without symbols.
func (t *Table) FuncAt(pc uint64) (Func, bool) {
	f, ok := t.FDEFor(pc)
	if !ok {
		return Func{}, false
	}
	return Func{f.Begin, f.End}, true
}

// ehHdr is .eh_frame_hdr's binary search table.
type ehHdr struct {
	data    []byte // the table: count pairs of (initial location, FDE address), sdata4 each
	count   int
	hdrAddr uint64
	ehAddr  uint64
	bo      binary.ByteOrder
}

// loadHdr reads .eh_frame_hdr. Only the datarel|sdata4 table that every
// linker writes is used for lookups; another layout falls back to the
// sorted index.
func loadHdr(f *elf.File, eh *section) (*ehHdr, error) {
	sh := f.Section(".eh_frame_hdr")
	if sh == nil || sh.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	data, err := sh.Data()
	if err != nil {
		return nil, fmt.Errorf(".eh_frame_hdr: %v", err)
	}
	if len(data) < 4 || data[0] != 1 {
		return nil, fmt.Errorf(".eh_frame_hdr: bad header")
	}
	hs := &section{name: ".eh_frame_hdr", addr: sh.Addr, data: data, bo: f.ByteOrder, addrSize: eh.addrSize, dataBase: sh.Addr}
	r := newReader(".eh_frame_hdr", data, 4, f.ByteOrder)
	ptrEnc, countEnc, tableEnc := data[1], data[2], data[3]
	ehPtr, err := hs.readEncoded(r, ptrEnc, eh.addrSize)
	if err != nil {
		return nil, fmt.Errorf(".eh_frame_hdr: %v", err)
	}
	if ehPtr != eh.addr {
		return nil, fmt.Errorf(".eh_frame_hdr: points to 0x%x, .eh_frame is at 0x%x", ehPtr, eh.addr)
	}
	if countEnc == peOmit || tableEnc != peDatarel|peSdata4 {
		return nil, nil
	}
	n, err := hs.readEncoded(r, countEnc, eh.addrSize)
	if err != nil {
		return nil, fmt.Errorf(".eh_frame_hdr: %v", err)
	}
	if n > uint64(r.Left()/8) {
		return nil, fmt.Errorf(".eh_frame_hdr: %d table entries do not fit in the section", n)
	}
	return &ehHdr{data: data[r.Pos() : r.Pos()+8*int(n)], count: int(n), hdrAddr: sh.Addr, ehAddr: eh.addr, bo: f.ByteOrder}, nil
}

func (h *ehHdr) entry(i int) (loc, fde uint64) {
	p := h.data[8*i:]
	loc = h.hdrAddr + uint64(int64(int32(h.bo.Uint32(p))))
	fde = h.hdrAddr + uint64(int64(int32(h.bo.Uint32(p[4:]))))
	return
}

// lookup returns the .eh_frame offset of the FDE whose start is the
// greatest one <= pc.
func (h *ehHdr) lookup(pc uint64) (uint64, bool) {
	i := sort.Search(h.count, func(i int) bool {
		loc, _ := h.entry(i)
		return loc > pc
	})
	if i == 0 {
		return 0, false
	}
	_, fde := h.entry(i - 1)
	if fde < h.ehAddr {
		return 0, false
	}
	return fde - h.ehAddr, true
}
