package symbolize

import (
	"sync"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// gnuSeqIndex maps addresses to units through their line-table sequences.
// binutils 2.40 adds every sequence of a decoded line table to its unit's
// address ranges (decode_line_info, DW_LNE_end_sequence), so an address in
// padding that a CU's DW_AT_ranges leaves out but its line table covers is
// still answered ("main" / "file.c:12"). llvm only trusts DW_AT_ranges.
type gnuSeqIndex struct {
	once sync.Once
	idx  dwarf.UnitRanges
}

// gnuUnitFor returns the unit whose line sequences contain pc; the index is
// built on first use, decoding every line table once.
func (o *Object) gnuUnitFor(pc uint64) *dwarf.Unit {
	o.gnuSeqs.once.Do(func() {
		var seqs [][2]uint64
		for _, u := range o.dw.Units() {
			lt, err := o.dw.LineTable(u)
			if err != nil {
				continue
			}
			for _, s := range lt.SequenceRanges(seqs[:0]) {
				o.gnuSeqs.idx.Add(s[0], s[1], u)
			}
		}
		o.gnuSeqs.idx.Seal()
	})
	return o.gnuSeqs.idx.UnitFor(pc)
}

// gnuVar is a variable with a fixed address (DW_OP_addr) and its
// declaration, which binutils 2.40 reports for the variable's first byte
// (file:line, with the function name from the symbol table or "??").
type gnuVar struct {
	u        *dwarf.Unit
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
		isVar := func(tag uint32) bool { return tag == dwarf.TagVariable }
		bo := o.dw.ByteOrder()
		for _, u := range o.dw.Units() {
			// A DIE that cannot be read ends the unit's variables.
			_ = o.dw.Entries(u, isVar, func(e *dwarf.Entry) {
				if e.Tag() != dwarf.TagVariable {
					return
				}
				v := gnuVar{u: u, declFile: -1, declLine: -1}
				var loc []byte
				for at, val := range e.Attrs() { // the last of each, as bfd reads them
					switch at {
					case dwarf.AttrLocation:
						loc = e.Block(val)
					case dwarf.AttrDeclFile:
						v.declFile = val.Int(-1)
					case dwarf.AttrDeclLine:
						v.declLine = val.Int(-1)
					}
				}
				if len(loc) != 9 || loc[0] != 0x03 { // DW_OP_addr, 64-bit
					return
				}
				at := bo.Uint64(loc[1:])
				if _, dup := vars[at]; dup {
					return
				}
				vars[at] = v
			})
		}
		o.gnuVars.vars = vars
	})
	v, ok := o.gnuVars.vars[addr]
	return v, ok
}
