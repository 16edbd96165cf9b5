package symbolize

import (
	"fmt"
	"os"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A DWARF package (.dwp, made by dwp or llvm-dwp) holds the .dwo files of
// a whole program: their sections concatenated, and .debug_cu_index saying
// where each unit's contribution to each section starts, by DWO id (DWARF 5
// section 7.3.5; version 2 is the GNU pre-standard layout). llvm-symbolizer
// opens <debug file>.dwp, or the file --dwp names, before any .dwo.

// Section identifiers in a unit index.
const (
	dwSectInfo       = 1
	dwSectAbbrev     = 3
	dwSectStrOffsets = 6
	dwSectRnglists   = 8 // DWARF 5 only: 8 is DW_SECT_MACRO in version 2
)

// dwpRow is where one unit's contributions start.
type dwpRow struct {
	info, infoSize, abbrev, strOffsets, rnglists uint64
}

// dwpIndex maps DWO ids to rows.
type dwpIndex struct {
	version int
	rows    map[uint64]dwpRow
}

// dwpState is an object's package, opened on the first split unit's lookup.
type dwpState struct {
	path string
	d    *dwoSections
	idx  *dwpIndex
	err  error
}

// dwpPackage returns the object's DWARF package, nil (with a not-exist
// error) when there is none.
func (o *Object) dwpPackage() (*dwoSections, error) {
	o.dwpOnce.Do(func() {
		st := &o.dwp
		st.path = o.finder.DWP(o.debugPath)
		d, err := o.mapDWO(st.path)
		if err != nil {
			st.err = err
			return
		}
		idx, err := parseCUIndex(d.cuIndex, o)
		if err != nil && len(d.damage) > 0 {
			err = fmt.Errorf("%w (%v)", err, newDamageError(d.damage))
		}
		if err != nil {
			d.file.Close()
			st.err = fmt.Errorf("%s: %w", st.path, err)
			return
		}
		o.keepDWO(d)
		st.d, st.idx = d, idx
	})
	if o.dwp.d == nil {
		if o.dwp.err == nil {
			return nil, os.ErrNotExist
		}
		return nil, o.dwp.err
	}
	return o.dwp.d, nil
}

// dwpUnit returns the header of u's unit in the package.
func (o *Object) dwpUnit(d *dwoSections, u *unit) (*cuHeader, error) {
	if !u.dwo.hasID {
		return nil, fmt.Errorf("%s: skeleton unit at 0x%x has no DWO id", d.path, u.h.off)
	}
	row, ok := o.dwp.idx.rows[u.dwo.id]
	if !ok {
		return nil, fmt.Errorf("%s: no unit with DWO id 0x%x", d.path, u.dwo.id)
	}
	end := row.info + row.infoSize
	if end < row.info || end > uint64(len(d.info)) {
		return nil, fmt.Errorf("%s: unit with DWO id 0x%x beyond .debug_info.dwo", d.path, u.dwo.id)
	}
	h, err := parseUnitHeader(d.info[:end], row.info, o.byteOrder)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	h.dwo = d
	h.abbrevOff += row.abbrev
	id, hasID, err := o.splitUnitID(&h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	if !hasID || id != u.dwo.id {
		return nil, fmt.Errorf("%s: the unit indexed under DWO id 0x%x has id 0x%x", d.path, u.dwo.id, id)
	}
	o.inheritSkeleton(&h, u, row)
	return &h, nil
}

// parseCUIndex decodes a .debug_cu_index section.
func parseCUIndex(sec []byte, o *Object) (*dwpIndex, error) {
	if len(sec) == 0 {
		return nil, fmt.Errorf("no .debug_cu_index")
	}
	b := dwarfbuf.NewReader(".debug_cu_index", 0, sec, o.byteOrder)
	idx := &dwpIndex{}
	// Version 5 is a 2-byte version and 2 bytes of padding; version 2 (GNU)
	// a 4-byte version.
	if len(sec) < 16 {
		return nil, fmt.Errorf(".debug_cu_index: %d bytes, shorter than its header", len(sec))
	}
	switch {
	case o.byteOrder.Uint16(sec) == 5:
		idx.version = 5
	case o.byteOrder.Uint32(sec) == 2:
		idx.version = 2
	default:
		return nil, fmt.Errorf(".debug_cu_index: unsupported version 0x%x", o.byteOrder.Uint32(sec))
	}
	b.U32()
	cols, units, slots := uint64(b.U32()), uint64(b.U32()), uint64(b.U32())
	if b.Err() != nil {
		return nil, b.Err()
	}
	// The tables: slots × (8 + 4) bytes, cols × 4 header, 2 × units × cols × 4.
	need := slots*12 + cols*4 + 2*units*cols*4
	if cols > 64 || slots > uint64(len(sec)) || units > slots || need > uint64(b.Left()) {
		return nil, fmt.Errorf(".debug_cu_index: %d columns, %d units, %d slots do not fit in %d bytes", cols, units, slots, len(sec))
	}
	sigs := make([]uint64, slots)
	for i := range sigs {
		sigs[i] = b.U64()
	}
	rowOf := make([]uint32, slots)
	for i := range rowOf {
		rowOf[i] = b.U32()
	}
	ids := make([]uint32, cols)
	for i := range ids {
		ids[i] = b.U32()
	}
	offs := make([]uint32, units*cols)
	for i := range offs {
		offs[i] = b.U32()
	}
	sizes := make([]uint32, units*cols)
	for i := range sizes {
		sizes[i] = b.U32()
	}
	if b.Err() != nil {
		return nil, b.Err()
	}
	idx.rows = make(map[uint64]dwpRow, units)
	for i, r := range rowOf {
		if r == 0 || uint64(r) > units {
			continue
		}
		var row dwpRow
		base := uint64(r-1) * cols
		for c, id := range ids {
			off, size := uint64(offs[base+uint64(c)]), uint64(sizes[base+uint64(c)])
			switch {
			case id == dwSectInfo:
				row.info, row.infoSize = off, size
			case id == dwSectAbbrev:
				row.abbrev = off
			case id == dwSectStrOffsets:
				row.strOffsets = off
			case id == dwSectRnglists && idx.version >= 5:
				row.rnglists = off
			}
		}
		idx.rows[sigs[i]] = row
	}
	return idx, nil
}
