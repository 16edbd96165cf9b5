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
	opGNUPushTLSAddr: "DW_OP_GNU_push_tls_address or DW_OP_HP_unknown", opGNUUninit: "DW_OP_GNU_uninit",
	// Vendor operations readelf names without reading their operands.
	0xe1: "DW_OP_HP_is_value", 0xe2: "DW_OP_HP_fltconst4", 0xe3: "DW_OP_HP_fltconst8",
	0xe4: "DW_OP_HP_mod_range", 0xe5: "DW_OP_HP_unmod_range", 0xe6: "DW_OP_HP_tls",
	0xf8: "DW_OP_PGI_omp_thread_num",
}

// opRefNames are the operations readelf prints as "NAME <0xULEB>".
var opRefNames = map[uint8]string{
	0xa1: "DW_OP_addrx", 0xa8: "DW_OP_convert", 0xa9: "DW_OP_reinterpret",
	0xf7: "DW_OP_GNU_convert", 0xf9: "DW_OP_GNU_reinterpret",
	0xfb: "DW_OP_GNU_addr_index", 0xfc: "DW_OP_GNU_const_index",
}

// opNotInCFI are the operations readelf refuses in frame information: it
// names them and stops decoding the expression.
var opNotInCFI = map[uint8]string{
	opCallRef: "DW_OP_call_ref", 0xa0: "DW_OP_implicit_pointer",
	0xf2: "DW_OP_GNU_implicit_pointer", 0xfd: "DW_OP_GNU_variable_value",
}

// expr spells a DWARF expression as readelf's decode_location_expression
// does: operations separated by "; ".
func (d *dumper) expr(base, n int, depth int) string {
	var sb strings.Builder
	if depth > 8 {
		// Entry values nest expressions; readelf recurses without bound.
		return "(nested too deep)"
	}
	// The expression is read in place: DW_OP_GNU_encoded_addr's pcrel
	// pointers need its section offset.
	r := newReader(d.sec.name, d.sec.data[:base+n], base, d.sec.bo)
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
		case opRefNames[op] != "":
			fmt.Fprintf(&sb, "%s <0x%x>", opRefNames[op], r.Uleb())
		case opNotInCFI[op] != "":
			fmt.Fprintf(&sb, "(%s in frame info)", opNotInCFI[op])
			return sb.String()
		case op == opImplicitValue:
			n := r.Uleb()
			sb.WriteString("DW_OP_implicit_value")
			d.block(&sb, r, n)
		case op == 0xa3 || op == 0xf3: // DW_OP_entry_value, DW_OP_GNU_entry_value
			name := "DW_OP_entry_value"
			if op == 0xf3 {
				name = "DW_OP_GNU_entry_value"
			}
			n := r.Uleb()
			if n > uint64(r.Left()) {
				n = uint64(r.Left())
			}
			at := r.Pos()
			r.Skip(int(n))
			fmt.Fprintf(&sb, "%s: (%s)", name, d.expr(at, int(n), depth+1))
		case op == 0xa4 || op == 0xf4: // DW_OP_const_type
			name := "DW_OP_const_type"
			if op == 0xf4 {
				name = "DW_OP_GNU_const_type"
			}
			typ := r.Uleb()
			n := uint64(r.U8())
			fmt.Fprintf(&sb, "%s: <0x%x> ", name, typ)
			d.block(&sb, r, n)
		case op == 0xa5 || op == 0xf5: // DW_OP_regval_type
			name := "DW_OP_regval_type"
			if op == 0xf5 {
				name = "DW_OP_GNU_regval_type"
			}
			reg := r.Uleb()
			typ := r.Uleb()
			fmt.Fprintf(&sb, "%s: %d (%s) <0x%x>", name, reg, d.names.name(reg), typ)
		case op == 0xa6 || op == 0xf6: // DW_OP_deref_type
			name := "DW_OP_deref_type"
			if op == 0xf6 {
				name = "DW_OP_GNU_deref_type"
			}
			size := r.U8()
			fmt.Fprintf(&sb, "%s: %d <0x%x>", name, size, r.Uleb())
		case op == 0xf1: // DW_OP_GNU_encoded_addr
			enc := r.U8()
			v, _ := d.sec.readEncoded(r, enc, d.sec.addrSize)
			fmt.Fprintf(&sb, "DW_OP_GNU_encoded_addr: fmt:%02x addr:%s", enc, hex(v, d.sec.addrSize))
		case op == 0xfa: // DW_OP_GNU_parameter_ref
			fmt.Fprintf(&sb, "DW_OP_GNU_parameter_ref: <0x%x>", r.U32())
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

// block prints n bytes as readelf's display_block does.
func (d *dumper) block(sb *strings.Builder, r *reader, n uint64) {
	if n > uint64(r.Left()) {
		n = uint64(r.Left())
	}
	fmt.Fprintf(sb, " %d byte block: ", n)
	for _, c := range r.Bytes(int(n)) {
		fmt.Fprintf(sb, "%x ", c)
	}
}
