package symbolize

import (
	"sort"
	"sync"
)

// gnuSeqIndex maps addresses to units through their line-table sequences.
// binutils 2.40 adds every sequence of a decoded line table to its unit's
// address ranges (decode_line_info, DW_LNE_end_sequence), so an address in
// padding that a CU's DW_AT_ranges leaves out but its line table covers is
// still answered ("main" / "file.c:12"). llvm only trusts DW_AT_ranges.
type gnuSeqIndex struct {
	once sync.Once
	idx  unitIndex
}

// gnuUnitFor returns the unit whose line sequences contain pc; the index is
// built on first use, decoding every line table once.
func (o *Object) gnuUnitFor(pc uint64) *unit {
	o.gnuSeqs.once.Do(func() {
		idx := unitIndex{units: o.units.units}
		for ui, u := range o.units.units {
			lt, err := o.lineTable(u)
			if err != nil {
				continue
			}
			for _, s := range lt.seqs {
				idx.ranges = append(idx.ranges, unitRange{begin: s.start, end: s.end, unit: int32(ui)})
			}
		}
		sort.SliceStable(idx.ranges, func(i, j int) bool { return idx.ranges[i].end < idx.ranges[j].end })
		lo := ^uint64(0)
		for i := len(idx.ranges) - 1; i >= 0; i-- {
			lo = min(lo, idx.ranges[i].begin)
			idx.ranges[i].minBegin = lo
		}
		o.gnuSeqs.idx = idx
	})
	return o.gnuSeqs.idx.unitFor(pc)
}

// gnuVar is a variable with a fixed address (DW_OP_addr) and its
// declaration, which binutils 2.40 reports for the variable's first byte
// (file:line, with the function name from the symbol table or "??").
type gnuVar struct {
	u        *unit
	declFile int64
	declLine int64
}

type gnuVarIndex struct {
	once sync.Once
	vars map[uint64]gnuVar
}

// gnuVarAt returns the variable that starts at addr, reading every unit's
// DIEs once on first use.
func (o *Object) gnuVarAt(addr uint64) (gnuVar, bool) {
	o.gnuVars.once.Do(func() {
		vars := map[uint64]gnuVar{}
		isVar := func(tag uint32) bool { return tag == tagVariable }
		for _, u := range o.units.units {
			r, err := o.newDIEReader(&u.h)
			if err != nil {
				continue
			}
			for {
				_, a, done := r.next(isVar)
				if done {
					break
				}
				if a == nil || a.tag != tagVariable {
					continue
				}
				v := gnuVar{u: u, declFile: -1, declLine: -1}
				var loc []byte
				for i, s := range a.attrs {
					switch s.attr {
					case atLocation:
						loc = o.blockOf(r.vals[i])
					case atDeclFile:
						v.declFile = intOf(r.vals[i], -1)
					case atDeclLine:
						v.declLine = intOf(r.vals[i], -1)
					}
				}
				if len(loc) != 9 || loc[0] != 0x03 { // DW_OP_addr, 64-bit
					continue
				}
				at := o.byteOrder.Uint64(loc[1:])
				if _, dup := vars[at]; dup {
					continue
				}
				vars[at] = v
			}
		}
		o.gnuVars.vars = vars
	})
	v, ok := o.gnuVars.vars[addr]
	return v, ok
}
