package cfi

import "fmt"

// DW_CFA_* instruction opcodes. The three primary ones carry an operand in
// their low six bits.
const (
	cfaAdvanceLoc       = 0x40
	cfaOffset           = 0x80
	cfaRestore          = 0xc0
	cfaNop              = 0x00
	cfaSetLoc           = 0x01
	cfaAdvanceLoc1      = 0x02
	cfaAdvanceLoc2      = 0x03
	cfaAdvanceLoc4      = 0x04
	cfaOffsetExtended   = 0x05
	cfaRestoreExtended  = 0x06
	cfaUndefined        = 0x07
	cfaSameValue        = 0x08
	cfaRegister         = 0x09
	cfaRememberState    = 0x0a
	cfaRestoreState     = 0x0b
	cfaDefCFA           = 0x0c
	cfaDefCFARegister   = 0x0d
	cfaDefCFAOffset     = 0x0e
	cfaDefCFAExpression = 0x0f
	cfaExpression       = 0x10
	cfaOffsetExtendedSf = 0x11
	cfaDefCFASf         = 0x12
	cfaDefCFAOffsetSf   = 0x13
	cfaValOffset        = 0x14
	cfaValOffsetSf      = 0x15
	cfaValExpression    = 0x16
	cfaMIPSAdvanceLoc8  = 0x1d
	cfaGNUWindowSave    = 0x2d
	cfaGNUArgsSize      = 0x2e
	cfaGNUNegOffsetExt  = 0x2f
	cfaLoUser           = 0x1c
	cfaHiUser           = 0x3f
)

// insn is one decoded call frame instruction with its operands as stored.
type insn struct {
	op   uint8  // opcode; 0x40/0x80/0xc0 for the primary ones
	reg  uint64 // register operand
	reg2 uint64 // second register (DW_CFA_register)
	u    uint64 // unsigned operand (offset, delta, size, address)
	s    int64  // signed operand (the _sf forms)
	expr []byte // expression block
	bad  string // a non-fatal defect that readelf prints in place of the instruction
}

// decoder walks an instruction stream.
type decoder struct {
	r   *reader
	cie *CIE
}

func newDecoder(sec *section, data []byte, off int, cie *CIE) *decoder {
	return &decoder{r: &reader{data: sec.data[:off+len(data)], pos: off, bo: sec.bo}, cie: cie}
}

func (d *decoder) more() bool { return d.r.err == nil && d.r.left() > 0 }

// next decodes one instruction. An error means the stream cannot be read on.
func (d *decoder) next() (insn, error) {
	r := d.r
	b := r.u8()
	in := insn{op: b}
	if b&0xc0 != 0 {
		in.op = b & 0xc0
		in.reg = uint64(b & 0x3f)
		in.u = uint64(b & 0x3f)
		if in.op == cfaOffset {
			in.u = r.uleb()
		}
		return in, r.err
	}
	switch b {
	case cfaNop, cfaRememberState, cfaRestoreState, cfaGNUWindowSave:
	case cfaSetLoc:
		sec := d.cie.sec
		in.u, _ = sec.readEncoded(r, d.cie.FDEEnc, int(d.cie.AddrSize))
		if !sec.eh {
			// .debug_frame has no encodings: a plain target address.
			r.err = nil
		}
	case cfaAdvanceLoc1:
		in.u = uint64(r.u8())
	case cfaAdvanceLoc2:
		in.u = uint64(r.u16())
	case cfaAdvanceLoc4:
		in.u = uint64(r.u32())
	case cfaMIPSAdvanceLoc8:
		in.u = r.u64()
	case cfaOffsetExtended, cfaValOffset, cfaGNUNegOffsetExt:
		in.reg = r.uleb()
		in.u = r.uleb()
	case cfaRestoreExtended, cfaUndefined, cfaSameValue, cfaDefCFARegister:
		in.reg = r.uleb()
	case cfaRegister:
		in.reg = r.uleb()
		in.reg2 = r.uleb()
	case cfaDefCFA:
		in.reg = r.uleb()
		in.u = r.uleb()
	case cfaDefCFAOffset, cfaGNUArgsSize:
		in.u = r.uleb()
	case cfaDefCFAExpression:
		n := r.uleb()
		if r.err == nil && n > uint64(r.left()) {
			in.u = n
			in.bad = "corrupt len"
			r.pos = len(r.data)
			return in, nil
		}
		in.u = n
		in.expr = r.bytes(int(n))
	case cfaExpression, cfaValExpression:
		in.reg = r.uleb()
		n := r.uleb()
		if r.err == nil && n > uint64(r.left()) {
			in.u = n
			in.bad = "corrupt len"
			r.pos = len(r.data)
			return in, nil
		}
		in.u = n
		in.expr = r.bytes(int(n))
	case cfaOffsetExtendedSf, cfaValOffsetSf, cfaDefCFASf:
		in.reg = r.uleb()
		in.s = r.sleb()
	case cfaDefCFAOffsetSf:
		in.s = r.sleb()
	default:
		if r.err == nil {
			r.pos = len(r.data)
			if b >= cfaLoUser && b <= cfaHiUser {
				return in, fmt.Errorf("user defined call frame instruction 0x%x", b)
			}
			return in, fmt.Errorf("unknown call frame instruction 0x%x", b)
		}
	}
	if r.err != nil {
		return in, fmt.Errorf("call frame instruction 0x%x runs past the end of the entry", b)
	}
	return in, nil
}
