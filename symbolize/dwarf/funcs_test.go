package dwarf

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"unsafe"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// TestChainWideInlineRange: an inlined call's range of 4 GiB or more
// (longer than a sealed inlineRange's 32-bit size) still contains every
// address up to its end, and one byte shorter than the wide mark is
// stored in the 32 bits: chain answers as for any other range.
func TestChainWideInlineRange(t *testing.T) {
	const base = 0x1000
	fi := &FuncIndex{
		dies: make([]Subroutine, 5),
		offs: []uint32{0, 1, 2, 3, 4},
		// One function (DIE 0) over 16 GiB.
		begins: []uint64{base},
		addrs:  []funcRange{{end: base + 1<<34, fn: 0, die: 0}},
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
		if got := fi.Chain(c.pc, nil); !slices.Equal(got, c.want) {
			t.Errorf("chain(0x%x) = %v, want %v", c.pc, got, c.want)
		}
	}
}

// TestUnitRef: the 32-bit name of a declaration's unit that a name cache
// keeps leads back to the same unit, and a unit outside the Data's lists
// is reported as not nameable rather than named as another.
func TestUnitRef(t *testing.T) {
	dw := openData(t, fx.ELF(t, "go-trimpath"))
	if len(dw.Units()) < 2 {
		t.Fatalf("fixture has %d units, want several", len(dw.Units()))
	}
	for i, u := range append([]*Unit{nil}, dw.Units()...) {
		ref, ok := dw.UnitRef(u)
		if !ok || dw.UnitOfRef(ref) != u {
			t.Errorf("unit %d: UnitRef = %d, %v; back to a different unit", i-1, ref, ok)
		}
	}
	foreign := &Unit{h: dw.Units()[1].h}
	if ref, ok := dw.UnitRef(foreign); ok {
		t.Errorf("a unit not in the Data named %d", ref)
	}
}

// TestUpperBound checks the search that scans its last elements against
// sort.Search, over sorted arrays of every length up to 40 and one of
// 1,000, with runs of equal starts, at every address around them.
func TestUpperBound(t *testing.T) {
	for n := range 42 {
		if n == 41 {
			n = 1000
		}
		var begins []uint64
		begin := uint64(100)
		for i := 0; i < n; i++ {
			begins = append(begins, begin)
			if i%3 != 0 {
				begin += uint64(1 + i%4)
			}
		}
		for pc := uint64(98); pc <= begin+1; pc++ {
			want := sort.Search(n, func(i int) bool { return begins[i] > pc })
			if got := upperBound(begins, pc); got != want {
				t.Fatalf("n %d: upperBound(%d) = %d, want %d", n, pc, got, want)
			}
		}
	}
}

// TestCompactSizes: the records a function index keeps one of per
// function or inlined call's range, or per DIE, for a whole session stay
// at the sizes their layout was chosen for (on 64-bit platforms); a field
// added or widened shows here.
func TestCompactSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"funcRange", unsafe.Sizeof(funcRange{}), 16}, // and its begin, in FuncIndex.begins
		{"inlineRange", unsafe.Sizeof(inlineRange{}), 8},
		{"Subroutine", unsafe.Sizeof(Subroutine{}), 72},
		{"callRow", unsafe.Sizeof(callRow{}), 40}, // and its offset, in FuncIndex.offs
		{"subRow", unsafe.Sizeof(subRow{}), 56},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.what, c.got, c.want)
		}
	}
}

// TestEntries: a unit's DIEs read one by one (Entries) are its root and
// the DIEs below it (WalkChildren from the root, with the depth handed
// down), in the same order; Entry reads any one of them again alike.
func TestEntries(t *testing.T) {
	dw := openData(t, fx.ELF(t, "cxx-O2-dw5"))
	all := func(uint32) bool { return true }
	for _, u := range dw.Units() {
		var flat []uint64
		if err := dw.Entries(u, all, func(e *Entry) { flat = append(flat, e.Offset) }); err != nil {
			t.Fatal(err)
		}
		root, ok := dw.Entry(u.RootOffset())
		if !ok || root.Tag() != TagCompileUnit || len(flat) == 0 || flat[0] != root.Offset {
			t.Fatalf("unit at 0x%x: root %+v (%v), first of Entries %v", u.Offset(), root, ok, flat[:min(1, len(flat))])
		}
		walked := []uint64{root.Offset}
		err := WalkChildren(dw, &root, all, 1, func(e *Entry, depth int) int {
			walked = append(walked, e.Offset)
			if again, ok := dw.Entry(e.Offset); !ok || again.Tag() != e.Tag() || again.Children() != e.Children() {
				t.Fatalf("DIE at 0x%x read again: %v", e.Offset, ok)
			}
			return depth + 1
		})
		if err != nil || !slices.Equal(walked, flat) {
			t.Fatalf("unit at 0x%x: %d DIEs walked (%v), %d read one by one", u.Offset(), len(walked), err, len(flat))
		}
	}
}

// TestPackedDIEs: a sealed index's DIEs, packed by kind, are the
// Subroutines the DIEs' bytes decode to on their own (Data.Subroutine
// from no index), and IndexOf finds each by its offset, on C, C++ and Go
// fixtures; a DIE that does not fit its kind's row keeps its unit's DIEs
// whole.
func TestPackedDIEs(t *testing.T) {
	for _, name := range []string{"c-O2-dw5-pie", "cxx-O2-dw5", "cxx-O2-clang-dw4", "stl-O1-dw5-pie", "go-trimpath"} {
		dw := openData(t, fx.ELF(t, name))
		packed, dies := 0, 0
		for _, u := range dw.Units() {
			fi, err := dw.Functions(u)
			if err != nil || fi == nil {
				continue
			}
			if fi.dies == nil {
				packed++
			}
			for id := range int32(fi.Len()) {
				dies++
				want, ok := dw.Subroutine(nil, fi.Offset(id))
				if got := fi.DIE(id); !ok || got != want {
					t.Fatalf("%s: DIE at 0x%x: index has %+v, its bytes %+v (%v)", name, fi.Offset(id), got, want, ok)
				}
				if back, ok := fi.IndexOf(fi.Offset(id)); !ok || back != id {
					t.Fatalf("%s: DIE %d at 0x%x: IndexOf gives %d, %v", name, id, fi.Offset(id), back, ok)
				}
			}
		}
		if packed == 0 || dies == 0 {
			t.Errorf("%s: %d units packed, %d DIEs", name, packed, dies)
		}
	}

	inlined := Subroutine{Name: NoStr, Linkage: NoStr, Origin: 0x40, LowPC: 0x1000, HasLowPC: true, DeclFile: -1, DeclLine: -1,
		CallFile: 3, CallLine: 7, CallColumn: 9, Discriminator: 2, Inlined: true, flags: dieRangesIndexed}
	sub := Subroutine{Name: 5, Linkage: 9, Spec: 0x30, DeclFile: 1, DeclLine: 12, CallFile: -1, flags: dieDeclFileImplicit}
	named := inlined
	named.Name = 5
	called := sub
	called.CallLine = 4
	for _, c := range []struct {
		d    Subroutine
		fits bool
	}{{inlined, true}, {sub, true}, {named, false}, {called, false}} {
		if fitsRow(&c.d) != c.fits {
			t.Errorf("fitsRow(%+v) = %v, want %v", c.d, !c.fits, c.fits)
		}
		fi := &FuncIndex{dies: []Subroutine{c.d}, offs: []uint32{0}}
		fi.store([]int32{0}, []bool{true}, 1)
		if (fi.dies == nil) != c.fits {
			t.Errorf("%+v: packed %v, want %v", c.d, fi.dies == nil, c.fits)
		}
		if got := fi.DIE(0); got != c.d {
			t.Errorf("stored %+v, got back %+v", c.d, got)
		}
	}
}

// TestFunctionsKeepReferences: every abstract origin and specification a
// kept DIE refers to within its unit is in the unit's index, as a fresh
// decoding of that DIE reads it. decodeFunctions steps over the
// subprograms that cannot be code and decodes only those referred to
// (prune); a lookup that missed one would still name it by decoding it
// alone, so only this test sees such a loss.
func TestFunctionsKeepReferences(t *testing.T) {
	for _, name := range []string{"cxx-O2-dw5", "cxx-O2-clang-dw4", "stl-O3-dw5-pie", "stl-O2-dw4-static", "rust-v0-O"} {
		dw := openData(t, fx.ELF(t, name))
		refs := 0
		for _, u := range dw.Units() {
			fi, err := dw.Functions(u)
			if err != nil {
				t.Fatalf("%s: unit at 0x%x: %v", name, u.h.off, err)
			}
			for id := range int32(fi.Len()) {
				d := fi.DIE(id)
				for _, ref := range []uint64{d.Origin, d.Spec} {
					if ref == 0 || ref < u.h.off || ref >= u.h.end {
						continue // none, or in another unit: read when needed
					}
					refs++
					i, ok := fi.IndexOf(ref)
					if !ok {
						t.Fatalf("%s: DIE 0x%x refers to 0x%x, which the index does not hold", name, fi.Offset(id), ref)
					}
					want, ok := dw.Subroutine(nil, ref)
					if got := fi.DIE(i); !ok || got != want {
						t.Fatalf("%s: DIE 0x%x in the index: %+v, decoded alone: %+v", name, ref, got, want)
					}
				}
			}
		}
		if refs == 0 {
			t.Errorf("%s: no references within a unit: the test proves nothing", name)
		}
	}
}

// TestSortByBegin holds sortByBegin to SortStableFunc by begin: runs of a
// few ascending ranges (an ASan unit's DIE order), ties, a single range,
// and ranges more than 4 GiB apart (SortStableFunc itself).
func TestSortByBegin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s sortScratch
	for n := 1; n < 300; n++ {
		for _, spread := range []uint64{4, 1 << 12, 1 << 33} {
			rs := make([]addrRange, n)
			for i := range rs {
				rs[i] = addrRange{begin: 0x400000 + r.Uint64N(spread), die: int32(i), depth: 1}
				if i > 0 && r.IntN(4) != 0 {
					rs[i].begin = rs[i-1].begin + r.Uint64N(8) // an ascending run, ties too
				}
				rs[i].end = rs[i].begin + 1
			}
			want := slices.Clone(rs)
			slices.SortStableFunc(want, func(x, y addrRange) int { return cmp.Compare(x.begin, y.begin) })
			sortByBegin(rs, &s)
			if !slices.Equal(rs, want) {
				t.Fatalf("n=%d spread=%#x: sortByBegin differs from a stable sort:\n got %v\nwant %v", n, spread, rs, want)
			}
		}
	}
}
