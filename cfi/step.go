package cfi

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
)

// x86-64 DWARF register numbers (System V psABI, table 3.36; the same
// numbering as delve's pkg/dwarf/regnum AMD64_*).
const (
	RegRAX = 0
	RegRDX = 1
	RegRCX = 2
	RegRBX = 3
	RegRSI = 4
	RegRDI = 5
	RegRBP = 6
	RegRSP = 7
	RegR8  = 8
	RegR15 = 15
	RegRIP = 16 // the return address column of every x86-64 CIE
)

// NumRegs is the number of registers a Regs holds: the 17 general purpose
// ones (rax..r15, rip); the others never carry unwinding state on x86-64.
const NumRegs = 17

// Regs is a register set by DWARF register number, each value with a
// known bit.
type Regs struct {
	vals  [NumRegs]uint64
	known uint32
	// ReturnPC says the pc is a return address (a caller frame), so the
	// row to use is the one of pc-1, the call instruction. Step sets it on
	// the frames it returns, except above a signal frame ('S' CIE).
	ReturnPC bool
}

// Set sets register n (ignored when n >= NumRegs).
func (r *Regs) Set(n uint64, v uint64) {
	if n < NumRegs {
		r.vals[n] = v
		r.known |= 1 << n
	}
}

// Clear marks register n unknown.
func (r *Regs) Clear(n uint64) {
	if n < NumRegs {
		r.known &^= 1 << n
	}
}

// Get returns register n and whether it is known.
func (r *Regs) Get(n uint64) (uint64, bool) {
	if n < NumRegs && r.known&(1<<n) != 0 {
		return r.vals[n], true
	}
	return 0, false
}

// PC returns rip.
func (r *Regs) PC() (uint64, bool) { return r.Get(RegRIP) }

// SP returns rsp.
func (r *Regs) SP() (uint64, bool) { return r.Get(RegRSP) }

// Memory is the address space a Step reads saved registers from (a core
// file's segments, a live process).
type Memory interface {
	ReadAt(p []byte, addr uint64) (int, error)
}

// ErrOutermost is returned by Step for the outermost frame: the return
// address column's rule is DW_CFA_undefined (glibc's _start and clone3).
var ErrOutermost = errors.New("return address undefined: outermost frame")

// Step rolls regs back one frame (x86-64 only): it finds the row for the frame's pc (pc-1
// when regs.ReturnPC), computes the CFA and recovers every register of the
// caller, the return address becoming the caller's rip and the CFA its rsp.
// bias is the module's load bias (runtime pc - link-time pc). Registers the
// row does not mention keep their value (as gdb treats unspecified ones);
// registers it marks undefined become unknown. Errors: ErrNoFDE (wrapped)
// when no CFI covers the pc, ErrOutermost when the return address is
// undefined; anything else is a rule that could not be evaluated.
func (t *Table) Step(regs Regs, bias uint64, mem Memory) (Regs, error) {
	pc, ok := regs.PC()
	if !ok {
		return Regs{}, errors.New("pc unknown")
	}
	look := pc - bias
	if regs.ReturnPC && look > 0 {
		look--
	}
	row, err := t.RowAt(look)
	if err != nil {
		return Regs{}, err
	}
	return t.StepRow(row, regs, mem)
}

// StepRow is Step with the row already found.
func (t *Table) StepRow(row *Row, regs Regs, mem Memory) (Regs, error) {
	if t.machine != elf.EM_X86_64 && t.machine != elf.EM_NONE {
		// Regs holds x86-64's registers: rsp is the CFA's, rip the return
		// address's. Other machines' tables are for dumping only.
		return Regs{}, fmt.Errorf("unwinding %v code is not supported", t.machine)
	}
	bo := binary.ByteOrder(binary.LittleEndian)
	if len(t.secs) > 0 {
		bo = t.secs[0].bo
	}
	as := t.addrSize
	var cfa uint64
	if row.CFA.Expr != nil {
		v, err := evalExpr(row.CFA.Expr, nil, &regs, mem, bo, as)
		if err != nil {
			return Regs{}, fmt.Errorf("CFA: %v", err)
		}
		cfa = v
	} else {
		v, ok := regs.Get(row.CFA.Reg)
		if !ok {
			return Regs{}, fmt.Errorf("CFA: register %s unknown", RegName(row.CFA.Reg))
		}
		cfa = v + uint64(row.CFA.Offset)
	}
	read := func(addr uint64) (uint64, error) {
		if mem == nil {
			return 0, errors.New("no memory to read saved registers from")
		}
		b := make([]byte, as)
		if n, err := mem.ReadAt(b, addr); n < as {
			if err == nil {
				err = errors.New("short read")
			}
			return 0, fmt.Errorf("reading 0x%x: %v", addr, err)
		}
		rr := newReader("memory", b, 0, bo)
		return rr.UintN(as), nil
	}
	caller := regs
	caller.ReturnPC = !row.Signal
	// The CFA is by definition the caller's stack pointer on x86-64.
	caller.Set(RegRSP, cfa)
	raDone := false
	for n := uint64(0); n < uint64(len(row.Regs)) && n < NumRegs; n++ {
		rule := row.Regs[n]
		var v uint64
		var err error
		switch rule.Kind {
		case RuleUnspecified, RuleSameValue:
			continue
		case RuleUndefined:
			caller.Clear(n)
			continue
		case RuleOffset:
			v, err = read(cfa + uint64(rule.Offset))
		case RuleValOffset:
			v = cfa + uint64(rule.Offset)
		case RuleRegister:
			var ok bool
			if v, ok = regs.Get(rule.Reg); !ok {
				caller.Clear(n)
				continue
			}
		case RuleExpression:
			var a uint64
			if a, err = evalExpr(rule.Expr, []uint64{cfa}, &regs, mem, bo, as); err == nil {
				v, err = read(a)
			}
		case RuleValExpression:
			v, err = evalExpr(rule.Expr, []uint64{cfa}, &regs, mem, bo, as)
		}
		if err != nil {
			return Regs{}, fmt.Errorf("register %s: %v", RegName(n), err)
		}
		if n == row.RA {
			raDone = true
		}
		caller.Set(n, v)
	}
	ra := row.Rule(row.RA)
	switch {
	case ra.Kind == RuleUndefined:
		caller.Clear(RegRIP)
		return caller, ErrOutermost
	case row.RA != RegRIP && raDone:
		v, _ := caller.Get(row.RA)
		caller.Set(RegRIP, v)
	case !raDone && ra.Kind == RuleUnspecified:
		// No rule for the return address: it stays as it is, which is
		// no progress; say so rather than loop.
		return caller, fmt.Errorf("no rule for the return address column %d", row.RA)
	}
	return caller, nil
}
