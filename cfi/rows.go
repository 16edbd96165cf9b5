package cfi

import (
	"errors"
	"fmt"
)

// RuleKind says how a register of the caller is recovered.
type RuleKind uint8

// Register rules (DWARF 5 §6.4.1). RuleUnspecified is a column no
// instruction mentioned; unwinders treat it as the same value, as gdb does.
const (
	RuleUnspecified RuleKind = iota
	RuleUndefined
	RuleSameValue
	RuleOffset        // saved at CFA+Offset
	RuleValOffset     // the value is CFA+Offset
	RuleRegister      // saved in register Reg
	RuleExpression    // saved at the address Expr computes (CFA pushed first)
	RuleValExpression // the value Expr computes (CFA pushed first)
)

// Rule is one register's rule in a row.
type Rule struct {
	Kind   RuleKind
	Reg    uint64
	Offset int64
	Expr   []byte
}

// CFARule computes the Canonical Frame Address: Reg+Offset, or Expr when
// Expr is not nil.
type CFARule struct {
	Reg    uint64
	Offset int64
	Expr   []byte
}

// Row is the set of rules in force from Loc on.
type Row struct {
	Loc  uint64
	CFA  CFARule
	Regs []Rule // indexed by DWARF register number; missing = RuleUnspecified
	RA   uint64 // return address column
	// Signal is the CIE's 'S' augmentation: the frame was interrupted by a
	// signal, so its pc is not a return address.
	Signal bool
}

// Rule returns the rule of register reg.
func (r *Row) Rule(reg uint64) Rule {
	if reg < uint64(len(r.Regs)) {
		return r.Regs[reg]
	}
	return Rule{}
}

// maxRegs bounds register numbers: larger ones are malformed CFI (x86-64
// uses 0-125), and bounding them bounds the memory of a row.
const maxRegs = 1024

// maxRememberDepth bounds DW_CFA_remember_state nesting (compilers nest
// two or three; each level copies the row).
const maxRememberDepth = 256

var errRowNotFound = errors.New("no row covers the pc")

// state is the machine that runs CIE and FDE instructions.
type state struct {
	loc      uint64
	cfa      CFARule
	regs     []Rule
	init     []Rule // the rules after the CIE's initial instructions
	stack    []savedState
	addrMask uint64
}

type savedState struct {
	cfa  CFARule
	regs []Rule
}

func (st *state) set(reg uint64, r Rule) error {
	if reg >= maxRegs {
		return fmt.Errorf("register %d out of range", reg)
	}
	for uint64(len(st.regs)) <= reg {
		st.regs = append(st.regs, Rule{})
	}
	st.regs[reg] = r
	return nil
}

func (st *state) initial(reg uint64) Rule {
	if reg < uint64(len(st.init)) {
		return st.init[reg]
	}
	return Rule{}
}

// apply executes one instruction that is not a location change.
func (st *state) apply(in insn, c *CIE) error {
	da := c.DataAlign
	switch in.op {
	case cfaOffset, cfaOffsetExtended:
		return st.set(in.reg, Rule{Kind: RuleOffset, Offset: int64(in.u) * da})
	case cfaOffsetExtendedSf:
		return st.set(in.reg, Rule{Kind: RuleOffset, Offset: in.s * da})
	case cfaGNUNegOffsetExt:
		return st.set(in.reg, Rule{Kind: RuleOffset, Offset: -int64(in.u) * da})
	case cfaValOffset:
		return st.set(in.reg, Rule{Kind: RuleValOffset, Offset: int64(in.u) * da})
	case cfaValOffsetSf:
		return st.set(in.reg, Rule{Kind: RuleValOffset, Offset: in.s * da})
	case cfaRestore, cfaRestoreExtended:
		return st.set(in.reg, st.initial(in.reg))
	case cfaUndefined:
		return st.set(in.reg, Rule{Kind: RuleUndefined})
	case cfaSameValue:
		return st.set(in.reg, Rule{Kind: RuleSameValue})
	case cfaRegister:
		return st.set(in.reg, Rule{Kind: RuleRegister, Reg: in.reg2})
	case cfaExpression:
		if in.bad != "" {
			return fmt.Errorf("DW_CFA_expression: corrupt length %d", in.u)
		}
		return st.set(in.reg, Rule{Kind: RuleExpression, Expr: in.expr})
	case cfaValExpression:
		if in.bad != "" {
			return fmt.Errorf("DW_CFA_val_expression: corrupt length %d", in.u)
		}
		return st.set(in.reg, Rule{Kind: RuleValExpression, Expr: in.expr})
	case cfaRememberState:
		if len(st.stack) >= maxRememberDepth {
			return fmt.Errorf("DW_CFA_remember_state nested deeper than %d", maxRememberDepth)
		}
		st.stack = append(st.stack, savedState{cfa: st.cfa, regs: append([]Rule(nil), st.regs...)})
	case cfaRestoreState:
		if len(st.stack) == 0 {
			return errors.New("DW_CFA_restore_state without DW_CFA_remember_state")
		}
		top := st.stack[len(st.stack)-1]
		st.stack = st.stack[:len(st.stack)-1]
		st.cfa = top.cfa
		st.regs = top.regs
	case cfaDefCFA:
		st.cfa = CFARule{Reg: in.reg, Offset: int64(in.u)}
	case cfaDefCFASf:
		st.cfa = CFARule{Reg: in.reg, Offset: in.s * da}
	case cfaDefCFARegister:
		st.cfa.Reg = in.reg
		st.cfa.Expr = nil
	case cfaDefCFAOffset:
		st.cfa.Offset = int64(in.u)
	case cfaDefCFAOffsetSf:
		st.cfa.Offset = in.s * da
	case cfaDefCFAExpression:
		if in.bad != "" {
			return fmt.Errorf("DW_CFA_def_cfa_expression: corrupt length %d", in.u)
		}
		// Register and offset are kept: a later DW_CFA_def_cfa_register
		// goes back to them (gcc epilogues do; libgcc and gdb keep them).
		st.cfa.Expr = in.expr
	case cfaNop, cfaGNUArgsSize, cfaGNUWindowSave:
	default:
		return fmt.Errorf("unexpected call frame instruction 0x%x", in.op)
	}
	return nil
}

// advance returns the location an advance/set_loc instruction moves to, and
// whether in is one.
func (st *state) advance(in insn, c *CIE) (uint64, bool) {
	switch in.op {
	case cfaAdvanceLoc, cfaAdvanceLoc1, cfaAdvanceLoc2, cfaAdvanceLoc4, cfaMIPSAdvanceLoc8:
		return (st.loc + in.u*c.CodeAlign) & st.addrMask, true
	case cfaSetLoc:
		return in.u, true
	}
	return 0, false
}

func (st *state) row(c *CIE) *Row {
	return &Row{Loc: st.loc, CFA: st.cfa, Regs: append([]Rule(nil), st.regs...), RA: c.RA, Signal: c.Signal}
}

func addrMask(size uint8) uint64 {
	if size >= 8 || size == 0 {
		return ^uint64(0)
	}
	return 1<<(8*uint(size)) - 1
}

// runCIE executes a CIE's initial instructions.
func runCIE(c *CIE) (*state, error) {
	st := &state{addrMask: addrMask(c.AddrSize)}
	if err := st.exec(newDecoder(c.sec, c.Instructions, c.insnOff, c), c, 0, true); err != nil {
		return st, fmt.Errorf("%s CIE at 0x%x: %v", c.sec.name, c.Offset, err)
	}
	st.init = append([]Rule(nil), st.regs...)
	st.stack = nil
	return st, nil
}

// exec applies d's instructions to st up to the first that advances the
// location past pc. In a CIE (cie set) an advance is meaningless: readelf
// shows it, rows ignore it.
func (st *state) exec(d *decoder, c *CIE, pc uint64, cie bool) error {
	for d.more() {
		in, err := d.next()
		if err != nil {
			return err
		}
		if loc, ok := st.advance(in, c); ok {
			if cie {
				continue
			}
			if loc > pc {
				break
			}
			st.loc = loc
			continue
		}
		if err := st.apply(in, c); err != nil {
			return err
		}
	}
	return nil
}

// RowAt returns the row of fde in force at the link-time address pc.
func (f *FDE) RowAt(pc uint64) (*Row, error) {
	if pc < f.Begin || pc >= f.End {
		return nil, fmt.Errorf("pc 0x%x outside FDE [0x%x, 0x%x): %w", pc, f.Begin, f.End, errRowNotFound)
	}
	c := f.CIE
	st, err := runCIE(c)
	if err != nil {
		return nil, err
	}
	st.loc = f.Begin
	if err := st.exec(newDecoder(f.sec, f.Instructions, f.insnOff, c), c, pc, false); err != nil {
		return nil, fmt.Errorf("%s FDE at 0x%x: %v", f.sec.name, f.Offset, err)
	}
	return st.row(c), nil
}

// cfaString spells a CFA rule as readelf's interpreted rows do.
func cfaString(c CFARule, names regNames) string {
	if c.Expr != nil {
		return "exp"
	}
	return fmt.Sprintf("%s%+d", names.name(c.Reg), int32(c.Offset))
}

// ruleString spells a register rule as readelf's interpreted rows do.
func ruleString(r Rule, names regNames) string {
	switch r.Kind {
	case RuleUnspecified, RuleUndefined:
		return "u"
	case RuleSameValue:
		return "s"
	case RuleOffset:
		return fmt.Sprintf("c%+d", int32(r.Offset))
	case RuleValOffset:
		return fmt.Sprintf("v%+d", int32(r.Offset))
	case RuleRegister:
		return names.long(r.Reg)
	case RuleExpression:
		return "exp"
	case RuleValExpression:
		return "vexp"
	}
	return "n/a"
}
