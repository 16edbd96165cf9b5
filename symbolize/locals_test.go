package symbolize

import "testing"

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
		v      attrVal
		form   uint32
		want   int64
		wantOK bool
	}{
		{attrVal{kind: valConst, v: 0xff}, formData1, -1, true},
		{attrVal{kind: valConst, v: 0xffff}, formData2, -1, true},
		{attrVal{kind: valConst, v: 9}, formData4, 9, true},
		{attrVal{kind: valConst, v: 1 << 63}, formUdata, 0, false},
		{attrVal{kind: valSigned, v: uint64(1<<64 - 2)}, formSdata, -2, true},
		{attrVal{kind: valBlock}, formExprloc, 0, false},
	}
	for _, tc := range tests {
		got, ok := signedConst(tc.v, tc.form)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("signedConst(%+v, 0x%x) = %d, %v; want %d, %v", tc.v, tc.form, got, ok, tc.want, tc.wantOK)
		}
	}
}

func FuzzExprFrameOffset(f *testing.F) {
	f.Add([]byte{opFbreg, 0x7c}, 7)
	f.Add([]byte{opBreg0 + 7, 0x10, opDeref}, 7)
	f.Fuzz(func(t *testing.T, e []byte, reg int) {
		exprFrameOffset(e, reg%40-1)
	})
}
