package symbolize

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// TestSkipValues: stepping over a DIE's values by its skip plan ends
// where reading them with readAttr ends, and gives up wherever readAttr
// fails (random forms and bytes, both byte orders and offset sizes).
func TestSkipValues(t *testing.T) {
	forms := []uint32{formAddr, formData1, formData2, formData4, formData8, formData16, formUdata, formSdata,
		formString, formStrp, formLineStrp, formStrx, formStrx1, formStrx3, formAddrx, formAddrx2, formRefUdata,
		formRef4, formRefAddr, formSecOffset, formExprloc, formBlock, formBlock1, formBlock2, formBlock4,
		formFlagPresent, formImplicitConst, formRnglistx, formLoclistx, formRefSig8, formGNUStrIndex, formIndirect, 0x7f}
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 20000; iter++ {
		h := &cuHeader{version: 2 + r.Intn(4), addrSize: []int{4, 8}[r.Intn(2)], dwarf64: r.Intn(4) == 0}
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

// TestSortSymbols: sortSymbols orders a table as a stable sort by
// (address, size) does, on tables with many aliases and equal sizes.
func TestSortSymbols(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for iter := 0; iter < 500; iter++ {
		n := r.Intn(300)
		if iter%5 == 0 {
			n = 256 + r.Intn(3000)
		}
		syms, addrs := make([]symbol, n), make([]uint64, n)
		for i := range syms {
			addrs[i] = uint64(r.Intn(1 + n/4))
			syms[i] = symbol{size: uint64(r.Intn(3)), name: fmt.Sprint("s", i), order: int32(i)}
			if iter%3 == 0 {
				// Addresses and sizes of every magnitude.
				addrs[i], syms[i].size = r.Uint64()>>uint(r.Intn(64)), r.Uint64()>>uint(r.Intn(64))
				if r.Intn(4) == 0 && i > 0 {
					addrs[i] = addrs[i-1]
				}
			}
		}
		want := make([]symAt, n)
		for i := range syms {
			want[i] = symAt{&symbol{size: syms[i].size, name: syms[i].name}, addrs[i]}
		}
		slices.SortStableFunc(want, func(a, b symAt) int {
			if c := cmp.Compare(a.addr, b.addr); c != 0 {
				return c
			}
			return cmp.Compare(a.size, b.size)
		})
		sortSymbols(syms, addrs)
		for i := range want {
			if syms[i].name != want[i].name || addrs[i] != want[i].addr {
				t.Fatalf("%d symbols: sorted differently", n)
			}
		}
	}
}
