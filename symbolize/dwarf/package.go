package dwarf

import (
	"encoding/binary"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A DWARF package (.dwp, made by dwp or llvm-dwp) holds the .dwo files of
// a whole program: their sections concatenated, and .debug_cu_index saying
// where each unit's contribution to each section starts, by DWO id (DWARF 5
// section 7.3.5; version 2 is the GNU pre-standard layout).

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

// A PackageIndex maps the DWO ids of a package's units to where their
// contributions start.
type PackageIndex struct {
	version int
	rows    map[uint64]dwpRow
}

// PackageIndex returns the unit index of the package d
// (.debug_cu_index).
func (dw *Data) PackageIndex(d *DWO) (*PackageIndex, error) {
	return parseCUIndex(d.cuIndex, dw.byteOrder)
}

// PackageUnit returns the header of the skeleton u's unit in the package
// d, whose index is idx.
func (dw *Data) PackageUnit(d *DWO, idx *PackageIndex, u *Unit) (*Header, error) {
	if !u.dwo.hasID {
		return nil, fmt.Errorf("%s: skeleton unit at 0x%x has no DWO id", d.path, u.h.off)
	}
	row, ok := idx.rows[u.dwo.id]
	if !ok {
		return nil, fmt.Errorf("%s: no unit with DWO id 0x%x", d.path, u.dwo.id)
	}
	end := row.info + row.infoSize
	if end < row.info || end > uint64(len(d.info)) {
		return nil, fmt.Errorf("%s: unit with DWO id 0x%x beyond .debug_info.dwo", d.path, u.dwo.id)
	}
	h, err := parseUnitHeader(d.info[:end], row.info, dw.byteOrder)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	h.dwo = d
	h.abbrevOff += row.abbrev
	id, hasID, err := dw.splitUnitID(&h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	if !hasID || id != u.dwo.id {
		return nil, fmt.Errorf("%s: the unit indexed under DWO id 0x%x has id 0x%x", d.path, u.dwo.id, id)
	}
	dw.inheritSkeleton(&h, u, row)
	return &h, nil
}

// parseCUIndex decodes a .debug_cu_index section.
func parseCUIndex(sec []byte, bo binary.ByteOrder) (*PackageIndex, error) {
	if len(sec) == 0 {
		return nil, fmt.Errorf("no .debug_cu_index")
	}
	b := dwarfbuf.NewReader(".debug_cu_index", 0, sec, bo)
	idx := &PackageIndex{}
	// Version 5 is a 2-byte version and 2 bytes of padding; version 2 (GNU)
	// a 4-byte version.
	if len(sec) < 16 {
		return nil, fmt.Errorf(".debug_cu_index: %d bytes, shorter than its header", len(sec))
	}
	switch {
	case bo.Uint16(sec) == 5:
		idx.version = 5
	case bo.Uint32(sec) == 2:
		idx.version = 2
	default:
		return nil, fmt.Errorf(".debug_cu_index: unsupported version 0x%x", bo.Uint32(sec))
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
