package symbolize

import (
	"slices"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// TestChainWideInlineRange: an inlined call's range of 4 GiB or more
// (longer than a sealed inlineRange's 32-bit size) still contains every
// address up to its end, and one byte shorter than the wide mark is
// stored in the 32 bits: chain answers as for any other range.
func TestChainWideInlineRange(t *testing.T) {
	const base = 0x1000
	fi := &funcIndex{
		dies: make([]dieInfo, 5),
		offs: []uint32{0, 1, 2, 3, 4},
		// One function (DIE 0) over 16 GiB.
		addrs: []addrRange{{begin: base, end: base + 1<<34, die: 0, depth: 0}},
		funcs: []function{{inlines: []addrRange{
			{begin: base, end: base + 1<<33, die: 1, depth: 1},         // 8 GiB: wide
			{begin: base + 0x100, end: base + 0x200, die: 2, depth: 2}, // inside it
			{begin: base + 1<<33, end: base + 1<<33 + wideSize, die: 3, depth: 1},
			{begin: base + 1<<33 + wideSize, end: base + 1<<33 + wideSize + wideSize - 1, die: 4, depth: 1},
		}}},
	}
	fi.seal()
	if len(fi.wideSizes) != 2 {
		t.Errorf("%d wide sizes recorded, want 2 (8 GiB and exactly wideSize)", len(fi.wideSizes))
	}
	for _, c := range []struct {
		pc   uint64
		want []int32
	}{
		{base, []int32{1, 0}},
		{base + 0x180, []int32{2, 1, 0}},
		{base + 1<<32 + 5, []int32{1, 0}}, // past any 32-bit size
		{base + 1<<33 - 1, []int32{1, 0}},
		{base + 1<<33, []int32{3, 0}},
		{base + 1<<33 + wideSize - 1, []int32{3, 0}},
		{base + 1<<33 + wideSize, []int32{4, 0}},
		{base + 1<<33 + 2*wideSize - 2, []int32{4, 0}},
		{base + 1<<33 + 2*wideSize - 1, []int32{0}},
		{base + 1<<34, nil},
	} {
		if got := fi.chain(c.pc, nil); !slices.Equal(got, c.want) {
			t.Errorf("chain(0x%x) = %v, want %v", c.pc, got, c.want)
		}
	}
}

// TestUnitRef: the 32-bit name of a declaration's unit that the named
// cache keeps leads back to the same unit, and a unit outside the object's
// lists is reported as not nameable (describeDIE then leaves the DIE
// uncached) rather than named as another.
func TestUnitRef(t *testing.T) {
	o := openObject(t, fx.ELF(t, "go-trimpath"), noDebugDirs())
	if len(o.units.units) < 2 {
		t.Fatalf("fixture has %d units, want several", len(o.units.units))
	}
	for i, u := range append([]*unit{nil}, o.units.units...) {
		ref, ok := o.unitRef(u)
		if !ok || o.unitOfRef(ref) != u {
			t.Errorf("unit %d: unitRef = %d, %v; back to a different unit", i-1, ref, ok)
		}
	}
	foreign := &unit{h: o.units.units[1].h}
	if ref, ok := o.unitRef(foreign); ok {
		t.Errorf("a unit not in the object named %d", ref)
	}
}
