package resolve

import (
	"debug/elf"
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/core"
)

// moduleCFI is a module's call frame information at its load bias: the
// unwinder's Stepper and the bounds of code without symbols.
type moduleCFI struct {
	t    *cfi.Table
	bias uint64
}

// openModuleCFI reads the CFI of the ELF file f and, for its
// .debug_frame, of its separate debug file debug (nil for none). A module
// without any CFI gives nil and no error; damaged CFI costs the entries
// it hits (TestModuleCFIDamaged).
func openModuleCFI(f, debug *elf.File, bias uint64) (*moduleCFI, error) {
	t, err := cfi.Load(f, debug)
	if t == nil {
		return nil, err
	}
	if len(t.Functions()) == 0 {
		return nil, err
	}
	if err == nil {
		if errs := t.Errors(); len(errs) > 0 {
			err = fmt.Errorf("%d unreadable entries, first: %w", len(errs), errs[0])
		}
	}
	return &moduleCFI{t: t, bias: bias}, err
}

// Step implements core.Stepper over the module's table: pc is the
// run-time address whose row applies.
func (m *moduleCFI) Step(pc uint64, regs core.RegSet, mem core.Memory) (core.RegSet, error) {
	var in cfi.Regs
	for r := 0; r < core.NumRegs; r++ {
		if v, ok := regs.Get(r); ok {
			in.Set(uint64(r), v)
		}
	}
	in.Set(cfi.RegRIP, pc) // the row's pc; the unwinder has already adjusted it
	out, err := m.t.Step(in, m.bias, mem)
	switch {
	case errors.Is(err, cfi.ErrNoFDE):
		return core.RegSet{}, fmt.Errorf("%w: %v", core.ErrNoCFI, err)
	case errors.Is(err, cfi.ErrOutermost):
		return core.RegSet{}, core.ErrOutermost
	case err != nil:
		return core.RegSet{}, err
	}
	var res core.RegSet
	for r := 0; r < core.NumRegs; r++ {
		if v, ok := out.Get(uint64(r)); ok {
			res.Set(r, v)
		}
	}
	return res, nil
}

// subName names link-time address addr after the FDE covering it, for
// code that neither DWARF nor a symbol names. m may be nil.
func (m *moduleCFI) subName(addr uint64) (string, bool) {
	if m == nil {
		return "", false
	}
	f, ok := m.t.FuncAt(addr)
	if !ok {
		return "", false
	}
	return SubName(f.Begin), true
}
