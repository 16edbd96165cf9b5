package symbolize

import (
	"sort"
	"sync"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Where a global variable is declared: the FILE:LINE line llvm-symbolizer
// 15 and later print after a DATA answer (DIGlobal's DeclFile and
// DeclLine; llvm-symbolizer 14 prints none). llvm finds the variable whose
// DW_AT_location is exactly "DW_OP_addr[x] A [DW_OP_plus_uconst N]" and
// whose extent [A, A+size) holds the address (DWARFUnit::
// updateVariableDieMap, getVariableForAddress: the unit's variable with the
// greatest start at or below it), in the first unit, in section order,
// that has one; without a line there, a local symbol's STT_FILE name with
// line 0.

// globalVar is one global variable llvm's map holds.
type globalVar struct {
	start, end uint64
	die        uint64 // the variable's DIE
}

// unitGlobals is one unit's variables by start; a later variable at the
// same start replaces an earlier one (llvm's map assignment).
type unitGlobals struct {
	u    *dwarf.Unit
	vars []globalVar
}

// globalsIndex is the object's variables, read on the first DATA query
// that asks for declarations.
type globalsIndex struct {
	once  sync.Once
	units []unitGlobals
}

// Operations of the location expressions llvm reads as a global's.
const (
	opAddr         = 0x03
	opPlusUconst   = 0x23
	opAddrx        = 0xa1
	opGNUAddrIndex = 0xfb
)

// DataDecl returns where the global variable at addr is declared, as
// llvm-symbolizer 19 prints it after a DATA answer: the DWARF's
// declaration when the variable's line is known, else the STT_FILE name of
// the local symbol holding addr with line 0; ok is false when the file is
// unknown or empty ("??:?").
func (o *Object) DataDecl(addr uint64) (file string, line uint64, ok bool) {
	if o == nil {
		return "", 0, false
	}
	if s, found := o.syms.findData(addr); found && s.local {
		file, _ = o.syms.fileOf(s.symbol)
	}
	if o.dw != nil && !(o.zdebug && !LLVM19.readsZdebug) {
		o.globals.once.Do(o.readGlobals)
		for i := range o.globals.units {
			ug := &o.globals.units[i]
			j := sort.Search(len(ug.vars), func(k int) bool { return ug.vars[k].start > addr })
			if j == 0 || addr >= ug.vars[j-1].end {
				continue
			}
			if f, l := o.declOf(ug.u, ug.vars[j-1].die); l != 0 {
				file, line = f, l
			}
			break
		}
	}
	// llvm prints "??:?" for an empty file name, whatever the line.
	return file, line, file != ""
}

// readGlobals builds the index of every unit's global variables.
func (o *Object) readGlobals() {
	isVar := func(tag uint32) bool { return tag == dwarf.TagVariable }
	for _, u := range o.dw.Units() {
		byStart := map[uint64]globalVar{}
		_ = o.dw.Entries(u, isVar, func(d *dwarf.Entry) {
			if d.Tag() != dwarf.TagVariable {
				return
			}
			v, _, ok := d.Attr(dwarf.AttrLocation)
			if !ok {
				return
			}
			start, ok := o.globalAddr(u, d.Block(v))
			if !ok {
				return
			}
			size := uint64(1)
			if t, ok := d.Ref(dwarf.AttrType); ok {
				w := frameWalk{o: o, u: u}
				if n, ok := w.typeSize(t, uint64(u.AddrSize()), 0); ok {
					size = n
				}
			}
			byStart[start] = globalVar{start: start, end: start + size, die: d.Offset}
		})
		if len(byStart) == 0 {
			continue
		}
		ug := unitGlobals{u: u}
		for _, g := range byStart {
			ug.vars = append(ug.vars, g)
		}
		sort.Slice(ug.vars, func(i, j int) bool { return ug.vars[i].start < ug.vars[j].start })
		o.globals.units = append(o.globals.units, ug)
	}
}

// globalAddr reads a location expression of exactly DW_OP_addr or
// DW_OP_addrx, optionally followed by DW_OP_plus_uconst.
func (o *Object) globalAddr(u *dwarf.Unit, e []byte) (uint64, bool) {
	if len(e) == 0 {
		return 0, false
	}
	b := dwarfbuf.NewReader("location expression", 0, e, o.dw.ByteOrder())
	var a uint64
	seen := false
	for b.Pos() < len(e) {
		switch op := b.U8(); op {
		case opAddr:
			a, seen = b.UintN(u.AddrSize()), true
		case opAddrx, opGNUAddrIndex:
			v, ok := o.dw.DebugAddr(u, b.Uleb())
			if !ok {
				return 0, false
			}
			a, seen = v, true
		case opPlusUconst:
			a += b.Uleb()
		default:
			return 0, false
		}
		if b.Err() != nil {
			return 0, false
		}
	}
	return a, seen
}

// declOf is the declaration file and line of the DIE at off (llvm's
// getDeclFile and getDeclLine, which follow DW_AT_specification and
// DW_AT_abstract_origin), the file named in the line table of the
// variable's unit.
func (o *Object) declOf(u *dwarf.Unit, off uint64) (string, uint64) {
	var fileIdx, line uint64
	hasFile, hasLine, implicitFile := false, false, false
	for hops := 0; hops < 8 && !(hasFile && hasLine); hops++ {
		d, ok := o.dw.Entry(off)
		if !ok {
			break
		}
		// llvm reads no value from a DW_FORM_implicit_const (gcc's DWARF
		// 5 puts decl_file there): its file is then empty ("??:?"), its
		// line 0 (readsImplicitDeclFile).
		if v, form, ok := d.Attr(dwarf.AttrDeclFile); ok && !hasFile {
			fileIdx, hasFile = unsignedConst(v)
			implicitFile = form == dwarf.FormImplicitConst
		}
		if v, form, ok := d.Attr(dwarf.AttrDeclLine); ok && !hasLine {
			line, hasLine = unsignedConst(v)
			if form == dwarf.FormImplicitConst {
				line = 0
			}
		}
		next, ok := d.Ref(dwarf.AttrSpecification)
		if !ok {
			if next, ok = d.Ref(dwarf.AttrAbstractOrigin); !ok {
				break
			}
		}
		off = next
	}
	var file string
	if hasFile && !implicitFile && fileIdx <= 1<<32-1 {
		if lt, err := o.dw.LineTable(u); err == nil {
			file, _ = lt.FileName(uint32(fileIdx), LLVM19.paths)
		}
	}
	return file, line
}
