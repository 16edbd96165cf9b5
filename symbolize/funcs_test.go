package symbolize

import (
	"slices"
	"sort"
	"sync/atomic"
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

// originChain returns a unit index of n DIEs at offsets 0x10, 0x20, ...:
// each but the last has the next as its abstract origin, DIE root has
// DW_AT_decl_file 1 and DIE line DW_AT_decl_line line (no names: nothing
// here reads a string). -1: none.
func originChain(n, root, line int) *funcIndex {
	fi := &funcIndex{base: 0}
	for i := 0; i < n; i++ {
		off := uint64(0x10 * (i + 1))
		di := dieInfo{name: noStr, linkage: noStr, declFile: -1, declLine: -1, callFile: -1}
		if i+1 < n {
			di.origin = uint64(0x10 * (i + 2))
		}
		if i == root {
			di.declFile = 1
		}
		if i == line {
			di.declLine = int32(line)
		}
		fi.dies = append(fi.dies, di)
		fi.offs = append(fi.offs, uint32(off))
	}
	fi.named = make([]atomic.Pointer[named], n)
	return fi
}

// TestDescribeSharesOrigin: a DIE whose only naming attribute is its
// abstract origin shares the cache entry of the DIE those references
// lead to, and is described on its own when the walk's bound would cut
// the two walks at different DIEs (they then differ): the chain of
// references and the walk from where it ends together are one DIE longer
// than the bound.
func TestDescribeSharesOrigin(t *testing.T) {
	o := &Object{}
	opts := LookupOptions{Functions: FunctionsNone}
	shared := func(fi *funcIndex, a, b int) bool { return fi.named[a].Load() == fi.named[b].Load() }
	for _, c := range []struct {
		n, root, line int
		// first is described first (-1: none); then describing DIE 0
		// gives line want and the entry of DIE share (-1: its own).
		first, want, share int
	}{
		{n: 3, root: -1, line: 2, first: -1, want: 2, share: 2},
		{n: 3, root: -1, line: 2, first: 1, want: 2, share: 2},
		{n: 3, root: 1, line: 2, first: -1, want: 2, share: 1},
		// The walk from DIE 0 stops one DIE before the line; the chain of
		// references ends at the line's DIE (depth maxWalkSteps) or at DIE
		// 2 (depth 2, whose walk reaches the line: 31 DIEs).
		{n: maxWalkSteps + 1, root: -1, line: maxWalkSteps, first: -1, want: -1, share: -1},
		{n: maxWalkSteps + 1, root: -1, line: maxWalkSteps, first: 1, want: -1, share: -1},
		{n: maxWalkSteps + 1, root: 2, line: maxWalkSteps, first: -1, want: -1, share: -1},
		{n: maxWalkSteps + 1, root: 2, line: maxWalkSteps, first: 1, want: -1, share: -1},
		{n: maxWalkSteps + 8, root: 2, line: maxWalkSteps, first: 1, want: -1, share: -1},
		// One DIE shorter: DIE 0's walk reaches the line.
		{n: maxWalkSteps, root: 2, line: maxWalkSteps - 1, first: 1, want: maxWalkSteps - 1, share: 2},
	} {
		fi := originChain(c.n, c.root, c.line)
		if c.first >= 0 {
			o.describeDIE(fi, int32(c.first), opts)
		}
		n, _, _ := o.describeDIE(fi, 0, opts)
		if int(n.declLine) != c.want {
			t.Errorf("%+v: line %d, want %d", c, n.declLine, c.want)
		}
		if c.share >= 0 && !shared(fi, 0, c.share) {
			t.Errorf("%+v: DIE 0 does not share with DIE %d", c, c.share)
		}
		for i := 1; i < c.n && c.share < 0; i++ {
			if shared(fi, 0, i) {
				t.Errorf("%+v: DIE 0 shares with DIE %d", c, i)
			}
		}
	}
	// When DIE 1 was described first, it shares where it can (its chain
	// is one shorter).
	fi := originChain(maxWalkSteps+1, 2, maxWalkSteps)
	n, _, _ := o.describeDIE(fi, 1, opts)
	if n.declLine != maxWalkSteps || !shared(fi, 1, 2) {
		t.Errorf("DIE 1 of %d: line %d, shares with DIE 2: %v", maxWalkSteps+1, n.declLine, shared(fi, 1, 2))
	}
}

// TestDescribeSharedMatchesOwn: on real C++, Rust and Go units, every
// DIE described through a shared entry, or through an entry of another
// naming key when names are not wanted, shows what resolving it on its
// own shows.
func TestDescribeSharedMatchesOwn(t *testing.T) {
	for _, fixture := range []string{"stl-O3-dw5-pie", "cxx-O2-dw5", "rust-v0-O", "go-trimpath"} {
		o := openObject(t, fx.ELF(t, fixture), noDebugDirs())
		sharedDIEs := 0
		// Without names first and last: any entry serves, and none
		// gives its name.
		for _, opts := range []LookupOptions{
			{Functions: FunctionsNone},
			{Demangle: true},
			{Functions: FunctionsShort},
			{Style: StyleGNU, Demangle: true},
			{Functions: FunctionsNone},
		} {
			k, _ := cacheKey(opts)
			for _, u := range o.units.units {
				fi, _ := o.functions(u)
				if fi == nil {
					continue
				}
				for id := range fi.dies {
					n, name, du := o.describeDIE(fi, int32(id), opts)
					own := o.describeNew(fi, &fi.dies[id], fi.dieOff(int32(id)), k, opts)
					if own == nil {
						continue
					}
					if _, _, ok := fi.originRoot(&fi.dies[id]); ok {
						sharedDIEs++
					}
					if name != own.name || n.declFile != own.declFile || n.declLine != own.declLine ||
						n.flags&namedDeclFileImplicit != own.flags&namedDeclFileImplicit || du != o.unitOfRef(own.declUnit) {
						t.Errorf("%s: DIE at 0x%x: described as %q %+v, on its own %+v", fixture, fi.dieOff(int32(id)), name, *n, *own)
					}
				}
			}
		}
		if sharedDIEs == 0 {
			t.Errorf("%s: no DIE shares an entry", fixture)
		}
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
