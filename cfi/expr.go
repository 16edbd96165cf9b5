package cfi

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// DW_OP_* opcodes used by CFI expressions (and printed by the dump).
const (
	opAddr           = 0x03
	opDeref          = 0x06
	opConst1u        = 0x08
	opConst1s        = 0x09
	opConst2u        = 0x0a
	opConst2s        = 0x0b
	opConst4u        = 0x0c
	opConst4s        = 0x0d
	opConst8u        = 0x0e
	opConst8s        = 0x0f
	opConstu         = 0x10
	opConsts         = 0x11
	opDup            = 0x12
	opDrop           = 0x13
	opOver           = 0x14
	opPick           = 0x15
	opSwap           = 0x16
	opRot            = 0x17
	opXderef         = 0x18
	opAbs            = 0x19
	opAnd            = 0x1a
	opDiv            = 0x1b
	opMinus          = 0x1c
	opMod            = 0x1d
	opMul            = 0x1e
	opNeg            = 0x1f
	opNot            = 0x20
	opOr             = 0x21
	opPlus           = 0x22
	opPlusUconst     = 0x23
	opShl            = 0x24
	opShr            = 0x25
	opShra           = 0x26
	opXor            = 0x27
	opBra            = 0x28
	opEq             = 0x29
	opGe             = 0x2a
	opGt             = 0x2b
	opLe             = 0x2c
	opLt             = 0x2d
	opNe             = 0x2e
	opSkip           = 0x2f
	opLit0           = 0x30
	opLit31          = 0x4f
	opReg0           = 0x50
	opReg31          = 0x6f
	opBreg0          = 0x70
	opBreg31         = 0x8f
	opRegx           = 0x90
	opFbreg          = 0x91
	opBregx          = 0x92
	opPiece          = 0x93
	opDerefSize      = 0x94
	opXderefSize     = 0x95
	opNop            = 0x96
	opPushObjectAddr = 0x97
	opCall2          = 0x98
	opCall4          = 0x99
	opCallRef        = 0x9a
	opFormTLSAddress = 0x9b
	opCallFrameCFA   = 0x9c
	opBitPiece       = 0x9d
	opImplicitValue  = 0x9e
	opStackValue     = 0x9f
	opGNUPushTLSAddr = 0xe0
	opGNUUninit      = 0xf0
)

// Limits that keep a hostile expression bounded: branches can loop.
const (
	maxExprSteps = 10000
	maxExprStack = 1000
)

var errExprLoop = errors.New("DWARF expression exceeds its step limit (a loop?)")

// evalExpr runs a CFI DWARF expression (DWARF 5 §2.5) with initial on the
// stack (the CFA for register rules; nothing for the CFA rule) and returns
// the top of the stack. Registers come from regs; memory reads from mem.
func evalExpr(expr []byte, initial []uint64, regs *Regs, mem Memory, bo binary.ByteOrder, addrSize int) (uint64, error) {
	stack := append(make([]uint64, 0, 8), initial...)
	r := newReader("DWARF expression", expr, 0, bo)
	pop := func() (uint64, error) {
		if len(stack) == 0 {
			return 0, errors.New("DWARF expression stack underflow")
		}
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return v, nil
	}
	push := func(v uint64) error {
		if len(stack) >= maxExprStack {
			return errors.New("DWARF expression stack overflow")
		}
		stack = append(stack, v)
		return nil
	}
	reg := func(n uint64) (uint64, error) {
		v, ok := regs.Get(n)
		if !ok {
			return 0, fmt.Errorf("DWARF expression reads register %s, unknown here", RegName(n))
		}
		return v, nil
	}
	read := func(addr uint64, size int) (uint64, error) {
		if mem == nil {
			return 0, errors.New("DWARF expression reads memory, none given")
		}
		var b [8]byte
		if n, err := mem.ReadAt(b[:size], addr); n < size {
			if err == nil {
				err = errors.New("short read")
			}
			return 0, fmt.Errorf("reading %d bytes at 0x%x: %v", size, addr, err)
		}
		rr := newReader("memory", b[:size], 0, bo)
		return rr.UintN(size), nil
	}
	for steps := 0; r.Left() > 0; steps++ {
		if steps >= maxExprSteps {
			return 0, errExprLoop
		}
		op := r.U8()
		var err error
		switch {
		case op >= opLit0 && op <= opLit31:
			err = push(uint64(op - opLit0))
		case op >= opBreg0 && op <= opBreg31:
			off := r.Sleb()
			var v uint64
			if v, err = reg(uint64(op - opBreg0)); err == nil {
				err = push(v + uint64(off))
			}
		case op == opBregx:
			n := r.Uleb()
			off := r.Sleb()
			var v uint64
			if v, err = reg(n); err == nil {
				err = push(v + uint64(off))
			}
		case op == opAddr:
			err = push(r.UintN(addrSize))
		case op == opConst1u:
			err = push(uint64(r.U8()))
		case op == opConst1s:
			err = push(uint64(sint(r, 1)))
		case op == opConst2u:
			err = push(uint64(r.U16()))
		case op == opConst2s:
			err = push(uint64(sint(r, 2)))
		case op == opConst4u:
			err = push(uint64(r.U32()))
		case op == opConst4s:
			err = push(uint64(sint(r, 4)))
		case op == opConst8u, op == opConst8s:
			err = push(r.U64())
		case op == opConstu:
			err = push(r.Uleb())
		case op == opConsts:
			err = push(uint64(r.Sleb()))
		case op == opDup:
			if len(stack) == 0 {
				return 0, errors.New("DWARF expression stack underflow")
			}
			err = push(stack[len(stack)-1])
		case op == opDrop:
			_, err = pop()
		case op == opOver:
			if len(stack) < 2 {
				return 0, errors.New("DWARF expression stack underflow")
			}
			err = push(stack[len(stack)-2])
		case op == opPick:
			i := int(r.U8())
			if i >= len(stack) {
				return 0, errors.New("DWARF expression stack underflow")
			}
			err = push(stack[len(stack)-1-i])
		case op == opSwap:
			if len(stack) < 2 {
				return 0, errors.New("DWARF expression stack underflow")
			}
			n := len(stack)
			stack[n-1], stack[n-2] = stack[n-2], stack[n-1]
		case op == opRot:
			if len(stack) < 3 {
				return 0, errors.New("DWARF expression stack underflow")
			}
			n := len(stack)
			stack[n-1], stack[n-2], stack[n-3] = stack[n-2], stack[n-3], stack[n-1]
		case op == opDeref, op == opDerefSize:
			size := addrSize
			if op == opDerefSize {
				size = int(r.U8())
				if size < 1 || size > 8 {
					return 0, fmt.Errorf("DW_OP_deref_size %d", size)
				}
			}
			var a uint64
			if a, err = pop(); err == nil {
				if a, err = read(a, size); err == nil {
					err = push(a)
				}
			}
		case op == opAbs, op == opNeg, op == opNot:
			var a uint64
			if a, err = pop(); err == nil {
				switch op {
				case opAbs:
					if int64(a) < 0 {
						a = -a
					}
				case opNeg:
					a = -a
				case opNot:
					a = ^a
				}
				err = push(a)
			}
		case op == opPlusUconst:
			n := r.Uleb()
			var a uint64
			if a, err = pop(); err == nil {
				err = push(a + n)
			}
		case op >= opAnd && op <= opXor && op != opNeg && op != opNot && op != opPlusUconst,
			op >= opEq && op <= opNe:
			var a, b uint64
			if b, err = pop(); err != nil {
				return 0, err
			}
			if a, err = pop(); err != nil {
				return 0, err
			}
			var v uint64
			if v, err = binop(op, a, b); err == nil {
				err = push(v)
			}
		case op == opSkip, op == opBra:
			d := int(sint(r, 2))
			take := true
			if op == opBra {
				var a uint64
				if a, err = pop(); err != nil {
					return 0, err
				}
				take = a != 0
			}
			if take {
				to := r.Pos() + d
				if to < 0 || to > len(expr) {
					return 0, fmt.Errorf("DWARF expression branch to %d outside the expression", to)
				}
				r.Seek(to)
			}
		case op == opNop:
		default:
			return 0, fmt.Errorf("DWARF expression operation 0x%x not supported in CFI", op)
		}
		if err != nil {
			return 0, err
		}
		if r.Err() != nil {
			return 0, fmt.Errorf("DWARF expression: %v", r.Err())
		}
	}
	return pop()
}

func binop(op uint8, a, b uint64) (uint64, error) {
	bool2 := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case opAnd:
		return a & b, nil
	case opOr:
		return a | b, nil
	case opXor:
		return a ^ b, nil
	case opPlus:
		return a + b, nil
	case opMinus:
		return a - b, nil
	case opMul:
		return a * b, nil
	case opDiv:
		if b == 0 {
			return 0, errors.New("DWARF expression divides by zero")
		}
		if int64(b) == -1 {
			return -a, nil
		}
		return uint64(int64(a) / int64(b)), nil
	case opMod:
		if b == 0 {
			return 0, errors.New("DWARF expression divides by zero")
		}
		return a % b, nil
	case opShl:
		if b >= 64 {
			return 0, nil
		}
		return a << b, nil
	case opShr:
		if b >= 64 {
			return 0, nil
		}
		return a >> b, nil
	case opShra:
		if b >= 64 {
			b = 63
		}
		return uint64(int64(a) >> b), nil
	case opEq:
		return bool2(a == b), nil
	case opGe:
		return bool2(int64(a) >= int64(b)), nil
	case opGt:
		return bool2(int64(a) > int64(b)), nil
	case opLe:
		return bool2(int64(a) <= int64(b)), nil
	case opLt:
		return bool2(int64(a) < int64(b)), nil
	case opNe:
		return bool2(a != b), nil
	}
	return 0, fmt.Errorf("DWARF expression operation 0x%x not supported", op)
}
