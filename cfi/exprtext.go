package cfi

import (
	"fmt"
	"strconv"
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

// opOperands are the operations with one integer operand, which readelf
// prints as "NAME: <operand>".
var opOperands = map[uint8]struct {
	name string
	arg  operand
}{
	opConst1u: {"DW_OP_const1u", u1}, opConst1s: {"DW_OP_const1s", s1},
	opConst2u: {"DW_OP_const2u", u2}, opConst2s: {"DW_OP_const2s", s2},
	opConst4u: {"DW_OP_const4u", u4}, opConst4s: {"DW_OP_const4s", s4},
	opConst8u: {"DW_OP_const8u", u8}, opConst8s: {"DW_OP_const8s", s8},
	opConstu: {"DW_OP_constu", uleb}, opConsts: {"DW_OP_consts", sleb},
	opPick: {"DW_OP_pick", u1}, opPlusUconst: {"DW_OP_plus_uconst", uleb},
	opBra: {"DW_OP_bra", s2}, opSkip: {"DW_OP_skip", s2},
	opFbreg: {"DW_OP_fbreg", sleb}, opPiece: {"DW_OP_piece", uleb},
	opDerefSize: {"DW_OP_deref_size", u1}, opXderefSize: {"DW_OP_xderef_size", u1},
	// DIE offsets, printed "<0x...>".
	opCall2: {"DW_OP_call2", ref2}, opCall4: {"DW_OP_call4", ref4},
	0xfa: {"DW_OP_GNU_parameter_ref", ref4},
}

// An operand says how an operation's operand is read and printed.
type operand struct {
	size   int  // 1, 2, 4 or 8 bytes; 0 for a LEB128
	signed bool // two's complement (or SLEB128)
	ref    bool // a DIE offset, in hex
}

var (
	u1, u2, u4, u8 = operand{size: 1}, operand{size: 2}, operand{size: 4}, operand{size: 8}
	s1, s2, s4, s8 = operand{size: 1, signed: true}, operand{size: 2, signed: true}, operand{size: 4, signed: true}, operand{size: 8, signed: true}
	uleb, sleb     = operand{}, operand{signed: true}
	ref2, ref4     = operand{size: 2, ref: true}, operand{size: 4, ref: true}
)

// text reads the operand from r and spells it.
func (o operand) text(r *reader) string {
	switch {
	case o.size == 0 && o.signed:
		return strconv.FormatInt(r.Sleb(), 10)
	case o.size == 0:
		return strconv.FormatUint(r.Uleb(), 10)
	case o.signed:
		return strconv.FormatInt(sint(r, o.size), 10)
	case o.ref:
		return "<0x" + strconv.FormatUint(r.UintN(o.size), 16) + ">"
	}
	return strconv.FormatUint(r.UintN(o.size), 10)
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
		case opOperands[op].name != "":
			o := opOperands[op]
			sb.WriteString(o.name + ": " + o.arg.text(r))
		case op >= opLit0 && op <= opLit31:
			fmt.Fprintf(&sb, "DW_OP_lit%d", op-opLit0)
		case op >= opReg0 && op <= opReg31:
			fmt.Fprintf(&sb, "DW_OP_reg%d (%s)", op-opReg0, d.names.name(uint64(op-opReg0)))
		case op >= opBreg0 && op <= opBreg31:
			v := r.Sleb()
			fmt.Fprintf(&sb, "DW_OP_breg%d (%s): %d", op-opBreg0, d.names.name(uint64(op-opBreg0)), v)
		case op == opAddr:
			fmt.Fprintf(&sb, "DW_OP_addr: %x", r.UintN(as))
		case op == opRegx:
			v := r.Uleb()
			fmt.Fprintf(&sb, "DW_OP_regx: %d (%s)", v, d.names.name(v))
		case op == opBregx:
			v := r.Uleb()
			o := r.Sleb()
			fmt.Fprintf(&sb, "DW_OP_bregx: %d (%s) %d", v, d.names.name(v), o)
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
