package symbolize

import (
	"fmt"

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
	defer func() {
		if p := recover(); p != nil {
			locals, err = nil, fmt.Errorf("symbolize: %s: frame at 0x%x: decoder panic: %v", o.debugPath, addr, p)
		}
	}()
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
