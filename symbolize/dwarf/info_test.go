package dwarf

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// TestSkipValues: stepping over a DIE's values by its skip plan ends
// where reading them with readAttr ends, and gives up wherever readAttr
// fails (random forms and bytes, both byte orders and offset sizes).
func TestSkipValues(t *testing.T) {
	forms := []uint32{FormAddr, FormData1, FormData2, FormData4, FormData8, FormData16, FormUdata, FormSdata,
		FormString, FormStrp, FormLineStrp, FormStrx, FormStrx1, FormStrx3, FormAddrx, FormAddrx2, FormRefUdata,
		FormRef4, FormRefAddr, FormSecOffset, FormExprloc, FormBlock, FormBlock1, FormBlock2, FormBlock4,
		FormFlagPresent, FormImplicitConst, FormRnglistx, FormLoclistx, FormRefSig8, FormGNUStrIndex, FormIndirect, 0x7f}
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 20000; iter++ {
		h := &Header{version: 2 + r.Intn(4), addrSize: []int{4, 8}[r.Intn(2)], dwarf64: r.Intn(4) == 0}
		attrs := make([]attrSpec, 1+r.Intn(6))
		for i := range attrs {
			attrs[i] = attrSpec{form: forms[r.Intn(len(forms))]}
		}
		data := make([]byte, r.Intn(40))
		for i := range data {
			// Small bytes, so lengths and strings end inside the data
			// as often as not.
			data[i] = byte(r.Intn(4))
			if r.Intn(3) == 0 {
				data[i] = byte(r.Intn(256))
			}
		}
		bo := binary.ByteOrder(binary.LittleEndian)
		if r.Intn(2) == 0 {
			bo = binary.BigEndian
		}
		plan := skipPlan(attrs, h)
		if plan == nil {
			continue
		}
		b := dwarfbuf.NewReader(".debug_info", 0, data, bo)
		for _, s := range attrs {
			readAttr(&b, s.form, s.implicit, h)
		}
		end, ok := skipValues(plan, data, 0, bo == binary.BigEndian)
		if b.Err() == nil && (!ok || end != b.Pos()) {
			t.Fatalf("%+v over % x: readAttr ends at %d, the plan at %d (ok %v)", attrs, data, b.Pos(), end, ok)
		}
		if b.Err() != nil && ok {
			t.Fatalf("%+v over % x: readAttr fails (%v), the plan ends at %d", attrs, data, b.Err(), end)
		}
	}
}

// TestParseAbbrevsOnly: a unit's root read through its table's one entry
// (gcc lists a root's code near the end): the entries before it are
// stepped over unbuilt, those after it are not read, so a table cut off
// after the root's entry still serves the root, which a whole read
// rejects.
func TestParseAbbrevsOnly(t *testing.T) {
	sec := []byte{
		1, byte(TagSubprogram), 0, // code 1, DW_TAG_subprogram, no children
		byte(AttrName), byte(FormString), byte(AttrDeclLine), byte(FormImplicitConst), 7, 0, 0,
		2, byte(TagCompileUnit), 1, // code 2, DW_TAG_compile_unit, children
		byte(AttrName), byte(FormString), 0, 0,
		3, byte(TagVariable), 0, // code 3, its attributes cut off
		byte(AttrLowpc),
	}
	h := &Header{version: 5, addrSize: 8}
	if _, err := parseAbbrevs(sec, h, binary.LittleEndian, 0); err == nil {
		t.Fatal("the whole cut-off table parsed")
	}
	tab, err := parseAbbrevs(sec, h, binary.LittleEndian, 2)
	if err != nil {
		t.Fatalf("only code 2: %v", err)
	}
	a := tab.get(2)
	if a == nil || a.tag != TagCompileUnit || !a.children || len(a.attrs) != 1 || a.attrs[0].attr != AttrName {
		t.Fatalf("code 2: %+v", a)
	}
	if tab.get(1) != nil || tab.get(3) != nil {
		t.Error("codes other than 2 served from a table read for code 2")
	}
	if tab, err := parseAbbrevs(sec, h, binary.LittleEndian, 1); err != nil || tab.get(1) == nil || tab.get(1).attrs[1].implicit != 7 {
		t.Errorf("only code 1: %v", err)
	}
}
