package symbolize

import (
	"errors"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// frameWalk collects the locals of one FRAME query (llvm's addLocalsForDie).
type frameWalk struct {
	o  *Object
	u  *dwarf.Unit
	fi *dwarf.FuncIndex
	lt *dwarf.LineTable

	hasBase      bool // the unit has a DW_AT_low_pc: a location-list base
	loclistsBase uint64
	hasLoclists  bool

	out []Local
}

// subprogram is the function the locals being walked belong to: the
// subprogram, or the abstract origin of the inlined subroutine around them.
type subprogram struct {
	name         string
	frameBaseReg int // -1: the frame base is not a single DW_OP_regN
	skip         bool
}

// readUnitBases reads the root DIE's DW_AT_low_pc and DW_AT_loclists_base.
func (w *frameWalk) readUnitBases() {
	root, ok := w.o.dw.Entry(w.u.RootOffset())
	if !ok {
		return
	}
	if v, _, ok := root.Attr(dwarf.AttrLowpc); ok {
		_, w.hasBase = root.Addr(v)
	}
	if v, _, ok := root.Attr(dwarf.AttrLoclistsBase); ok {
		w.loclistsBase, w.hasLoclists = v.SectionOffset()
	}
}

// subprogramOf describes the subroutine DIE at off as llvm does for
// DILocal::FunctionName (getSubroutineName(ShortName), which follows
// abstract origins and specifications) and the frame base it reads (its
// own DW_AT_frame_base only).
func (w *frameWalk) subprogramOf(off uint64) subprogram {
	sp := subprogram{frameBaseReg: -1}
	d, ok := w.o.dw.Entry(off)
	if !ok {
		return sp
	}
	if isFuncTag(d.Tag()) {
		if di, ok := w.o.dw.Subroutine(w.fi, off); ok {
			r := w.o.resolve(w.fi, di, off)
			sp.name = w.o.dw.Str(r.name(w.o, w.fi, di, off))
		}
	}
	if v, _, ok := d.Attr(dwarf.AttrFrameBase); ok {
		if e := d.Block(v); len(e) > 0 && e[0] >= opReg0 && e[0] <= opReg31 {
			sp.frameBaseReg = int(e[0] - opReg0)
		}
	}
	return sp
}

func isFuncTag(tag uint32) bool {
	return tag == dwarf.TagSubprogram || tag == dwarf.TagInlinedSubroutine
}

// walk visits the subtree of the subroutine DIE at off in DIE order.
func (w *frameWalk) walk(off uint64) error {
	top, ok := w.o.dw.Entry(off)
	if !ok {
		return errors.New("cannot read the function's DIE")
	}
	sp := w.subprogramOf(off)
	sp = w.enter(&top, sp)
	all := func(uint32) bool { return true }
	return dwarf.WalkChildren(w.o.dw, &top, all, sp, func(d *dwarf.Entry, cur subprogram) subprogram {
		if cur.skip {
			return cur
		}
		if t := d.Tag(); t == dwarf.TagVariable || t == dwarf.TagFormalParameter {
			w.addLocal(d, cur)
			cur.skip = true // llvm does not look inside a variable
			return cur
		}
		return w.enter(d, cur)
	})
}

// enter returns the subprogram for d's children: an inlined subroutine's
// locals belong to its abstract origin.
func (w *frameWalk) enter(d *dwarf.Entry, cur subprogram) subprogram {
	if d.Tag() != dwarf.TagInlinedSubroutine {
		return cur
	}
	origin, ok := d.Ref(dwarf.AttrAbstractOrigin)
	if !ok {
		return cur
	}
	return w.subprogramOf(origin)
}

// addLocal appends the variable or parameter d.
func (w *frameWalk) addLocal(d *dwarf.Entry, sp subprogram) {
	o := w.o
	l := Local{FunctionName: sp.name}
	if v, _, ok := d.Attr(dwarf.AttrLocation); ok {
		l.FrameOffset, l.HasFrameOffset = w.frameOffset(d, v, sp.frameBaseReg)
	}
	if v, _, ok := d.Attr(dwarf.AttrLLVMTagOffset); ok {
		l.TagOffset, l.HasTagOffset = unsignedConst(v)
	}
	// The rest comes from the abstract origin when there is one (one
	// step, not recursively), as in llvm.
	src := d
	if origin, ok := d.Ref(dwarf.AttrAbstractOrigin); ok {
		if od, ok := o.dw.Entry(origin); ok {
			src = &od
		}
	}
	if v, _, ok := src.Attr(dwarf.AttrName); ok {
		l.Name = src.Str(v)
	}
	if t, ok := src.Ref(dwarf.AttrType); ok {
		l.Size, l.HasSize = o.typeSize(t, uint64(w.u.AddrSize()), 0)
	}
	if v, _, ok := src.Attr(dwarf.AttrDeclFile); ok && w.lt != nil {
		// The file index is read in the line table of the unit holding the
		// address, as llvm does, whichever unit the origin is in.
		if i, ok := unsignedConst(v); ok && i <= 1<<32-1 {
			l.DeclFile, _ = w.lt.FileName(uint32(i), dwarf.PathFull)
		}
	}
	if v, _, ok := src.Attr(dwarf.AttrDeclLine); ok {
		l.DeclLine, _ = unsignedConst(v)
	}
	w.out = append(w.out, l)
}
