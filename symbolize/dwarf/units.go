package dwarf

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A Unit is one compilation unit: its header and what its root DIE says,
// plus its line table and function index, each decoded once on first use
// (errors cached too).
type Unit struct {
	h        Header
	index    int32 // its place in Data.Units (or in the supplementary file's units)
	compDir  string
	stmtList int64 // DW_AT_stmt_list, -1 when absent
	lang     int64
	// partial: a DW_TAG_partial_unit (dwz): shared DIEs reached through
	// references, never the unit of an address, even though it names a
	// line table (often the first compilation unit's).
	partial bool

	linesOnce sync.Once
	lines     *LineTable
	linesErr  error

	funcsOnce sync.Once
	funcs     *FuncIndex
	funcsErr  error

	// linesDone, funcsDone: the line table / function index is decoded
	// (set inside their sync.Once; Probe reads them).
	linesDone, funcsDone atomic.Bool

	// A skeleton unit's .dwo (split DWARF): dwo.name is "" otherwise.
	dwo   splitRef
	split *splitUnit
}

// Index returns u's place in Data.Units.
func (u *Unit) Index() int { return int(u.index) }

// Offset returns the .debug_info offset of u's header.
func (u *Unit) Offset() uint64 { return u.h.off }

// RootOffset returns the .debug_info offset of u's root DIE.
func (u *Unit) RootOffset() uint64 { return u.h.dieOff }

// Version returns u's DWARF version.
func (u *Unit) Version() int { return u.h.version }

// AddrSize returns the size of an address in u.
func (u *Unit) AddrSize() int { return u.h.addrSize }

// Lang returns u's DW_AT_language, 0 when absent.
func (u *Unit) Lang() int64 { return u.lang }

// CompDir returns u's DW_AT_comp_dir.
func (u *Unit) CompDir() string { return u.compDir }

// DWOName returns the .dwo file a skeleton unit names (DW_AT_dwo_name or
// DW_AT_GNU_dwo_name): the file holding its DIEs. "" for other units.
func (u *Unit) DWOName() string { return u.dwo.name }

// Partial reports whether u is a DW_TAG_partial_unit (dwz): shared DIEs
// reached through references, never the unit of an address.
func (u *Unit) Partial() bool { return u.partial }

// FunctionsIndexed reports whether u's function index is decoded.
func (u *Unit) FunctionsIndexed() bool { return u.funcsDone.Load() }

// unitRange maps an address range to a unit. The index is sorted by end with
// a suffix minimum of begin (gimli's layout), so overlapping units are found.
type unitRange struct {
	begin, end uint64
	unit       int32
	minBegin   uint64
}

// unitIndex is every unit of an object, in section order, and its sorted
// address ranges.
type unitIndex struct {
	units  []*Unit
	ranges []unitRange
}

// buildUnitIndex reads the header and root DIE of every compilation unit
// and records its ranges; a unit that declares none gets its line table's
// sequences. Only the root DIEs are touched: the rest of .debug_info is read
// when a lookup needs a unit.
func (dw *Data) buildUnitIndex() (unitIndex, []error) {
	var idx unitIndex
	var rs [][2]uint64
	var damage []error
	var arangesUnits []uint64 // read on the first unusable unit length
	for off := uint64(0); off < uint64(len(dw.sec.info)); {
		h, err := parseUnitHeader(dw.sec.info, off, dw.byteOrder)
		if err != nil {
			// A unit whose extent is known is skipped; past one whose
			// length is unusable, reading resumes at the next unit
			// .debug_aranges names, if any.
			if h.end > off {
				damage = append(damage, fmt.Errorf("%w; unit ignored", err))
				off = h.end
				continue
			}
			next, ok := dw.nextArangesUnit(off, &arangesUnits)
			if !ok {
				damage = append(damage, fmt.Errorf("%w; it and the units after it ignored", err))
				break
			}
			damage = append(damage, fmt.Errorf("%w; unit ignored, reading resumes at 0x%x (the next unit .debug_aranges names)", err, next))
			off = next
			continue
		}
		off = h.end
		u, ranges, err := dw.readUnitRoot(h)
		if err != nil {
			damage = append(damage, fmt.Errorf(".debug_info unit at 0x%x: root DIE: %w; unit ignored", h.off, err))
			continue
		}
		if u == nil {
			continue
		}
		ui := int32(len(idx.units))
		u.index = ui
		idx.units = append(idx.units, u)
		rs, err = dw.rangesOf(&u.h, ranges[0], ranges[1], ranges[2], rs[:0])
		failed := err != nil
		if failed {
			rs = rs[:0] // fall back to the line table below
		}
		n := 0
		for _, rg := range rs {
			if rg[0] < rg[1] {
				idx.ranges = append(idx.ranges, unitRange{begin: rg[0], end: rg[1], unit: ui})
				n++
			}
		}
		if n == 0 && !u.partial {
			lt, err := dw.LineTable(u)
			if err == nil {
				for _, s := range lt.seqs {
					idx.ranges = append(idx.ranges, unitRange{begin: s.start, end: s.end, unit: ui})
					n++
				}
			} else if u.stmtList >= 0 {
				failed = true
			}
		}
		if n == 0 && !u.partial && failed {
			// No ranges that can be read (say .debug_rnglists is
			// damaged) and no line table: the functions' own ranges,
			// as llvm's collectAddressRanges falls back to.
			if fi, _ := dw.Functions(u); fi != nil {
				for i, a := range fi.addrs {
					idx.ranges = append(idx.ranges, unitRange{begin: fi.begins[i], end: a.end, unit: ui})
				}
			}
		}
	}
	idx.sortRanges()
	return idx, damage
}

// sortRanges sorts idx.ranges by end, stably, and sets their minBegin.
func (idx *unitIndex) sortRanges() {
	sort.SliceStable(idx.ranges, func(i, j int) bool { return idx.ranges[i].end < idx.ranges[j].end })
	min := ^uint64(0)
	for i := len(idx.ranges) - 1; i >= 0; i-- {
		if idx.ranges[i].begin < min {
			min = idx.ranges[i].begin
		}
		idx.ranges[i].minBegin = min
	}
}

// Units returns the compilation units, in section order.
func (dw *Data) Units() []*Unit { return dw.units.units }

// UnitFor returns the unit whose ranges contain pc (the first in end
// order), nil when none does.
func (dw *Data) UnitFor(pc uint64) *Unit { return dw.units.unitFor(pc) }

// UnitAt returns the unit whose DIEs contain the .debug_info offset off,
// nil when none does.
func (dw *Data) UnitAt(off uint64) *Unit { return dw.units.unitAt(off) }

// A UnitRanges maps address ranges to units, as the unit index does
// with the ranges the units declare, for ranges a caller chooses (the
// sequences of the units' line tables, say). Add the ranges, then Seal;
// UnitFor serves once sealed.
type UnitRanges struct{ idx unitIndex }

// Add maps [begin, end) to u.
func (r *UnitRanges) Add(begin, end uint64, u *Unit) {
	r.idx.units = append(r.idx.units, u)
	r.idx.ranges = append(r.idx.ranges, unitRange{begin: begin, end: end, unit: int32(len(r.idx.units) - 1)})
}

// Seal sorts the ranges for UnitFor.
func (r *UnitRanges) Seal() { r.idx.sortRanges() }

// UnitFor returns the unit of the first range (in end order, ties in the
// order added) containing pc, nil when none does.
func (r *UnitRanges) UnitFor(pc uint64) *Unit { return r.idx.unitFor(pc) }

// readUnitRoot decodes a unit's root DIE; nil for units that are not
// compilation units (type units). ranges are its low_pc, high_pc and ranges
// values, to be resolved once the bases are known.
func (dw *Data) readUnitRoot(h Header) (*Unit, [3]Value, error) {
	var ranges [3]Value
	r, err := dw.newRootReader(&h)
	if err != nil {
		return nil, ranges, err
	}
	_, a, _ := r.next(decodeAll)
	if r.b.Err() != nil {
		return nil, ranges, r.b.Err()
	}
	if a == nil {
		return nil, ranges, nil
	}
	if a.tag != TagCompileUnit && a.tag != TagPartialUnit && a.tag != TagSkeletonUnit {
		return nil, ranges, nil
	}
	u := &Unit{h: h, stmtList: -1, partial: a.tag == TagPartialUnit}
	if h.version >= 5 && h.unitType == 4 { // DW_UT_skeleton
		u.dwo.id, u.dwo.hasID = h.dwoID, true
	}
	// The bases first: strx and addrx values before them depend on them.
	var compDir, entry, dwoName Value
	for i, s := range a.attrs {
		v := r.vals[i]
		switch s.attr {
		case AttrStrOffsetsBase:
			u.h.strOffsetsBase = v.v
		case AttrAddrBase, AttrGNUAddrBase:
			u.h.addrBase = v.v
		case AttrDwoName, AttrGNUDwoName:
			dwoName = v
		case AttrGNUDwoID:
			if v.kind == valConst {
				u.dwo.id, u.dwo.hasID = v.v, true
			}
		case AttrGNURangesBase:
			u.dwo.rangesBase = v.v
		case AttrRnglistsBase:
			u.h.rnglistsBase = v.v
		case AttrCompDir:
			compDir = v
		case AttrStmtList:
			if v.kind == valSecOff || v.kind == valConst {
				u.stmtList = int64(v.v)
			}
		case AttrLanguage:
			u.lang = intOf(v, 0)
		case AttrLowpc:
			ranges[0] = v
		case AttrHighpc:
			ranges[1] = v
		case AttrRanges:
			ranges[2] = v
		case AttrEntrypc:
			entry = v
		}
	}
	if a, ok := dw.addrOf(&u.h, entry); ok {
		u.h.base = a
	} else if a, ok := dw.addrOf(&u.h, ranges[0]); ok {
		u.h.base = a
	}
	u.compDir = dw.Str(dw.strOf(&u.h, compDir))
	if dwoName.kind != valNone {
		u.dwo.name = dw.Str(dw.strOf(&u.h, dwoName))
		if u.dwo.name != "" {
			u.split = &splitUnit{}
		}
	}
	return u, ranges, nil
}

// unitFor returns the first unit (in end order) whose ranges contain pc.
func (idx *unitIndex) unitFor(pc uint64) *Unit {
	i := sort.Search(len(idx.ranges), func(i int) bool { return idx.ranges[i].end > pc })
	for ; i < len(idx.ranges) && idx.ranges[i].minBegin <= pc; i++ {
		if r := idx.ranges[i]; r.begin <= pc && pc < r.end {
			return idx.units[r.unit]
		}
	}
	return nil
}

// unitAt returns the unit whose DIEs contain the .debug_info offset off.
func (idx *unitIndex) unitAt(off uint64) *Unit { return unitHolding(idx.units, off) }

// unitHolding returns the unit of units, in section order, whose DIEs
// contain the offset off.
func unitHolding(units []*Unit, off uint64) *Unit {
	i := sort.Search(len(units), func(i int) bool { return units[i].h.end > off })
	if i < len(units) && units[i].h.dieOff <= off {
		return units[i]
	}
	return nil
}

// nextArangesUnit returns the first unit offset after off that a set of
// .debug_aranges names; *units caches the sorted offsets (read once).
func (dw *Data) nextArangesUnit(off uint64, units *[]uint64) (uint64, bool) {
	if *units == nil {
		*units = []uint64{}
		if dw.aranges != nil {
			*units = arangesUnitOffsets(dw.aranges(), dw.byteOrder)
		}
	}
	i := sort.Search(len(*units), func(i int) bool { return (*units)[i] > off })
	if i < len(*units) && (*units)[i] < uint64(len(dw.sec.info)) {
		return (*units)[i], true
	}
	return 0, false
}

// arangesUnitOffsets lists, sorted, the .debug_info offsets the sets of
// .debug_aranges name (each set's header: unit length, version, unit
// offset); it stops at the first set whose length cannot be used.
func arangesUnitOffsets(sec []byte, bo binary.ByteOrder) []uint64 {
	var out []uint64
	for off := uint64(0); off < uint64(len(sec)); {
		b := dwarfbuf.NewReader(".debug_aranges", off, sec[off:], bo)
		n, offSize := uint64(b.U32()), 4
		if n == 0xffffffff {
			n, offSize = b.U64(), 8
		}
		start := b.Offset()
		if b.Err() != nil || n == 0 || n > uint64(b.Left()) {
			break
		}
		b.U16() // version
		if u := b.UintN(offSize); b.Err() == nil {
			out = append(out, u)
		}
		off = start + n
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// UnitRef names u, a unit of the Data or of its supplementary file, in 32
// bits (for a cache that keeps one per DIE): 0 for nil, i+1 for Units()[i],
// -(i+1) for the supplementary file's i-th unit. false: u is in neither
// list (or past int32 range), and cannot be named so.
func (dw *Data) UnitRef(u *Unit) (int32, bool) {
	if u == nil {
		return 0, true
	}
	find := func(us []*Unit) (int32, bool) {
		i := sort.Search(len(us), func(i int) bool { return us[i].h.off >= u.h.off })
		if i < len(us) && us[i] == u && i < math.MaxInt32 {
			return int32(i + 1), true
		}
		return 0, false
	}
	if i, ok := find(dw.units.units); ok {
		return i, true
	}
	if dw.sup != nil {
		if i, ok := find(dw.sup.units); ok {
			return -i, true
		}
	}
	return 0, false
}

// UnitOfRef returns the unit UnitRef named ref.
func (dw *Data) UnitOfRef(ref int32) *Unit {
	switch {
	case ref > 0:
		return dw.units.units[ref-1]
	case ref < 0:
		return dw.sup.units[-ref-1]
	}
	return nil
}

// UnitOfDIE returns the unit (of the DWARF or of its supplementary file)
// holding the DIE at off, as a reference value names it.
func (dw *Data) UnitOfDIE(off uint64) *Unit {
	if off&supBit != 0 {
		if dw.sup == nil {
			return nil
		}
		return dw.sup.unitAt(off &^ supBit)
	}
	return dw.units.unitAt(off)
}

// DebugAddr is entry idx of u's .debug_addr table (a DW_OP_addrx operand).
func (dw *Data) DebugAddr(u *Unit, idx uint64) (uint64, bool) { return dw.debugAddr(&u.h, idx) }
