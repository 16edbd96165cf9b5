package symbolize

import "errors"

// frameWalk collects the locals of one FRAME query (llvm's addLocalsForDie).
type frameWalk struct {
	o  *Object
	u  *unit
	fi *funcIndex
	lt *lineTable

	base         uint64 // the unit's DW_AT_low_pc: location-list base
	hasBase      bool
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
	root, ok := w.o.readRawDIE(w.u.h.dieOff)
	if !ok {
		return
	}
	if v, _, ok := root.attr(atLowpc); ok {
		w.base, w.hasBase = w.o.addrOf(&w.u.h, v)
	}
	if v, _, ok := root.attr(atLoclistsBase); ok && v.kind == valSecOff {
		w.loclistsBase, w.hasLoclists = v.v, true
	}
}

// subprogramOf describes the subroutine DIE at off as llvm does for
// DILocal::FunctionName (getSubroutineName(ShortName), which follows
// abstract origins and specifications) and the frame base it reads (its
// own DW_AT_frame_base only).
func (w *frameWalk) subprogramOf(off uint64) subprogram {
	sp := subprogram{frameBaseReg: -1}
	d, ok := w.o.readRawDIE(off)
	if !ok {
		return sp
	}
	if isFuncTag(d.a.tag) {
		if di, ok := w.o.dieAt(w.fi, off); ok {
			r := w.o.resolve(w.fi, di, off)
			sp.name = w.o.str(r.name(w.o, w.fi, di, off))
		}
	}
	if v, _, ok := d.attr(atFrameBase); ok {
		if e := w.o.blockOf(v); len(e) > 0 && e[0] >= opReg0 && e[0] <= opReg31 {
			sp.frameBaseReg = int(e[0] - opReg0)
		}
	}
	return sp
}

// walk visits the subtree of the subroutine DIE at off in DIE order.
func (w *frameWalk) walk(off uint64) error {
	o := w.o
	r, err := o.newDIEReader(&w.u.h)
	if err != nil {
		return err
	}
	all := func(uint32) bool { return true }
	r.seek(off)
	_, top, _ := r.next(all)
	if top == nil || r.b.Err() != nil {
		return errors.New("cannot read the function's DIE")
	}
	d := rawDIE{off: off, u: w.u, a: top, vals: r.vals}
	sp := w.subprogramOf(off)
	sp = w.enter(&d, sp)
	if !top.children {
		return nil
	}
	return walkSubtree(r, all, sp, func(doff uint64, a *abbrev, cur subprogram) subprogram {
		if cur.skip {
			return cur
		}
		d := rawDIE{off: doff, u: w.u, a: a, vals: r.vals}
		if a.tag == tagVariable || a.tag == tagFormalParameter {
			w.addLocal(&d, cur)
			cur.skip = true // llvm does not look inside a variable
			return cur
		}
		return w.enter(&d, cur)
	})
}

// enter returns the subprogram for d's children: an inlined subroutine's
// locals belong to its abstract origin.
func (w *frameWalk) enter(d *rawDIE, cur subprogram) subprogram {
	if d.a.tag != tagInlinedSubroutine {
		return cur
	}
	origin, ok := d.ref(atAbstractOrigin)
	if !ok {
		return cur
	}
	return w.subprogramOf(origin)
}

// addLocal appends the variable or parameter d.
func (w *frameWalk) addLocal(d *rawDIE, sp subprogram) {
	o := w.o
	l := Local{FunctionName: sp.name}
	if v, form, ok := d.attr(atLocation); ok {
		l.FrameOffset, l.HasFrameOffset = w.frameOffset(v, form, sp.frameBaseReg)
	}
	if v, _, ok := d.attr(atLLVMTagOffset); ok {
		l.TagOffset, l.HasTagOffset = unsignedConst(v)
	}
	// The rest comes from the abstract origin when there is one (one
	// step, not recursively), as in llvm.
	src := d
	if origin, ok := d.ref(atAbstractOrigin); ok {
		if od, ok := o.readRawDIE(origin); ok {
			src = &od
		}
	}
	if v, _, ok := src.attr(atName); ok {
		l.Name = o.str(o.strOf(&src.u.h, v))
	}
	if t, ok := src.ref(atType); ok {
		l.Size, l.HasSize = o.typeSize(t, uint64(w.u.h.addrSize), 0)
	}
	if v, _, ok := src.attr(atDeclFile); ok && w.lt != nil {
		// The file index is read in the line table of the unit holding the
		// address, as llvm does, whichever unit the origin is in.
		if i, ok := unsignedConst(v); ok && i <= 1<<32-1 {
			l.DeclFile, _ = w.lt.fileName(uint32(i))
		}
	}
	if v, _, ok := src.attr(atDeclLine); ok {
		l.DeclLine, _ = unsignedConst(v)
	}
	w.out = append(w.out, l)
}
