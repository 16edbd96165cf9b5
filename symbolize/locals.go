package symbolize

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Local is one local variable or parameter of the function(s) containing an
// address: what llvm-symbolizer's FRAME query prints (llvm's DILocal).
type Local struct {
	FunctionName   string // DW_AT_name of the (inlined) subprogram
	Name           string
	DeclFile       string // "" when unknown
	DeclLine       uint64
	FrameOffset    int64 // from DW_OP_fbreg (or a breg of the frame-base register)
	HasFrameOffset bool
	Size           uint64 // from the type chain
	HasSize        bool
	TagOffset      uint64 // DW_AT_LLVM_tag_offset (HWASan)
	HasTagOffset   bool
}

// DWARF expression operations FRAME queries read.
const (
	opDeref          = 0x06
	opReg0           = 0x50
	opReg31          = 0x6f
	opBreg0          = 0x70
	opFbreg          = 0x91
	maxTypeChainHops = 64
)

// Frame answers a FRAME query as llvm-symbolizer 14 does
// (DWARFContext::getLocalsForAddress): every variable and parameter under
// the innermost subprogram or inlined subroutine containing addr, in DIE
// order, lexical blocks and nested inlined calls included whatever their
// ranges. The DIEs are read here, on demand: the CODE path never decodes
// locals. No locals (or no DWARF) gives nil.
func (o *Object) Frame(addr uint64) (locals []Local, err error) {
	if o == nil || o.dw == nil {
		return nil, nil
	}
	u := o.dw.UnitFor(addr)
	if u == nil {
		return nil, nil
	}
	fi, err := o.dw.Functions(u)
	if fi == nil {
		return nil, err
	}
	chain := fi.Chain(addr, nil)
	if len(chain) == 0 {
		return nil, nil
	}
	w := &frameWalk{o: o, u: u, fi: fi}
	if lt, lerr := o.dw.LineTable(u); lerr == nil {
		w.lt = lt
	}
	w.readUnitBases()
	if err := w.walk(fi.Offset(chain[0])); err != nil {
		return w.out, fmt.Errorf("symbolize: %s: frame at 0x%x: %w", o.debugPath, addr, err)
	}
	return w.out, nil
}

// unsignedConst is llvm's DWARFFormValue::getAsUnsignedConstant.
func unsignedConst(v dwarf.Value) (uint64, bool) {
	bits, signed, ok := v.Const()
	if !ok || signed && int64(bits) < 0 {
		return 0, false
	}
	return bits, true
}

// signedConst is llvm's DWARFFormValue::getAsSignedConstant: data1, data2
// and data4 are sign-extended from their width.
func signedConst(v dwarf.Value, form uint32) (int64, bool) {
	bits, signed, ok := v.Const()
	if !ok {
		return 0, false
	}
	return constAsSigned(bits, signed, form)
}

// constAsSigned is signedConst for a constant's bits, signed when its
// form is a signed one.
func constAsSigned(bits uint64, signed bool, form uint32) (int64, bool) {
	if signed {
		return int64(bits), true
	}
	switch form {
	case dwarf.FormData1:
		return int64(int8(bits)), true
	case dwarf.FormData2:
		return int64(int16(bits)), true
	case dwarf.FormData4:
		return int64(int32(bits)), true
	case dwarf.FormUdata:
		if bits > 1<<63-1 {
			return 0, false
		}
	}
	return int64(bits), true
}

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
		if d, ok := w.o.dw.Subroutine(w.fi, off); ok {
			di := &d
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
		l.Size, l.HasSize = w.typeSize(t, uint64(w.u.AddrSize()), 0)
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

// frameOffset is llvm 14's getExpressionFrameOffset over the expressions
// of a DW_AT_location (DWARFDie::getLocations): the first that is a single
// DW_OP_fbreg, or DW_OP_breg of the frame-base register, optionally
// followed by DW_OP_deref. A location list that cannot be read whole gives
// no offset, as llvm drops it on any error.
func (w *frameWalk) frameOffset(d *dwarf.Entry, v dwarf.Value, fbReg int) (int64, bool) {
	if e := d.Block(v); e != nil {
		return exprFrameOffset(e, fbReg)
	}
	var exprs [][]byte
	var err error
	if off, ok := v.SectionOffset(); ok {
		exprs, err = w.o.dw.LocationList(w.u, off, w.hasBase)
	} else if idx, ok := v.LoclistIndex(); ok {
		if !w.hasLoclists {
			return 0, false
		}
		off, ok := w.o.dw.LoclistOffset(w.u, w.loclistsBase, idx)
		if !ok {
			return 0, false
		}
		exprs, err = w.o.dw.LocationList(w.u, off, w.hasBase)
	} else {
		return 0, false
	}
	if err != nil {
		return 0, false
	}
	for _, e := range exprs {
		if off, ok := exprFrameOffset(e, fbReg); ok {
			return off, true
		}
	}
	return 0, false
}

func exprFrameOffset(e []byte, fbReg int) (int64, bool) {
	if len(e) == 0 || !(e[0] == opFbreg || fbReg >= 0 && int(e[0]) == opBreg0+fbReg) {
		return 0, false
	}
	b := dwarfbuf.NewReader("location expression", 0, e[1:], binary.LittleEndian)
	off := b.Sleb()
	if b.Err() != nil {
		return 0, false
	}
	switch rest := e[1+b.Pos():]; {
	case len(rest) == 0:
		return off, true
	case len(rest) == 1 && rest[0] == opDeref:
		return off, true
	}
	return 0, false
}

// typeSize is llvm 14's getTypeSize (DWARFContext.cpp): DW_AT_byte_size
// when it is a constant, else by tag: pointers and references are one
// address, a pointer to member function two, arrays multiply their element
// size by each subrange's count (or upper - lower + 1), qualifiers,
// typedefs and any other DIE with a DW_AT_type follow it. hops bounds the
// chain, which llvm would follow into a cycle forever.
func (w *frameWalk) typeSize(off, ptrSize uint64, hops int) (uint64, bool) {
	if hops > maxTypeChainHops {
		return 0, false
	}
	t, ok := w.o.dw.Entry(off)
	if !ok {
		return 0, false
	}
	if v, _, ok := t.Attr(dwarf.AttrByteSize); ok {
		if n, ok := unsignedConst(v); ok {
			return n, true
		}
	}
	switch t.Tag() {
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueRefType:
		return ptrSize, true
	case dwarf.TagPtrToMemberType:
		if b, ok := t.Ref(dwarf.AttrType); ok {
			if bt, ok := w.o.dw.Entry(b); ok && bt.Tag() == dwarf.TagSubroutineType {
				return 2 * ptrSize, true
			}
		}
		return ptrSize, true
	case dwarf.TagArrayType:
		b, ok := t.Ref(dwarf.AttrType)
		if !ok {
			return 0, false
		}
		size, ok := w.typeSize(b, ptrSize, hops+1)
		if !ok {
			return 0, false
		}
		return w.arraySize(&t, size), true
	}
	// const, volatile, restrict, immutable, typedef and the rest.
	if b, ok := t.Ref(dwarf.AttrType); ok {
		return w.typeSize(b, ptrSize, hops+1)
	}
	return 0, false
}

// arraySize multiplies an array's element size by the extent of each of
// its DW_TAG_subrange_type children.
func (w *frameWalk) arraySize(t *dwarf.Entry, size uint64) uint64 {
	isSubrange := func(tag uint32) bool { return tag == dwarf.TagSubrangeType }
	// The state handed down is the depth below the array: only its own
	// children count. A DIE that cannot be read ends the walk; what was
	// read counts.
	_ = dwarf.WalkChildren(w.o.dw, t, isSubrange, 1, func(d *dwarf.Entry, depth int) int {
		if depth == 1 && d.Tag() == dwarf.TagSubrangeType {
			if v, _, ok := d.Attr(dwarf.AttrCount); ok {
				if n, ok := unsignedConst(v); ok {
					size *= n
				}
			}
			if v, form, ok := d.Attr(dwarf.AttrUpperBound); ok {
				if hi, ok := signedConst(v, form); ok {
					lo := int64(0)
					if lv, lform, ok := d.Attr(dwarf.AttrLowerBound); ok {
						lo, _ = signedConst(lv, lform)
					}
					size *= uint64(hi - lo + 1)
				}
			}
		}
		return depth + 1
	})
	return size
}
