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
	op      uint8  // opcode; 0x40/0x80/0xc0 for the primary ones
	reg     uint64 // register operand
	reg2    uint64 // second register (DW_CFA_register)
	u       uint64 // unsigned operand (offset, delta, size, address)
	s       int64  // signed operand (the _sf forms)
	expr    []byte // expression block
	exprOff int    // its section offset
	bad     string // a non-fatal defect that readelf prints in place of the instruction
}

// decoder walks an instruction stream.
type decoder struct {
	r   *reader
	cie *CIE
}

func newDecoder(sec *section, data []byte, off int, cie *CIE) *decoder {
	return &decoder{r: newReader(sec.name, sec.data[:off+len(data)], off, sec.bo), cie: cie}
}

func (d *decoder) more() bool { return d.r.Err() == nil && d.r.Left() > 0 }

// next decodes one instruction. An error means the stream cannot be read on.
func (d *decoder) next() (insn, error) {
	r := d.r
	b := r.U8()
	in := insn{op: b}
	if b&0xc0 != 0 {
		in.op = b & 0xc0
		in.reg = uint64(b & 0x3f)
		in.u = uint64(b & 0x3f)
		if in.op == cfaOffset {
			in.u = r.Uleb()
		}
		return in, r.Err()
	}
	switch b {
	case cfaNop, cfaRememberState, cfaRestoreState, cfaGNUWindowSave:
	case cfaSetLoc:
		// .debug_frame's CIEs have no 'R': FDEEnc is absptr there.
		in.u, _ = d.cie.sec.readEncoded(r, d.cie.FDEEnc, int(d.cie.AddrSize))
	case cfaAdvanceLoc1:
		in.u = uint64(r.U8())
	case cfaAdvanceLoc2:
		in.u = uint64(r.U16())
	case cfaAdvanceLoc4:
		in.u = uint64(r.U32())
	case cfaMIPSAdvanceLoc8:
		in.u = r.U64()
	case cfaOffsetExtended, cfaValOffset, cfaGNUNegOffsetExt:
		in.reg = r.Uleb()
		in.u = r.Uleb()
	case cfaRestoreExtended, cfaUndefined, cfaSameValue, cfaDefCFARegister:
		in.reg = r.Uleb()
	case cfaRegister:
		in.reg = r.Uleb()
		in.reg2 = r.Uleb()
	case cfaDefCFA:
		in.reg = r.Uleb()
		in.u = r.Uleb()
	case cfaDefCFAOffset, cfaGNUArgsSize:
		in.u = r.Uleb()
	case cfaDefCFAExpression, cfaExpression, cfaValExpression:
		if b != cfaDefCFAExpression {
			in.reg = r.Uleb()
		}
		n := r.Uleb()
		in.u = n
		if r.Err() == nil && n > uint64(r.Left()) {
			in.bad = "corrupt len"
			stop(r)
			return in, nil
		}
		in.exprOff = r.Pos()
		in.expr = r.Bytes(int(n))
	case cfaOffsetExtendedSf, cfaValOffsetSf, cfaDefCFASf:
		in.reg = r.Uleb()
		in.s = r.Sleb()
	case cfaDefCFAOffsetSf:
		in.s = r.Sleb()
	default:
		if r.Err() == nil {
			stop(r)
			if b >= cfaLoUser && b <= cfaHiUser {
				return in, fmt.Errorf("user defined call frame instruction 0x%x", b)
			}
			return in, fmt.Errorf("unknown call frame instruction 0x%x", b)
		}
	}
	if r.Err() != nil {
		return in, fmt.Errorf("call frame instruction 0x%x runs past the end of the entry", b)
	}
	return in, nil
}
