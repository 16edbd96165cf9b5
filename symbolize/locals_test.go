package symbolize

import (
	"testing"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// The expected values follow llvm 14's getExpressionFrameOffset: checked on
// binaries against llvm-symbolizer 14 (a DW_OP_breg7 location answers 16
// when the frame base is DW_OP_reg7, ?? with DW_OP_breg6).
func TestExprFrameOffset(t *testing.T) {
	tests := []struct {
		name   string
		expr   []byte
		fbReg  int
		want   int64
		wantOK bool
	}{
		{"fbreg", []byte{opFbreg, 0x7c}, -1, -4, true},
		{"fbreg deref", []byte{opFbreg, 0x10, opDeref}, -1, 16, true},
		{"fbreg stack value", []byte{opFbreg, 0x10, 0x9f}, -1, 0, false},
		{"breg of frame base", []byte{opBreg0 + 7, 0x10}, 7, 16, true},
		{"other breg", []byte{opBreg0 + 6, 0x10}, 7, 0, false},
		{"breg without register frame base", []byte{opBreg0 + 7, 0x10}, -1, 0, false},
		{"truncated", []byte{opFbreg, 0x80}, -1, 0, false},
		{"empty", nil, -1, 0, false},
		{"addr", []byte{0x03, 1, 2, 3, 4, 5, 6, 7, 8}, -1, 0, false},
	}
	for _, tc := range tests {
		got, ok := exprFrameOffset(tc.expr, tc.fbReg)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: exprFrameOffset(% x, %d) = %d, %v; want %d, %v", tc.name, tc.expr, tc.fbReg, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestSignedConst(t *testing.T) {
	tests := []struct {
		bits   uint64
		signed bool
		form   uint32
		want   int64
		wantOK bool
	}{
		{0xff, false, dwarf.FormData1, -1, true},
		{0xffff, false, dwarf.FormData2, -1, true},
		{9, false, dwarf.FormData4, 9, true},
		{1 << 63, false, dwarf.FormUdata, 0, false},
		{uint64(1<<64 - 2), true, dwarf.FormSdata, -2, true},
	}
	for _, tc := range tests {
		got, ok := constAsSigned(tc.bits, tc.signed, tc.form)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("constAsSigned(0x%x, %v, 0x%x) = %d, %v; want %d, %v", tc.bits, tc.signed, tc.form, got, ok, tc.want, tc.wantOK)
		}
	}
	if _, ok := signedConst(dwarf.Value{}, dwarf.FormExprloc); ok {
		t.Error("a value that is no constant read as one")
	}
}

func FuzzExprFrameOffset(f *testing.F) {
	f.Add([]byte{opFbreg, 0x7c}, 7)
	f.Add([]byte{opBreg0 + 7, 0x10, opDeref}, 7)
	f.Fuzz(func(t *testing.T, e []byte, reg int) {
		exprFrameOffset(e, reg%40-1)
	})
}
