package symbolize

import (
	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// The rules of GNU addr2line 2.40 (binutils' bfd, dwarf2.c) that the
// GNU240 policy turns on: which units bfd reads (gnuReadable, gnuUnitFor,
// gnuChain), and how it names frames (gnuNames), which is stateful.
//
// GNU addr2line names the innermost function of an address in two ways
// (binutils 2.40, dwarf2.c _bfd_dwarf2_find_nearest_line_with_alt):
//
//   - a DWARF function whose name is a "linkage" name (DW_AT_linkage_name,
//     or DW_AT_name in a language without mangling such as C) is printed by
//     that name;
//   - otherwise the ELF symbol containing the address is printed
//     (elf_find_function: "main.cold"), and bfd then marks the function as
//     named: when the symbol starts exactly at the function's first range it
//     even renames the function to the symbol. Later lookups in the same
//     function print the DWARF (or renamed) name.
//
// The second rule is stateful: the answer depends on the order of queries.
// Object.gnu (a gnuState) keeps that state per object, as bfd keeps it per
// open file, so a face answering queries one by one in input order prints
// what addr2line prints. Concurrent lookups (SymbolizeMany) see some valid
// order.

// cLikeLanguages are the DW_LANG values for which bfd's mangle_style is 0:
// their DW_AT_name counts as a linkage name.
var cLikeLanguages = map[int64]bool{
	0x01: true, 0x02: true, 0x05: true, 0x06: true, 0x07: true, 0x09: true,
	0x0c: true, 0x0f: true, 0x12: true, 0x1d: true,
	0x8001: true, 0x8101: true, 0x8102: true, 0x8107: true, 0x8765: true,
}

// gnuNames applies bfd's naming to frames (innermost first) built for pc.
// chain, fi and u are the lookup's (unitAnswer).
func (o *Object) gnuNames(pc uint64, frames []Frame, chain []int32, fi *dwarf.FuncIndex, u *dwarf.Unit, opts LookupOptions, p *Policy) {
	demangle := func(name string) string {
		if opts.Demangle {
			return o.demangled.demangle(name, p.demangle)
		}
		return name
	}
	inner := &frames[0]
	if u != nil && !o.gnuReadable(u) {
		// bfd never parsed the unit: no line either (gnuChain already
		// dropped the functions, so frames holds this one frame).
		*inner = Frame{}
		u = nil
	}
	if len(chain) == 0 && inner.File == "" && o.dw != nil && !o.zdebug {
		if v, ok := o.gnuVarAt(pc); ok && v.declLine > 0 && o.gnuReadable(v.u) {
			if lt, err := o.dw.LineTable(v.u); err == nil && v.declFile >= 0 {
				if name, ok := lt.FileName(uint32(v.declFile), dwarf.PathFull); ok {
					inner.File, inner.Line = name, int(v.declLine)
				}
			}
		}
	}
	if len(chain) == 0 {
		// No DWARF function: the symbol's name, and its STT_FILE when the
		// line table had nothing.
		st := o.gnuSymtab()
		if s, ok := st.lookup(pc, p.aliases); ok {
			inner.Function = demangle(s.name)
			if inner.File == "" {
				inner.File, inner.FileKnown = st.fileOf(s.symbol)
			}
		}
		return
	}
	o.gnu.mu.Lock()
	defer o.gnu.mu.Unlock()
	if o.gnu.funcs == nil {
		o.gnu.funcs = map[uint64]*gnuFunc{}
	}
	state := func(id int32) *gnuFunc {
		off := fi.Offset(id)
		g, ok := o.gnu.funcs[off]
		if !ok {
			d := fi.DIE(id)
			di := &d
			r := o.resolve(fi, di, off) // once per function: o.gnu.funcs keeps the outcome
			g = &gnuFunc{linkage: r.linkage != dwarf.NoStr || r.name(o, fi, di, off) != dwarf.NoStr && u != nil && cLikeLanguages[u.Lang()]}
			o.gnu.funcs[off] = g
		}
		return g
	}
	g := state(chain[0])
	if !g.linkage {
		st := o.gnuSymtab()
		if s, ok := st.lookup(pc, p.aliases); ok {
			inner.Function = demangle(s.name)
			if inner.File == "" {
				inner.File, inner.FileKnown = st.fileOf(s.symbol)
			}
			if low, ok := firstRangeLow(o.dw, fi.Offset(chain[0])); ok && low == s.addr {
				g.renamed = s.name
			}
		}
		g.linkage = true
	} else if g.renamed != "" {
		inner.Function = demangle(g.renamed)
	}
	// Callers print the function's current name (bfd's caller_func->name).
	for i := 1; i < len(chain) && i < len(frames); i++ {
		if g, ok := o.gnu.funcs[fi.Offset(chain[i])]; ok && g.renamed != "" {
			frames[i].Function = demangle(g.renamed)
		}
	}
}

// firstRangeLow is bfd's function->arange.low: the start of the DIE's first
// address range in DW_AT_ranges order (extended down by a range that ends
// where it starts), not the lowest address.
func firstRangeLow(dw *dwarf.Data, off uint64) (uint64, bool) {
	rs := dw.Ranges(off)
	if len(rs) == 0 {
		return 0, false
	}
	first := rs[0][0]
	for _, rg := range rs[1:] {
		if rg[1] == first {
			first = rg[0]
		}
	}
	return first, true
}

// gnuChain is the chain bfd prints: it finds the innermost function by
// address among those whose ranges it can read, so subroutines with
// DW_FORM_rnglistx ranges (dieRangesIndexed) cannot be the innermost
// frame; the callers above the one it finds come from the DIE nesting
// (funcinfo.caller_func), whatever the form of their ranges. In a unit bfd
// never parses (gnuReadable) there is no chain at all.
func (o *Object) gnuChain(chain []int32, fi *dwarf.FuncIndex) []int32 {
	if len(chain) > 0 {
		if u := o.dw.UnitAt(fi.Offset(chain[0])); u != nil && !o.gnuReadable(u) {
			return nil
		}
	}
	for len(chain) > 0 && fi.DIE(chain[0]).RangesIndexed() {
		chain = chain[1:]
	}
	return chain
}

// gnuSymtab is the table bfd names functions from: the separate debug
// file's when the DWARF came from one, else the object's own.
func (o *Object) gnuSymtab() *symtab {
	if o.debugSyms != nil {
		return o.debugSyms
	}
	return &o.syms
}

// gnuReadable reports whether bfd 2.40 parses unit u at all. Its
// parse_comp_unit fails when the unit's DW_AT_ranges list holds an entry it
// cannot read: read_rnglists knows no DW_RLE_base_addressx, startx_endx or
// startx_length ("x-variants need .debug_addr support"), which is what Go
// 1.25+ emits for every package. stash_comp_unit then stops trusting the
// rest of .debug_info, so that unit and every later one are lost: addr2line
// names every address of a Go binary from the symbol table, with
// "go.go:?" (Go's only STT_FILE), where llvm-symbolizer reads the DWARF.
func (o *Object) gnuReadable(u *dwarf.Unit) bool {
	o.gnu.unitsOnce.Do(func() {
		o.gnu.lostFrom = ^uint64(0)
		for _, v := range o.dw.Units() {
			if !bfdReadsUnitRanges(o.dw, v) {
				o.gnu.lostFrom = v.Offset()
				break
			}
		}
	})
	return u.Offset() < o.gnu.lostFrom
}

// bfdReadsUnitRanges replays bfd's read_rangelist on the unit's own
// DW_AT_ranges (a section offset; DW_FORM_rnglistx is left alone).
func bfdReadsUnitRanges(dw *dwarf.Data, u *dwarf.Unit) bool {
	rg, err := dw.UnitRanges(u)
	if err != nil {
		return true
	}
	off, ok := rg.SectionOffset()
	if bits, signed, isConst := rg.Const(); !ok && isConst && !signed {
		off, ok = bits, true
	}
	if !ok {
		return true
	}
	if u.Version() <= 4 {
		ranges := dw.Section(".debug_ranges")
		return ranges == nil || off <= uint64(len(ranges))
	}
	rnglists := dw.Section(".debug_rnglists")
	if rnglists == nil || off >= uint64(len(rnglists)) {
		return false
	}
	n := u.AddrSize()
	b := dwarfbuf.NewReader(".debug_rnglists", off, rnglists[off:], dw.ByteOrder())
	for b.Left() > 0 && b.Err() == nil {
		switch b.U8() {
		case 0: // DW_RLE_end_of_list
			return true
		case 4: // offset_pair
			b.Uleb()
			b.Uleb()
		case 5: // base_address
			b.UintN(n)
		case 6: // start_end
			b.UintN(n)
			b.UintN(n)
		case 7: // start_length
			b.UintN(n)
			b.Uleb()
		default: // the x-variants and unknown kinds
			return false
		}
	}
	return false
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
