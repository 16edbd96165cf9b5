package symbolize

import (
	"encoding/binary"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// originChain returns an object whose DWARF is one unit of n subprogram
// DIEs, and the unit's function index: DIE 0 a function (with an address
// range), each but the last with the next as its abstract origin, DIE
// root with DW_AT_decl_file 1 and DIE line with DW_AT_decl_line line (-1:
// none; no names: nothing here reads a string). The index holds the n
// DIEs in order.
func originChain(t *testing.T, n, root, line int) (*Object, *dwarf.FuncIndex) {
	t.Helper()
	abbrev := []byte{1, dwarf.TagCompileUnit, 1, 0, 0} // code 1: the unit, with children
	size := make([]int, n)
	for i := range n {
		code := byte(i + 2) // n stays below 126: one-byte codes
		abbrev = append(abbrev, code, dwarf.TagSubprogram, 0)
		size[i] = 1
		if i == 0 {
			abbrev = append(abbrev, dwarf.AttrLowpc, dwarf.FormAddr, dwarf.AttrHighpc, dwarf.FormData4)
			size[i] += 12
		}
		if i+1 < n {
			abbrev = append(abbrev, dwarf.AttrAbstractOrigin, dwarf.FormRef4)
			size[i] += 4
		}
		if i == root {
			abbrev = append(abbrev, dwarf.AttrDeclFile, dwarf.FormData1)
			size[i]++
		}
		if i == line {
			abbrev = append(abbrev, dwarf.AttrDeclLine, dwarf.FormData1)
			size[i]++
		}
		abbrev = append(abbrev, 0, 0)
	}
	abbrev = append(abbrev, 0)
	const first = 12 // a DWARF 4 unit header (11 bytes), the unit's DIE (1)
	offs := make([]uint32, n+1)
	offs[0] = first
	for i := range n {
		offs[i+1] = offs[i] + uint32(size[i])
	}
	info := binary.LittleEndian.AppendUint32(nil, offs[n]+1-4) // the unit's length: all but this field
	info = binary.LittleEndian.AppendUint16(info, 4)
	info = binary.LittleEndian.AppendUint32(info, 0) // abbreviations at 0
	info = append(info, 8, 1)
	for i := range n {
		info = append(info, byte(i+2))
		if i == 0 {
			info = binary.LittleEndian.AppendUint64(info, 0x1000)
			info = binary.LittleEndian.AppendUint32(info, 0x10)
		}
		if i+1 < n {
			info = binary.LittleEndian.AppendUint32(info, offs[i+1])
		}
		if i == root {
			info = append(info, 1)
		}
		if i == line {
			info = append(info, byte(line))
		}
	}
	info = append(info, 0) // the end of the unit's children
	o, damage := objectOf(dwarf.Sections{Info: info, Abbrev: abbrev}, "chain")
	if len(damage) > 0 || o.dw == nil || len(o.dw.Units()) != 1 {
		t.Fatalf("the chain's DWARF does not read: %v", damage)
	}
	fi, err := o.dw.Functions(o.dw.Units()[0])
	if err != nil || fi.Len() != n {
		t.Fatalf("the chain's index: %v, %d DIEs of %d", err, fi.Len(), n)
	}
	for i := range n {
		if fi.Offset(int32(i)) != uint64(offs[i]) {
			t.Fatalf("DIE %d at 0x%x, want 0x%x", i, fi.Offset(int32(i)), offs[i])
		}
	}
	return o, fi
}

// TestDescribeSharesOrigin: a DIE whose only naming attribute is its
// abstract origin shares the cache entry of the DIE those references
// lead to, and is described on its own when the walk's bound would cut
// the two walks at different DIEs (they then differ): the chain of
// references and the walk from where it ends together are one DIE longer
// than the bound.
func TestDescribeSharesOrigin(t *testing.T) {
	opts := LookupOptions{Functions: FunctionsNone}
	shared := func(fi *dwarf.FuncIndex, a, b int) bool {
		slots := nameSlots(fi)
		return slots[a].Load() == slots[b].Load()
	}
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
		o, fi := originChain(t, c.n, c.root, c.line)
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
	o, fi := originChain(t, maxWalkSteps+1, 2, maxWalkSteps)
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
			{Policy: GNU240, Demangle: true},
			{Functions: FunctionsNone},
		} {
			k, _ := cacheKey(opts)
			for _, u := range o.dw.Units() {
				fi, _ := o.dw.Functions(u)
				if fi == nil {
					continue
				}
				for id := range int32(fi.Len()) {
					n, name, du := o.describeDIE(fi, id, opts)
					di := fi.DIE(id)
					own := o.describeNew(fi, &di, fi.Offset(id), k, opts)
					if own == nil {
						continue
					}
					if _, _, ok := originRoot(fi, &di); ok {
						sharedDIEs++
					}
					if name != own.name || n.declFile != own.declFile || n.declLine != own.declLine ||
						n.flags&namedDeclFileImplicit != own.flags&namedDeclFileImplicit || du != o.dw.UnitOfRef(own.declUnit) {
						t.Errorf("%s: DIE at 0x%x: described as %q %+v, on its own %+v", fixture, fi.Offset(id), name, *n, *own)
					}
				}
			}
		}
		if sharedDIEs == 0 {
			t.Errorf("%s: no DIE shares an entry", fixture)
		}
	}
}
