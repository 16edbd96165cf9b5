package symbolize

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// locSections are the location-list sections, read only for FRAME queries
// whose variables have location lists.
type locSections struct {
	loc, loclists []byte
}

// locationSections returns .debug_loc and .debug_loclists of the file
// holding the DWARF (uncompressed sections are slices of the mapping), read
// once per object.
func (w *frameWalk) locationSections() (*locSections, error) {
	o := w.o
	o.locsOnce.Do(func() { o.locs, o.locsErr = o.readLocationSections() })
	return o.locs, o.locsErr
}

// readLocationSections reads them from the headers the object was opened
// with (a damaged header already left out); one that cannot be read costs
// the lists kept there, not the other's.
func (o *Object) readLocationSections() (*locSections, error) {
	if o.dwarfELF == nil || o.sec == nil {
		return nil, errors.New("no DWARF")
	}
	ef, data := o.dwarfELF, o.sec.file.Bytes()
	var ls locSections
	var err1, err2 error
	ls.loc, err1 = dwarfbuf.Section(ef, data, ".debug_loc")
	ls.loclists, err2 = dwarfbuf.Section(ef, data, ".debug_loclists")
	if err1 != nil && err2 != nil {
		return nil, err1
	}
	return &ls, nil
}

// frameOffset is llvm 14's getExpressionFrameOffset over the expressions
// of a DW_AT_location (DWARFDie::getLocations): the first that is a single
// DW_OP_fbreg, or DW_OP_breg of the frame-base register, optionally
// followed by DW_OP_deref. A location list that cannot be read whole gives
// no offset, as llvm drops it on any error.
func (w *frameWalk) frameOffset(v attrVal, form uint32, fbReg int) (int64, bool) {
	if v.kind == valBlock {
		return exprFrameOffset(w.o.blockOf(v), fbReg)
	}
	var exprs [][]byte
	var err error
	switch v.kind {
	case valSecOff:
		exprs, err = w.locationList(v.v)
	case valLoclistx:
		off, ok := w.loclistOffset(v.v)
		if !ok {
			return 0, false
		}
		exprs, err = w.locationList(off)
	default:
		return 0, false
	}
	if err != nil {
		return 0, false
	}
	for _, e := range exprs {
		if off, ok := exprFrameOffset(e, fbReg); ok {
			return off, true
		}
	}
	return 0, false
}

func exprFrameOffset(e []byte, fbReg int) (int64, bool) {
	if len(e) == 0 || !(e[0] == opFbreg || fbReg >= 0 && int(e[0]) == opBreg0+fbReg) {
		return 0, false
	}
	b := dwarfbuf.NewReader("location expression", 0, e[1:], binary.LittleEndian)
	off := b.Sleb()
	if b.Err() != nil {
		return 0, false
	}
	switch rest := e[1+b.Pos():]; {
	case len(rest) == 0:
		return off, true
	case len(rest) == 1 && rest[0] == opDeref:
		return off, true
	}
	return 0, false
}

// loclistOffset resolves a DW_FORM_loclistx index through the unit's
// DW_AT_loclists_base offset array.
func (w *frameWalk) loclistOffset(idx uint64) (uint64, bool) {
	if !w.hasLoclists {
		return 0, false
	}
	ls, err := w.locationSections()
	if err != nil {
		return 0, false
	}
	n := uint64(w.u.h.offSize())
	p := w.loclistsBase + idx*n
	if idx > uint64(len(ls.loclists)) || p < w.loclistsBase || p+n > uint64(len(ls.loclists)) {
		return 0, false
	}
	b := dwarfbuf.NewReader(".debug_loclists", p, ls.loclists[p:p+n], w.o.byteOrder)
	return w.loclistsBase + b.UintN(int(n)), true
}

// DW_LLE_* entry kinds (DWARF 5, 7.7.3).
const (
	lleEndOfList       = 0
	lleBaseAddressx    = 1
	lleStartxEndx      = 2
	lleStartxLength    = 3
	lleOffsetPair      = 4
	lleDefaultLocation = 5
	lleBaseAddress     = 6
	lleStartEnd        = 7
	lleStartLength     = 8
)

// locationList returns the expressions of the list at off, in order, or an
// error where llvm's visitAbsoluteLocationList would fail (an entry it
// cannot read or resolve).
func (w *frameWalk) locationList(off uint64) ([][]byte, error) {
	ls, err := w.locationSections()
	if err != nil {
		return nil, err
	}
	h := &w.u.h
	hasBase := w.hasBase
	var exprs [][]byte
	if h.version < 5 {
		if off >= uint64(len(ls.loc)) {
			return nil, errors.New("location list beyond .debug_loc")
		}
		b := dwarfbuf.NewReader(".debug_loc", off, ls.loc[off:], w.o.byteOrder)
		maxAddr := ^uint64(0) >> (64 - 8*uint(h.addrSize))
		for b.Err() == nil {
			lo, hi := b.UintN(h.addrSize), b.UintN(h.addrSize)
			if b.Err() != nil {
				break
			}
			if lo == 0 && hi == 0 {
				return exprs, nil
			}
			if lo == maxAddr {
				hasBase = true
				continue
			}
			n := uint64(b.U16())
			if n > uint64(b.Left()) {
				return nil, errors.New("expression beyond .debug_loc")
			}
			e := b.Bytes(int(n))
			if !hasBase {
				return nil, errors.New("offset pair without a base address")
			}
			exprs = append(exprs, e)
		}
		return nil, b.Err()
	}
	if off >= uint64(len(ls.loclists)) {
		return nil, errors.New("location list beyond .debug_loclists")
	}
	b := dwarfbuf.NewReader(".debug_loclists", off, ls.loclists[off:], w.o.byteOrder)
	addrx := func(i uint64) error {
		if _, ok := w.o.debugAddr(h, i); !ok {
			return fmt.Errorf("unresolved address index %d", i)
		}
		return nil
	}
	for b.Err() == nil {
		kind := b.U8()
		var ierr error
		switch kind {
		case lleEndOfList:
			return exprs, b.Err()
		case lleBaseAddressx:
			if err := addrx(b.Uleb()); err != nil {
				return nil, err
			}
			hasBase = true
			continue
		case lleStartxEndx:
			a, c := b.Uleb(), b.Uleb()
			if ierr = addrx(a); ierr == nil {
				ierr = addrx(c)
			}
		case lleStartxLength:
			a := b.Uleb()
			b.Uleb()
			ierr = addrx(a)
		case lleOffsetPair:
			b.Uleb()
			b.Uleb()
			if !hasBase {
				ierr = errors.New("offset pair without a base address")
			}
		case lleDefaultLocation:
		case lleBaseAddress:
			b.UintN(h.addrSize)
			hasBase = true
			continue
		case lleStartEnd:
			b.UintN(h.addrSize)
			b.UintN(h.addrSize)
		case lleStartLength:
			b.UintN(h.addrSize)
			b.Uleb()
		default:
			return nil, fmt.Errorf("location list entry of kind 0x%x not supported", kind)
		}
		n := b.Uleb()
		if b.Err() != nil || n > uint64(b.Left()) {
			return nil, errors.New("expression beyond .debug_loclists")
		}
		e := b.Bytes(int(n))
		if ierr != nil {
			return nil, ierr
		}
		exprs = append(exprs, e)
	}
	return nil, b.Err()
}
