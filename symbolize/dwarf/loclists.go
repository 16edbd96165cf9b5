package dwarf

import (
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// locSections are the location-list sections, read only for the first
// location list asked for: symbolizing code never needs them.
type locSections struct {
	loc, loclists []byte
}

// locationSections returns .debug_loc and .debug_loclists of the file
// holding the DWARF (uncompressed sections are slices of the mapping), read
// once.
func (dw *Data) locationSections() (*locSections, error) {
	dw.locsOnce.Do(func() { dw.locs, dw.locsErr = dw.readLocationSections() })
	return dw.locs, dw.locsErr
}

// readLocationSections reads them from the headers the DWARF's file was
// opened with (a damaged header already left out); one that cannot be
// read costs the lists kept there, not the other's.
func (dw *Data) readLocationSections() (*locSections, error) {
	if dw.elf == nil {
		return nil, errors.New("no DWARF")
	}
	ef, data := dw.elf, dw.sec.file.Bytes()
	var ls locSections
	var err1, err2 error
	ls.loc, err1 = dwarfbuf.Section(ef, data, ".debug_loc")
	ls.loclists, err2 = dwarfbuf.Section(ef, data, ".debug_loclists")
	if err1 != nil && err2 != nil {
		return nil, err1
	}
	return &ls, nil
}

// LoclistOffset resolves a DW_FORM_loclistx index of unit u through the
// offset array at base in .debug_loclists (u's DW_AT_loclists_base).
func (dw *Data) LoclistOffset(u *Unit, base, idx uint64) (uint64, bool) {
	ls, err := dw.locationSections()
	if err != nil {
		return 0, false
	}
	n := uint64(u.h.offSize())
	p := base + idx*n
	if idx > uint64(len(ls.loclists)) || p < base || p+n > uint64(len(ls.loclists)) {
		return 0, false
	}
	b := dwarfbuf.NewReader(".debug_loclists", p, ls.loclists[p:p+n], dw.byteOrder)
	return base + b.UintN(int(n)), true
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

// LocationList returns the expressions of unit u's location list at off
// (in .debug_loc before DWARF 5, .debug_loclists after), in order. An
// entry that cannot be read, an address index that cannot be resolved,
// or an offset pair before any base address (hasBase: u's DW_AT_low_pc
// gives one) is an error: the list cannot be used whole.
func (dw *Data) LocationList(u *Unit, off uint64, hasBase bool) ([][]byte, error) {
	ls, err := dw.locationSections()
	if err != nil {
		return nil, err
	}
	h := &u.h
	var exprs [][]byte
	if h.version < 5 {
		if off >= uint64(len(ls.loc)) {
			return nil, errors.New("location list beyond .debug_loc")
		}
		b := dwarfbuf.NewReader(".debug_loc", off, ls.loc[off:], dw.byteOrder)
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
	b := dwarfbuf.NewReader(".debug_loclists", off, ls.loclists[off:], dw.byteOrder)
	addrx := func(i uint64) error {
		if _, ok := dw.debugAddr(h, i); !ok {
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
