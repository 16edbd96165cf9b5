package symbolize

import (
	"fmt"
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

// DWARF codes only FRAME queries need.
const (
	tagArrayType       = 0x01
	tagFormalParameter = 0x05
	tagPointerType     = 0x0f
	tagReferenceType   = 0x10
	tagSubroutineType  = 0x15
	tagTypedef         = 0x16
	tagPtrToMemberType = 0x1f
	tagSubrangeType    = 0x21
	tagConstType       = 0x26
	tagVolatileType    = 0x35
	tagRestrictType    = 0x37
	tagRvalueRefType   = 0x42
	tagImmutableType   = 0x4b

	atByteSize       = 0x0b
	atLowerBound     = 0x22
	atUpperBound     = 0x2f
	atCount          = 0x37
	atFrameBase      = 0x40
	atType           = 0x49
	atLoclistsBase   = 0x8c
	atLLVMTagOffset  = 0x3e03
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
	if o == nil || o.sec == nil {
		return nil, nil
	}
	defer func() {
		if p := recover(); p != nil {
			locals, err = nil, fmt.Errorf("symbolize: %s: frame at 0x%x: decoder panic: %v", o.debugPath, addr, p)
		}
	}()
	u := o.units.unitFor(addr)
	if u == nil {
		return nil, nil
	}
	fi, err := o.functions(u)
	if fi == nil {
		return nil, err
	}
	chain := fi.chain(addr, nil)
	if len(chain) == 0 {
		return nil, nil
	}
	w := &frameWalk{o: o, u: u, fi: fi}
	if lt, lerr := o.lineTable(u); lerr == nil {
		w.lt = lt
	}
	w.readUnitBases()
	if err := w.walk(fi.dieOff(chain[0])); err != nil {
		return w.out, fmt.Errorf("symbolize: %s: frame at 0x%x: %w", o.debugPath, addr, err)
	}
	return w.out, nil
}

// rawDIE is one DIE with all its attribute values.
type rawDIE struct {
	off  uint64
	u    *unit
	a    *abbrev
	vals []attrVal
}

func (d *rawDIE) attr(at uint32) (attrVal, uint32, bool) {
	if d.a == nil {
		return attrVal{}, 0, false
	}
	for i, s := range d.a.attrs {
		if s.attr == at && i < len(d.vals) {
			return d.vals[i], s.form, true
		}
	}
	return attrVal{}, 0, false
}

// ref returns the DIE a reference attribute names, if any.
func (d *rawDIE) ref(at uint32) (uint64, bool) {
	v, _, ok := d.attr(at)
	if !ok || v.kind != valRef {
		return 0, false
	}
	return v.v, true
}

// readRawDIE decodes the DIE at the .debug_info offset off, in any unit.
func (o *Object) readRawDIE(off uint64) (rawDIE, bool) {
	u := o.units.unitAt(off)
	if u == nil {
		return rawDIE{}, false
	}
	r, err := o.newDIEReader(&u.h)
	if err != nil {
		return rawDIE{}, false
	}
	r.seek(off)
	_, a, _ := r.next(func(uint32) bool { return true })
	if a == nil || r.b.Err() != nil {
		return rawDIE{}, false
	}
	return rawDIE{off: off, u: u, a: a, vals: append([]attrVal(nil), r.vals...)}, true
}

// unsignedConst is llvm's DWARFFormValue::getAsUnsignedConstant.
func unsignedConst(v attrVal) (uint64, bool) {
	switch v.kind {
	case valConst:
		return v.v, true
	case valSigned:
		if int64(v.v) >= 0 {
			return v.v, true
		}
	}
	return 0, false
}

// signedConst is llvm's DWARFFormValue::getAsSignedConstant: data1, data2
// and data4 are sign-extended from their width.
func signedConst(v attrVal, form uint32) (int64, bool) {
	switch v.kind {
	case valConst:
		switch form {
		case formData1:
			return int64(int8(v.v)), true
		case formData2:
			return int64(int16(v.v)), true
		case formData4:
			return int64(int32(v.v)), true
		case formUdata:
			if v.v > 1<<63-1 {
				return 0, false
			}
		}
		return int64(v.v), true
	case valSigned:
		return int64(v.v), true
	}
	return 0, false
}
