package cfi

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

func loadFixture(t *testing.T, path string) *Table {
	t.Helper()
	f := fixture.OpenELF(t, path)
	tab, err := Load(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Errors()) > 0 {
		t.Fatalf("%s: %v", path, tab.Errors())
	}
	return tab
}

// The rows of testdata/elf/c-O2-dw5-pie's FDE at 0x1090, as readelf prints
// them (readelf -wF):
//
//	LOC              CFA      rbx   rbp   r12   ra
//	0000000000001090 rsp+8    u     u     u     c-8
//	0000000000001091 rsp+16   u     c-16  u     c-8
//	0000000000001094 rbp+16   u     c-16  u     c-8
//	0000000000001096 rbp+16   u     c-16  c-24  c-8
//	000000000000109d rbp+16   c-32  c-16  c-24  c-8
//	00000000000010f9 rsp+8    c-32  c-16  c-24  c-8
func TestRowAt(t *testing.T) {
	tab := loadFixture(t, "../testdata/elf/c-O2-dw5-pie")
	tests := []struct {
		pc   uint64
		loc  uint64
		cfa  string
		regs map[uint64]string
	}{
		{0x1090, 0x1090, "rsp+8", map[uint64]string{RegRBX: "u", RegRBP: "u", 12: "u", RegRIP: "c-8"}},
		{0x1093, 0x1091, "rsp+16", map[uint64]string{RegRBP: "c-16", RegRIP: "c-8"}},
		{0x1095, 0x1094, "rbp+16", map[uint64]string{RegRBP: "c-16", 12: "u"}},
		{0x10a0, 0x109d, "rbp+16", map[uint64]string{RegRBX: "c-32", RegRBP: "c-16", 12: "c-24"}},
		{0x10f9, 0x10f9, "rsp+8", map[uint64]string{RegRBX: "c-32"}},
	}
	for _, tt := range tests {
		row, err := tab.RowAt(tt.pc)
		if err != nil {
			t.Fatalf("RowAt(%#x): %v", tt.pc, err)
		}
		if row.Loc != tt.loc {
			t.Errorf("RowAt(%#x).Loc = %#x, want %#x", tt.pc, row.Loc, tt.loc)
		}
		names := regNames(regNamesX8664[:])
		if got := cfaString(row.CFA, names); got != tt.cfa {
			t.Errorf("RowAt(%#x) CFA = %s, want %s", tt.pc, got, tt.cfa)
		}
		for reg, want := range tt.regs {
			if got := ruleString(row.Rule(reg), names); got != want {
				t.Errorf("RowAt(%#x) %s = %s, want %s", tt.pc, RegName(reg), got, want)
			}
		}
	}
	if _, err := tab.RowAt(0x5); !errors.Is(err, ErrNoFDE) {
		t.Errorf("RowAt(0x5) = %v, want ErrNoFDE", err)
	}
}

// TestHdrAgreesWithIndex: every FDE is found both through .eh_frame_hdr and
// through the sorted index, at its first and last byte.
func TestHdrAgreesWithIndex(t *testing.T) {
	for _, path := range []string{"../testdata/elf/c-O2-dw5-pie", "../testdata/elf/cxx-O2-dw5", "../testdata/elf/libfix.so", "../testdata/elf/go-trimpath"} {
		tab := loadFixture(t, path)
		if tab.hdr == nil && path != "../testdata/elf/go-trimpath" {
			t.Errorf("%s: no .eh_frame_hdr table", path)
		}
		hdr := tab.hdr
		for _, f := range tab.fdes {
			for _, pc := range []uint64{f.Begin, f.End - 1} {
				got, ok := tab.FDEFor(pc)
				if !ok || got.Begin > pc || got.End <= pc {
					t.Errorf("%s: FDEFor(%#x) = %v, %v", path, pc, got, ok)
				}
				tab.hdr = nil
				idx, ok := tab.FDEFor(pc)
				tab.hdr = hdr
				if !ok || idx.Begin != got.Begin {
					t.Errorf("%s: index FDEFor(%#x) = %v, hdr %v", path, pc, idx, got)
				}
			}
		}
		if len(tab.Functions()) == 0 {
			t.Errorf("%s: no functions", path)
		}
	}
}

// mapMem is a Memory over a map of 8-byte words.
type mapMem map[uint64]uint64

func (m mapMem) ReadAt(p []byte, addr uint64) (int, error) {
	if len(p) != 8 {
		return 0, fmt.Errorf("read of %d bytes", len(p))
	}
	v, ok := m[addr]
	if !ok {
		return 0, fmt.Errorf("unmapped 0x%x", addr)
	}
	binary.LittleEndian.PutUint64(p, v)
	return 8, nil
}

func TestStep(t *testing.T) {
	tab := loadFixture(t, "../testdata/elf/c-O2-dw5-pie")
	const bias = 0x555555554000
	// At 0x10a0 (runtime 0x5555555550a0): CFA = rbp+16, rbx at CFA-32,
	// rbp at CFA-16, r12 at CFA-24, return address at CFA-8.
	var regs Regs
	regs.Set(RegRIP, bias+0x10a0)
	regs.Set(RegRBP, 0x7ffe0000)
	regs.Set(RegRSP, 0x7ffdfff0)
	regs.Set(RegRBX, 1)
	regs.Set(RegRAX, 42)
	cfa := uint64(0x7ffe0010)
	mem := mapMem{cfa - 32: 0xb0b, cfa - 16: 0x7ffe1000, cfa - 24: 0x1212, cfa - 8: bias + 0x1234}
	caller, err := tab.Step(regs, bias, mem)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]uint64{RegRIP: bias + 0x1234, RegRSP: cfa, RegRBP: 0x7ffe1000, RegRBX: 0xb0b, 12: 0x1212, RegRAX: 42}
	for reg, w := range want {
		if got, ok := caller.Get(reg); !ok || got != w {
			t.Errorf("caller %s = %#x (known %v), want %#x", RegName(reg), got, ok, w)
		}
	}
	if !caller.ReturnPC {
		t.Error("caller.ReturnPC = false")
	}
	// The CIE at 0 makes the return address undefined (_start).
	regs = Regs{}
	regs.Set(RegRIP, bias+0x1100)
	regs.Set(RegRSP, 0x7ffe0000)
	if _, err := tab.Step(regs, bias, mem); !errors.Is(err, ErrOutermost) {
		t.Errorf("Step at _start: %v, want ErrOutermost", err)
	}
	// A register the row needs but the set lacks.
	regs = Regs{}
	regs.Set(RegRIP, bias+0x10a0)
	if _, err := tab.Step(regs, bias, mem); err == nil {
		t.Error("Step without rbp: no error")
	}
}

func TestEvalExpr(t *testing.T) {
	// The PLT's CFA: rsp+8 + ((rip&15) >= 11) << 3.
	expr := []byte{0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22}
	for _, tt := range []struct{ rip, want uint64 }{{0x1030, 0x1008}, {0x103b, 0x1010}} {
		var regs Regs
		regs.Set(RegRSP, 0x1000)
		regs.Set(RegRIP, tt.rip)
		got, err := evalExpr(expr, nil, &regs, nil, binary.LittleEndian, 8)
		if err != nil || got != tt.want {
			t.Errorf("rip %#x: %#x, %v; want %#x", tt.rip, got, err, tt.want)
		}
	}
	// A loop: DW_OP_skip -3 back onto itself.
	if _, err := evalExpr([]byte{0x2f, 0xfd, 0xff}, nil, &Regs{}, nil, binary.LittleEndian, 8); !errors.Is(err, errExprLoop) {
		t.Errorf("loop: %v", err)
	}
}

// TestDebugFile: a stripped binary built without .eh_frame for its own
// code finds that code's FDEs in its separate debug file's .debug_frame,
// the same ones the unstripped binary has.
func TestDebugFile(t *testing.T) {
	open := func(name string) *elf.File { return fixture.OpenELF(t, fixture.ELF(t, "cfi/"+name)) }
	full, err := Load(open("c-debugframe"), nil)
	if err != nil {
		t.Fatal(err)
	}
	stripped, err := Load(open("c-debugframe-stripped"), nil)
	if err != nil {
		t.Fatal(err)
	}
	split, err := Load(open("c-debugframe-stripped"), open("c-debugframe.debug"))
	if err != nil {
		t.Fatal(err)
	}
	if len(split.Errors()) > 0 {
		t.Fatal(split.Errors())
	}
	var fromDebugFrame int
	for _, f := range full.fdes {
		if f.Section() != ".debug_frame" {
			continue
		}
		fromDebugFrame++
		if _, ok := stripped.FDEFor(f.Begin); ok {
			t.Errorf("stripped binary alone covers %#x", f.Begin)
		}
		got, ok := split.FDEFor(f.Begin)
		if !ok || got.Begin != f.Begin || got.End != f.End || got.Section() != ".debug_frame" {
			t.Errorf("with its debug file, FDEFor(%#x) = %v, %v; want [%#x, %#x) from .debug_frame", f.Begin, got, ok, f.Begin, f.End)
			continue
		}
		want, _ := f.RowAt(f.End - 1)
		row, err := split.RowAt(f.End - 1)
		if err != nil || cfaString(row.CFA, regNamesX8664[:]) != cfaString(want.CFA, regNamesX8664[:]) {
			t.Errorf("RowAt(%#x) = %v, %v; want CFA %s", f.End-1, row, err, cfaString(want.CFA, regNamesX8664[:]))
		}
	}
	if fromDebugFrame < 3 {
		t.Fatalf("only %d .debug_frame FDEs in c-debugframe", fromDebugFrame)
	}
}

// TestStepRules: every kind of register rule, through a synthetic FDE.
func TestStepRules(t *testing.T) {
	fde := []byte{
		0x0c, 0x06, 0x10, // DW_CFA_def_cfa rbp, 16
		0x83, 0x02, // DW_CFA_offset rbx, cfa-16
		0x14, 0x0c, 0x03, // DW_CFA_val_offset r12, cfa-24
		0x09, 0x0d, 0x00, // DW_CFA_register r13 in rax
		0x08, 0x0e, // DW_CFA_same_value r14
		0x07, 0x0f, // DW_CFA_undefined r15
		0x10, 0x01, 0x02, 0x38, 0x1c, // DW_CFA_expression rdx: cfa 8 minus
		0x16, 0x02, 0x04, 0x76, 0x00, 0x31, 0x22, // DW_CFA_val_expression rcx: breg6 0, lit1, plus
	}
	tab := tableOf(rawSection(ehFrame(t0CIE, fde), true))
	tab.machine = elf.EM_X86_64
	var regs Regs
	for n := uint64(0); n < NumRegs; n++ {
		regs.Set(n, 0x100+n)
	}
	regs.Set(RegRIP, 0x2000)
	regs.Set(RegRBP, 0x7000)
	cfa := uint64(0x7010)
	mem := mapMem{cfa - 8: 0x4444, cfa - 16: 0xbbbb}
	caller, err := tab.Step(regs, 0, mem)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]uint64{
		RegRIP: 0x4444, RegRSP: cfa, RegRBX: 0xbbbb, 12: cfa - 24, 13: 0x100, 14: 0x10e,
		RegRDX: 0x4444, RegRCX: 0x7001, RegRSI: 0x104, RegRBP: 0x7000,
	}
	for reg, w := range want {
		if got, ok := caller.Get(reg); !ok || got != w {
			t.Errorf("caller %s = %#x (known %v), want %#x", RegName(reg), got, ok, w)
		}
	}
	if _, ok := caller.Get(15); ok {
		t.Error("r15 (undefined) is known")
	}
	tab.machine = elf.EM_386
	if _, err := tab.Step(regs, 0, mem); err == nil {
		t.Error("Step on i386 CFI: no error")
	}
}

// TestCFARegisterAfterExpression: DW_CFA_def_cfa_register after an
// expression CFA goes back to the register with the offset in force before
// the expression, as libgcc, gdb and readelf do (gcc's epilogues in
// libgcrypt rely on it).
func TestCFARegisterAfterExpression(t *testing.T) {
	fde := []byte{
		0x0e, 0x38, // DW_CFA_def_cfa_offset 56
		0x41,                                     // advance 1
		0x0f, 0x05, 0x77, 0x98, 0x04, 0x06, 0x96, // DW_CFA_def_cfa_expression breg7 536; deref; nop
		0x41,       // advance 1
		0x0d, 0x07, // DW_CFA_def_cfa_register rsp
	}
	tab := tableOf(rawSection(ehFrame(t0CIE, fde), true))
	for pc, want := range map[uint64]string{0x2000: "rsp+56", 0x2001: "exp", 0x2002: "rsp+56"} {
		row, err := tab.RowAt(pc)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfaString(row.CFA, regNamesX8664[:]); got != want {
			t.Errorf("CFA at %#x = %s, want %s", pc, got, want)
		}
	}
}
