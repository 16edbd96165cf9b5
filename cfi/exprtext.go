package cfi

import (
	"fmt"
	"strings"
)

// opNames are the DW_OP_* operations without operands, as readelf prints
// them.
var opNames = map[uint8]string{
	opDeref: "DW_OP_deref", opDup: "DW_OP_dup", opDrop: "DW_OP_drop", opOver: "DW_OP_over",
	opSwap: "DW_OP_swap", opRot: "DW_OP_rot", opXderef: "DW_OP_xderef", opAbs: "DW_OP_abs",
	opAnd: "DW_OP_and", opDiv: "DW_OP_div", opMinus: "DW_OP_minus", opMod: "DW_OP_mod",
	opMul: "DW_OP_mul", opNeg: "DW_OP_neg", opNot: "DW_OP_not", opOr: "DW_OP_or",
	opPlus: "DW_OP_plus", opShl: "DW_OP_shl", opShr: "DW_OP_shr", opShra: "DW_OP_shra",
	opXor: "DW_OP_xor", opEq: "DW_OP_eq", opGe: "DW_OP_ge", opGt: "DW_OP_gt", opLe: "DW_OP_le",
	opLt: "DW_OP_lt", opNe: "DW_OP_ne", opNop: "DW_OP_nop",
	opPushObjectAddr: "DW_OP_push_object_address", opFormTLSAddress: "DW_OP_form_tls_address",
	opCallFrameCFA: "DW_OP_call_frame_cfa", opStackValue: "DW_OP_stack_value",
	opGNUPushTLSAddr: "DW_OP_GNU_push_tls_address", opGNUUninit: "DW_OP_GNU_uninit",
}

// expr spells a DWARF expression as readelf's decode_location_expression
// does: operations separated by "; ".
func (d *dumper) expr(b []byte) string {
	var sb strings.Builder
	r := newReader("DWARF expression", b, 0, d.sec.bo)
	as := d.sec.addrSize
	for r.Left() > 0 {
		op := r.U8()
		switch {
		case opNames[op] != "":
			sb.WriteString(opNames[op])
		case op >= opLit0 && op <= opLit31:
			fmt.Fprintf(&sb, "DW_OP_lit%d", op-opLit0)
		case op >= opReg0 && op <= opReg31:
			fmt.Fprintf(&sb, "DW_OP_reg%d (%s)", op-opReg0, d.names.name(uint64(op-opReg0)))
		case op >= opBreg0 && op <= opBreg31:
			v := r.Sleb()
			fmt.Fprintf(&sb, "DW_OP_breg%d (%s): %d", op-opBreg0, d.names.name(uint64(op-opBreg0)), v)
		case op == opAddr:
			fmt.Fprintf(&sb, "DW_OP_addr: %x", r.UintN(as))
		case op == opConst1u:
			fmt.Fprintf(&sb, "DW_OP_const1u: %d", r.U8())
		case op == opConst1s:
			fmt.Fprintf(&sb, "DW_OP_const1s: %d", sint(r, 1))
		case op == opConst2u:
			fmt.Fprintf(&sb, "DW_OP_const2u: %d", r.U16())
		case op == opConst2s:
			fmt.Fprintf(&sb, "DW_OP_const2s: %d", sint(r, 2))
		case op == opConst4u:
			fmt.Fprintf(&sb, "DW_OP_const4u: %d", r.U32())
		case op == opConst4s:
			fmt.Fprintf(&sb, "DW_OP_const4s: %d", sint(r, 4))
		case op == opConst8u:
			fmt.Fprintf(&sb, "DW_OP_const8u: %d", r.U64())
		case op == opConst8s:
			fmt.Fprintf(&sb, "DW_OP_const8s: %d", int64(r.U64()))
		case op == opConstu:
			fmt.Fprintf(&sb, "DW_OP_constu: %d", r.Uleb())
		case op == opConsts:
			fmt.Fprintf(&sb, "DW_OP_consts: %d", r.Sleb())
		case op == opPick:
			fmt.Fprintf(&sb, "DW_OP_pick: %d", r.U8())
		case op == opPlusUconst:
			fmt.Fprintf(&sb, "DW_OP_plus_uconst: %d", r.Uleb())
		case op == opBra:
			fmt.Fprintf(&sb, "DW_OP_bra: %d", sint(r, 2))
		case op == opSkip:
			fmt.Fprintf(&sb, "DW_OP_skip: %d", sint(r, 2))
		case op == opRegx:
			v := r.Uleb()
			fmt.Fprintf(&sb, "DW_OP_regx: %d (%s)", v, d.names.name(v))
		case op == opFbreg:
			fmt.Fprintf(&sb, "DW_OP_fbreg: %d", r.Sleb())
		case op == opBregx:
			v := r.Uleb()
			o := r.Sleb()
			fmt.Fprintf(&sb, "DW_OP_bregx: %d (%s) %d", v, d.names.name(v), o)
		case op == opPiece:
			fmt.Fprintf(&sb, "DW_OP_piece: %d", r.Uleb())
		case op == opDerefSize:
			fmt.Fprintf(&sb, "DW_OP_deref_size: %d", r.U8())
		case op == opXderefSize:
			fmt.Fprintf(&sb, "DW_OP_xderef_size: %d", r.U8())
		case op == opCall2:
			fmt.Fprintf(&sb, "DW_OP_call2: <0x%x>", r.U16())
		case op == opCall4:
			fmt.Fprintf(&sb, "DW_OP_call4: <0x%x>", r.U32())
		case op == opBitPiece:
			s := r.Uleb()
			o := r.Uleb()
			fmt.Fprintf(&sb, "DW_OP_bit_piece: size: %d offset: %d ", s, o)
		case op >= 0xe0:
			fmt.Fprintf(&sb, "(User defined location op 0x%x)", op)
			return sb.String()
		default:
			fmt.Fprintf(&sb, "(Unknown location op 0x%x)", op)
			return sb.String()
		}
		if r.Err() != nil {
			break
		}
		if r.Left() > 0 {
			sb.WriteString("; ")
		}
	}
	return sb.String()
}
