package dwarf

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync/atomic"
)

// A Subroutine is what naming a frame and building it need from a
// subprogram or inlined-subroutine DIE: its naming attributes, where it
// was called from and where it starts. Names stay references into the
// string sections until a frame prints them. Its offset is in the
// FuncIndex (Offset), not here: a big C++ unit keeps tens of thousands.
type Subroutine struct {
	Name, Linkage      StrRef // NoStr when absent; may name an empty string
	Spec, Origin       uint64 // DW_AT_specification, DW_AT_abstract_origin (.debug_info offsets); 0 when absent
	LowPC              uint64
	DeclFile, DeclLine int32 // -1 when absent
	CallFile           int32 // -1 when absent
	CallLine           int32
	CallColumn         int32
	Discriminator      int32
	HasLowPC           bool
	Inlined            bool
	flags              uint8 // dieDeclFileImplicit, dieRangesIndexed
}

// The forms of a Subroutine's attributes that readers of DWARF are known
// to take differently.
const (
	// dieDeclFileImplicit: DW_AT_decl_file is DW_FORM_implicit_const (gcc 12
	// emits it in DWARF 5 for abbreviations shared by DIEs of one file).
	dieDeclFileImplicit uint8 = 1 << iota
	// dieRangesIndexed: DW_AT_ranges is DW_FORM_rnglistx, an index into
	// the unit's range-list offsets rather than a section offset.
	dieRangesIndexed
)

// DeclFileImplicit reports whether DW_AT_decl_file is
// DW_FORM_implicit_const: a value of the abbreviation, not of the DIE.
func (s Subroutine) DeclFileImplicit() bool { return s.flags&dieDeclFileImplicit != 0 }

// RangesIndexed reports whether DW_AT_ranges is DW_FORM_rnglistx.
func (s Subroutine) RangesIndexed() bool { return s.flags&dieRangesIndexed != 0 }

// addrRange maps [begin,end) to a DIE (an index into FuncIndex.dies) at a
// given inline depth: an inlined call while its unit is indexed.
type addrRange struct {
	begin, end uint64
	die        int32
	depth      int32
}

// funcRange is an address range of a concrete function in FuncIndex.addrs:
// it ends at end and begins at the same index of FuncIndex.begins. The
// begins stand apart (struct of arrays) so that the searches of the
// function and inline ranges and of the symbols are one (upperBound) over
// a dense []uint64, which also spares the search a cache line per step.
type funcRange struct {
	end uint64
	fn  int32 // index into FuncIndex.spans (funcs while indexing)
	die int32 // the function's DIE
}

// inlineRange is an inlined call's address range in a sealed index:
// [begin, begin+size) for the DIE fi.dies[die], its begin at the same
// index of FuncIndex.inlineBegins (see funcRange); its depth is where it
// lies in FuncIndex.inlines (see funcSpan). 8 bytes with its begin apart,
// not addrRange's 24: a big unit has hundreds of thousands. A range of
// wideSize bytes or more (4 GiB: none in practice) has size wideSize and
// its length in FuncIndex.wideSizes, under its index in FuncIndex.inlines.
type inlineRange struct {
	size uint32
	die  int32
}

const wideSize = 1<<32 - 1

// function is a concrete subprogram while its unit is indexed: its
// inlined calls in DIE order. seal turns it into a funcSpan.
type function struct {
	inlines []addrRange
}

// funcSpan is a concrete subprogram of an indexed unit: its inlined calls
// are FuncIndex.inlines[inl:inl+nInl], sorted by (depth, begin) so that
// each depth can be binary searched (gimli's layout), and
// FuncIndex.depths[dep:dep+nDep] says where each depth starts (entry d-1:
// the first index of depth d, relative to inl). Offsets into shared
// arrays rather than two slices per function: a big C++ unit has tens of
// thousands of functions, and the index then holds no pointers that every
// garbage collection would mark again.
type funcSpan struct {
	inl, nInl uint32
	dep, nDep uint32
}

// A FuncIndex is one unit's functions and their inlined calls, their
// ranges sorted by begin address for Chain, and the Subroutine DIEs they
// name, by index (in section order, or packed: the subprograms in section
// order, then the inlined calls; so a DIE offset is found by binary
// search: IndexOf).
type FuncIndex struct {
	h    *Header // the unit's header: DIEs outside the index are read through it
	base uint64  // offset of the unit: offs are relative to it
	offs []uint32
	// The DIEs: in dies while indexing, and then either packed (see
	// packedDIEs; dies nil) or, when one of them does not fit its kind's
	// row, still in dies.
	dies   []Subroutine
	packed packedDIEs
	funcs  []function // while indexing only; seal moves them to spans
	spans  []funcSpan // by function index
	// The functions' ranges: begins[i] is where addrs[i] begins.
	begins []uint64
	addrs  []funcRange
	// sorted: addrs is sorted by begin (not after a decoding error,
	// where chain searches them exactly as before, with sort.Search).
	sorted      bool
	beginsIndex AddrIndex // over begins, once sorted

	inlines      []inlineRange     // every function's inlined calls, see funcSpan
	inlineBegins []uint64          // where each of inlines begins
	depths       []int32           // every function's depth starts, see funcSpan
	wideSizes    map[uint32]uint64 // see inlineRange; nil when there are none

	// Memo is the caller's: what it derives from the index's DIEs (by
	// index: symbolize keeps their printed names there), set once with
	// CompareAndSwap and shared by concurrent lookups. Nothing here reads
	// it.
	Memo atomic.Value
}

// Len returns the number of DIEs in the index.
func (fi *FuncIndex) Len() int { return len(fi.offs) }

// DIE returns the Subroutine with index id.
func (fi *FuncIndex) DIE(id int32) Subroutine {
	if fi.dies != nil {
		return fi.dies[id]
	}
	return fi.packed.die(id)
}

// Offset returns the .debug_info offset of the DIE with index id.
func (fi *FuncIndex) Offset(id int32) uint64 { return fi.dieOff(id) }

// IndexOf returns the index of the DIE at off, if the index holds it.
func (fi *FuncIndex) IndexOf(off uint64) (int32, bool) {
	i, ok := fi.byOff(off)
	return int32(i), ok
}

// InDWO reports whether the index is of a split unit's DIEs in a .dwo
// (whose references stay within that unit).
func (fi *FuncIndex) InDWO() bool { return fi.h != nil && fi.h.dwo != nil }

// dieOff returns the section offset of the DIE fi.dies[id].
func (fi *FuncIndex) dieOff(id int32) uint64 { return fi.base + uint64(fi.offs[id]) }

// byOff returns the index of the DIE at off, if the unit indexed it.
func (fi *FuncIndex) byOff(off uint64) (int, bool) {
	if off < fi.base || off-fi.base > 1<<32-1 {
		return 0, false
	}
	rel := uint32(off - fi.base)
	// A packed index numbers its subprograms first (packedDIEs): two
	// sorted runs of offsets.
	split := len(fi.packed.subs)
	if i, ok := slices.BinarySearch(fi.offs[:split], rel); ok {
		return i, true
	}
	i, ok := slices.BinarySearch(fi.offs[split:], rel)
	return split + i, ok
}

func isFuncTag(tag uint32) bool { return tag == TagSubprogram || tag == TagInlinedSubroutine }

// decodeFunctions walks the DIE tree of the unit with header h (one of the
// object's own or a split unit in a .dwo) once and indexes its subprograms
// and their inline trees.
func (dw *Data) decodeFunctions(h *Header) (fi *FuncIndex, err error) {
	// DIE offsets are kept relative to the unit, in 32 bits.
	if h.end-h.off > 1<<32-1 {
		return nil, fmt.Errorf("%s: unit at 0x%x: larger than 4 GiB", dw.path, h.off)
	}
	// Sized from the unit: C++ units average one subprogram or inlined
	// DIE per ~50 bytes, so growing from empty would copy the table a dozen
	// times. prune reallocates it to its exact size.
	est := (h.end-h.off)/48 + 16
	fi = &FuncIndex{h: h, base: h.off, dies: make([]Subroutine, 0, est), offs: make([]uint32, 0, est)}
	r, err := dw.newDIEReader(h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dw.path, err)
	}
	_, root, _ := r.next(nil)
	if r.b.Err() != nil || root == nil {
		return nil, fmt.Errorf("%s: unit at 0x%x: %v", dw.path, h.off, r.b.Err())
	}
	if !root.children {
		return fi, nil
	}
	// The state handed down the tree: which function (or -1) a DIE is in
	// and its inline depth within it.
	type level struct {
		fn, inlineDepth int32
	}
	var rs [][2]uint64
	// A subprogram whose abbreviation has no address attributes is never
	// code: a declaration or an abstract origin, of which prune keeps
	// only those that code refers to (163,000 of 1.37 million in
	// cppcheck's test runner, 51,000 of 167,000 in cpp-heavy). It is
	// stepped over by size and noted in deferred, and decoded there if
	// referred to.
	code := func(a *abbrev) bool { return isFuncTag(a.tag) && a.hasRanges }
	var deferred []uint32
	err = walkSubtree(r, code, level{fn: -1}, func(off uint64, a *abbrev, cur level) level {
		if !isFuncTag(a.tag) {
			return cur
		}
		if !a.hasRanges {
			deferred = append(deferred, uint32(off-fi.base))
			return cur
		}
		di, low, high, ranges := dw.readDieInfo(h, a, r.vals)
		id := int32(len(fi.dies))
		fi.dies = append(fi.dies, di)
		fi.offs = append(fi.offs, uint32(off-fi.base))
		rs = dw.dieRanges(h, low, high, ranges, rs[:0])
		if len(rs) == 0 {
			return cur
		}
		if a.tag == TagSubprogram || cur.fn < 0 {
			// A concrete function (an inlined subroutine outside any
			// function is treated as one too).
			fnIdx := int32(len(fi.funcs))
			fi.funcs = append(fi.funcs, function{})
			fi.addFunc(rs, fnIdx, id)
			return level{fn: fnIdx, inlineDepth: 0}
		}
		d := cur.inlineDepth + 1
		f := &fi.funcs[cur.fn]
		for _, rg := range rs {
			f.inlines = append(f.inlines, addrRange{begin: rg[0], end: rg[1], die: id, depth: d})
		}
		return level{fn: cur.fn, inlineDepth: d}
	})
	if err != nil {
		// The functions decoded so far are used, without their inline
		// trees.
		fi.spans, fi.funcs = make([]funcSpan, len(fi.funcs)), nil
		return fi, fmt.Errorf("%s: unit at 0x%x: %w", dw.path, h.off, err)
	}
	fi.prune(deferred, func(off uint64) (Subroutine, bool) {
		r.seek(off)
		_, a, _ := r.next(decodeAll)
		if a == nil || r.b.Err() != nil {
			return Subroutine{}, false
		}
		di, _, _, _ := dw.readDieInfo(h, a, r.vals)
		return di, true
	})
	fi.begins, fi.addrs = slices.Clone(fi.begins), slices.Clone(fi.addrs)
	fi.sortAddrs()
	fi.seal()
	return fi, nil
}

// seal sorts every function's inlined calls into fi.inlines and fi.depths
// and drops the per-function slices the DIE walk built.
func (fi *FuncIndex) seal() {
	n := 0
	for i := range fi.funcs {
		n += len(fi.funcs[i].inlines)
	}
	fi.inlines = make([]inlineRange, 0, n)
	fi.inlineBegins = make([]uint64, 0, n)
	fi.spans = make([]funcSpan, len(fi.funcs))
	var s sortScratch
	for i := range fi.funcs {
		fi.spans[i] = fi.sortInlines(fi.funcs[i].inlines, &s)
	}
	fi.depths = slices.Clip(fi.depths)
	fi.funcs = nil
}

// sortScratch is sortInlines's working space, reused across functions.
type sortScratch struct {
	start, next []int32
	sorted      []addrRange
	keys        []uint64    // sortByBegin's
	copied      []addrRange // sortByBegin's
}

// sortInlines appends the inlined calls ins, ordered by (depth, begin)
// stably, to fi.inlines and where each depth starts to fi.depths, and
// returns their span. The calls come in DIE order: by address within a
// depth in most units, where a stable bucketing by depth is enough and a
// depth is sorted only when it is not already; in runs of about four in
// the units of an ASan build (cppcheck-asan: 80,000 of its functions, 3.2
// million ranges), whose sort is sortByBegin's.
func (fi *FuncIndex) sortInlines(ins []addrRange, s *sortScratch) funcSpan {
	sp := funcSpan{inl: uint32(len(fi.inlines)), nInl: uint32(len(ins)), dep: uint32(len(fi.depths))}
	if len(ins) == 0 {
		return sp
	}
	maxDepth := int32(0)
	for _, in := range ins {
		maxDepth = max(maxDepth, in.depth)
	}
	start := append(s.start[:0], make([]int32, maxDepth+1)...) // start[d-1] = first index of depth d
	for _, in := range ins {
		if in.depth < maxDepth {
			start[in.depth]++
		}
	}
	for d := 1; d <= int(maxDepth); d++ {
		start[d] += start[d-1]
	}
	sorted := slices.Grow(s.sorted[:0], len(ins))[:len(ins)]
	next := append(s.next[:0], start...)
	for _, in := range ins {
		sorted[next[in.depth-1]] = in
		next[in.depth-1]++
	}
	for d := 0; d < int(maxDepth); d++ {
		lo, hi := start[d], int32(len(sorted))
		if d+1 < int(maxDepth) {
			hi = start[d+1]
		}
		grp := sorted[lo:hi]
		if !slices.IsSortedFunc(grp, byBegin) {
			sortByBegin(grp, s)
		}
	}
	for _, in := range sorted {
		size := in.end - in.begin // > 0: dieRanges keeps non-empty ranges
		if size >= wideSize {
			if fi.wideSizes == nil {
				fi.wideSizes = map[uint32]uint64{}
			}
			fi.wideSizes[uint32(len(fi.inlines))] = size
			size = wideSize
		}
		fi.inlines = append(fi.inlines, inlineRange{size: uint32(size), die: in.die})
		fi.inlineBegins = append(fi.inlineBegins, in.begin)
	}
	fi.depths = append(fi.depths, start[:maxDepth]...)
	sp.nDep = uint32(maxDepth)
	s.start, s.next, s.sorted = start, next, sorted
	return sp
}

// byBegin orders inlined calls' ranges by their start.
func byBegin(x, y addrRange) int { return cmp.Compare(x.begin, y.begin) }

// sortByBegin sorts rs by begin, stably. Each range becomes one word,
// its begin (less the least begin of rs) above its place in rs, and the
// words are sorted as numbers: no comparison function is called, and the
// place breaks ties as a stable sort would. (SortStableFunc on the ranges
// was a tenth of cppcheck-asan's W1.) Ranges more than 4 GiB apart, which
// no function's inlined calls are, take SortStableFunc.
func sortByBegin(rs []addrRange, s *sortScratch) {
	least, most := rs[0].begin, rs[0].begin
	for _, r := range rs {
		least, most = min(least, r.begin), max(most, r.begin)
	}
	if most-least > math.MaxUint32 || len(rs) > math.MaxUint32 {
		slices.SortStableFunc(rs, byBegin)
		return
	}
	keys := s.keys[:0]
	for i, r := range rs {
		keys = append(keys, (r.begin-least)<<32|uint64(i))
	}
	slices.Sort(keys)
	copied := append(s.copied[:0], rs...)
	for i, k := range keys {
		rs[i] = copied[uint32(k)]
	}
	s.keys, s.copied = keys, copied
}

// wideHolds reports whether the inlined call fi.inlines[i], whose size
// is wideSize, contains the address d bytes past its start.
func (fi *FuncIndex) wideHolds(i uint32, d uint64) bool {
	return d < fi.wideSizes[i]
}

// prune drops the DIEs no lookup can reach: declarations (most member
// functions of a C++ class are never defined in a given unit) that are
// neither code nor the abstract origin or specification of a DIE that is.
// A big C++ unit loses about 40% of its DIEs. The rest are stored in
// their final form (store). deferred are the offsets, relative to the
// unit and in section order, of the DIEs the walk stepped over; those
// referred to are decoded by decodeAt.
func (fi *FuncIndex) prune(deferred []uint32, decodeAt func(off uint64) (Subroutine, bool)) {
	walked := len(fi.dies)
	keep := make([]bool, walked)
	work := make([]int32, 0, len(fi.addrs))
	mark := func(id int32) {
		if !keep[id] {
			keep[id] = true
			work = append(work, id)
		}
	}
	// The deferred DIEs decoded: late[j] is the index in fi.dies of
	// deferred[j], plus one (0: not decoded). They follow the walked ones
	// in fi.dies, in the order they were reached.
	late := make([]int32, len(deferred))
	// References land anywhere in the unit: the offsets are searched
	// through bucket indexes (a big unit's are megabytes, cold).
	walkedOffs := fi.offs[:walked]
	walkedIndex, deferredIndex := newBucketIndex(walkedOffs), newBucketIndex(deferred)
	find := func(ref uint64) (int32, bool) {
		if ref < fi.base || ref-fi.base > 1<<32-1 {
			return 0, false
		}
		rel := uint32(ref - fi.base)
		if i := walkedIndex.UpperBound(walkedOffs, rel); i > 0 && walkedOffs[i-1] == rel {
			return int32(i - 1), true
		}
		j := deferredIndex.UpperBound(deferred, rel) - 1
		if j < 0 || deferred[j] != rel {
			return 0, false
		}
		if late[j] > 0 {
			return late[j] - 1, true
		}
		d, ok := decodeAt(ref)
		if !ok {
			return 0, false
		}
		id := int32(len(fi.dies))
		fi.dies = append(fi.dies, d)
		fi.offs = append(fi.offs, rel)
		keep = append(keep, false)
		late[j] = id + 1
		return id, true
	}
	for _, a := range fi.addrs {
		mark(a.die)
	}
	for _, f := range fi.funcs {
		for _, in := range f.inlines {
			mark(in.die)
		}
	}
	for len(work) > 0 {
		d := fi.dies[work[len(work)-1]]
		work = work[:len(work)-1]
		for _, ref := range [2]uint64{d.Origin, d.Spec} {
			if ref == 0 {
				continue
			}
			if i, ok := find(ref); ok {
				mark(i)
			}
		}
	}
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	// store takes the DIEs in section order: the walked ones and the
	// decoded deferred ones each are in it, and are merged.
	order := make([]int32, 0, len(fi.dies))
	w := int32(0)
	for _, id := range late {
		if id == 0 {
			continue
		}
		for ; w < int32(walked) && fi.offs[w] < fi.offs[id-1]; w++ {
			order = append(order, w)
		}
		order = append(order, id-1)
	}
	for ; w < int32(walked); w++ {
		order = append(order, w)
	}
	newID := fi.store(order, keep, n)
	for i := range fi.addrs {
		fi.addrs[i].die = newID[fi.addrs[i].die]
	}
	for _, f := range fi.funcs {
		for i := range f.inlines {
			f.inlines[i].die = newID[f.inlines[i].die]
		}
	}
}

// store replaces the DIEs being indexed by those keep marks, n of them,
// taken in order (section order), and returns the new index of each (-1:
// dropped). They are packed when every one fits its kind's row, the
// subprograms numbered first and the inlined calls after them, each kind
// in section order; else they stay Subroutines in section order, in a
// slice cut to size.
func (fi *FuncIndex) store(order []int32, keep []bool, n int) []int32 {
	newID := make([]int32, len(fi.dies))
	calls, fits := 0, true
	for i := range fi.dies {
		newID[i] = -1
		if d := &fi.dies[i]; keep[i] {
			if d.Inlined {
				calls++
			}
			if fits = fitsRow(d); !fits {
				break
			}
		}
	}
	offs := make([]uint32, n)
	if !fits {
		dies := make([]Subroutine, 0, n)
		for _, i := range order {
			newID[i] = -1
			if keep[i] {
				newID[i] = int32(len(dies))
				offs[len(dies)] = fi.offs[i]
				dies = append(dies, fi.dies[i])
			}
		}
		fi.dies, fi.offs = dies, offs
		return newID
	}
	p := packedDIEs{calls: make([]callRow, 0, calls), subs: make([]subRow, 0, n-calls)}
	for _, i := range order {
		if !keep[i] {
			continue
		}
		id := p.add(&fi.dies[i], n-calls)
		newID[i] = id
		offs[id] = fi.offs[i]
	}
	fi.dies, fi.offs, fi.packed = nil, offs, p
	return newID
}

// packedDIEs is a sealed FuncIndex's DIEs in two tables by kind: an
// inlined call's row holds its origin and call site (40 bytes), a
// subprogram's its names, references and declaration (56 bytes), rather
// than every DIE all of a Subroutine's 72. The subprograms have the
// indexes below len(subs), the inlined calls the rest, so the kind follows
// from the index. Five DIEs in six of a big C++ unit are inlined calls, a
// million of them in cppcheck's test runner: a third of that session's
// live heap was Subroutines. A DIE whose attributes do not fit its kind's
// row (a name on an inlined call, a call site on a subprogram: no
// compiler here writes either) keeps its unit in Subroutines (fitsRow).
type packedDIEs struct {
	calls []callRow
	subs  []subRow
}

// callRow is an inlined call's Subroutine (Inlined): no names, no
// specification, no declaration.
type callRow struct {
	origin, lowPC                                 uint64
	callFile, callLine, callColumn, discriminator int32
	flags                                         uint8 // a Subroutine's flags and rowHasLowPC
}

// subRow is a subprogram's Subroutine: no call site.
type subRow struct {
	name, linkage       StrRef
	spec, origin, lowPC uint64
	declFile, declLine  int32
	flags               uint8 // a Subroutine's flags and rowHasLowPC
}

const rowHasLowPC uint8 = 1 << 7

// fitsRow reports whether d is exactly what its kind's row gives back
// (die): the fields the row leaves out hold what readDieInfo writes when
// their attributes are absent.
func fitsRow(d *Subroutine) bool {
	if d.flags&rowHasLowPC != 0 {
		return false
	}
	if d.Inlined {
		return d.Name == NoStr && d.Linkage == NoStr && d.Spec == 0 && d.DeclFile == -1 && d.DeclLine == -1
	}
	return d.CallFile == -1 && d.CallLine == 0 && d.CallColumn == 0 && d.Discriminator == 0
}

// add appends d to its kind's table and returns its index, the inlined
// calls' counted from nSubs, the number of subprograms.
func (p *packedDIEs) add(d *Subroutine, nSubs int) int32 {
	flags := d.flags
	if d.HasLowPC {
		flags |= rowHasLowPC
	}
	if d.Inlined {
		p.calls = append(p.calls, callRow{origin: d.Origin, lowPC: d.LowPC, callFile: d.CallFile, callLine: d.CallLine,
			callColumn: d.CallColumn, discriminator: d.Discriminator, flags: flags})
		return int32(nSubs + len(p.calls) - 1)
	}
	p.subs = append(p.subs, subRow{name: d.Name, linkage: d.Linkage, spec: d.Spec, origin: d.Origin, lowPC: d.LowPC,
		declFile: d.DeclFile, declLine: d.DeclLine, flags: flags})
	return int32(len(p.subs) - 1)
}

// die returns the Subroutine with index id.
func (p *packedDIEs) die(id int32) Subroutine {
	if int(id) >= len(p.subs) {
		c := &p.calls[int(id)-len(p.subs)]
		return Subroutine{Name: NoStr, Linkage: NoStr, Origin: c.origin, LowPC: c.lowPC, DeclFile: -1, DeclLine: -1,
			CallFile: c.callFile, CallLine: c.callLine, CallColumn: c.callColumn, Discriminator: c.discriminator,
			HasLowPC: c.flags&rowHasLowPC != 0, Inlined: true, flags: c.flags &^ rowHasLowPC}
	}
	s := &p.subs[id]
	return Subroutine{Name: s.name, Linkage: s.linkage, Spec: s.spec, Origin: s.origin, LowPC: s.lowPC,
		DeclFile: s.declFile, DeclLine: s.declLine, CallFile: -1,
		HasLowPC: s.flags&rowHasLowPC != 0, flags: s.flags &^ rowHasLowPC}
}

// Functions returns u's function index, decoding it on first use. After
// an error the functions decoded before it are there, without their
// inlined calls.
func (dw *Data) Functions(u *Unit) (*FuncIndex, error) {
	u.funcsOnce.Do(func() {
		u.funcs, u.funcsErr = dw.indexFunctions(&u.h)
		u.funcsDone.Store(true)
	})
	return u.funcs, u.funcsErr
}

// indexFunctions decodes the function index of the unit with header h and
// readies it for lookups.
func (dw *Data) indexFunctions(h *Header) (*FuncIndex, error) {
	fi, err := dw.decodeFunctions(h)
	// The unit's DIEs are indexed: its raw bytes are needed again only
	// for a rare cross-unit reference, so they need not stay resident.
	dw.secOf(h).releaseInfo(h.off, h.end)
	return fi, err
}

// Chain returns the DIE indices of the subroutines containing pc,
// innermost first, the concrete function last; nil when no function
// contains pc. They are appended to dst[:0], so a caller's buffer spares
// the allocation.
func (fi *FuncIndex) Chain(pc uint64, dst []int32) []int32 {
	var i int
	if fi.sorted {
		i = fi.beginsIndex.UpperBound(fi.begins, pc)
	} else {
		i = sort.Search(len(fi.begins), func(i int) bool { return fi.begins[i] > pc })
	}
	var fn *funcRange
	// The last function starting at or below pc that contains it; nested or
	// overlapping functions are rare, so a short backward scan suffices.
	for j := i - 1; j >= 0 && j >= i-64; j-- {
		if pc < fi.addrs[j].end {
			fn = &fi.addrs[j]
			break
		}
	}
	if fn == nil {
		return nil
	}
	sp := fi.spans[fn.fn]
	inlines := fi.inlines[sp.inl : sp.inl+sp.nInl]
	begins := fi.inlineBegins[sp.inl : sp.inl+sp.nInl]
	byDepth := fi.depths[sp.dep : sp.dep+sp.nDep]
	out := append(dst[:0], fn.die)
	for d := range byDepth {
		lo := int(byDepth[d])
		hi := len(inlines)
		if d+1 < len(byDepth) {
			hi = int(byDepth[d+1])
		}
		rs, bs := inlines[lo:hi], begins[lo:hi]
		k := upperBound(bs, pc)
		found := false
		// Ranges at one depth don't overlap in well-formed DWARF; check the
		// nearest few in case they do.
		for m := k - 1; m >= 0 && m >= k-8; m-- {
			// rs[m] starts at or below pc.
			if d := pc - bs[m]; d < uint64(rs[m].size) || rs[m].size == wideSize && fi.wideHolds(sp.inl+uint32(lo+m), d) {
				out = append(out, rs[m].die)
				found = true
				break
			}
		}
		if !found {
			break
		}
	}
	// innermost first
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// addFunc adds the ranges rs of the function fn, whose DIE is die, to
// fi.addrs.
func (fi *FuncIndex) addFunc(rs [][2]uint64, fn, die int32) {
	for _, rg := range rs {
		fi.begins = append(fi.begins, rg[0])
		fi.addrs = append(fi.addrs, funcRange{end: rg[1], fn: fn, die: die})
	}
}

// sortAddrs sorts fi.addrs (and fi.begins with them) by begin, stably:
// they are most often in DIE order already, which the sort would keep,
// so a check comes first.
func (fi *FuncIndex) sortAddrs() {
	if !slices.IsSorted(fi.begins) {
		sort.Stable(funcsByBegin{fi.begins, fi.addrs})
	}
	fi.sorted = true
	fi.beginsIndex = NewAddrIndex(fi.begins)
}

// funcsByBegin sorts a unit's function ranges by begin, moving both of
// its arrays in place.
type funcsByBegin struct {
	begins []uint64
	addrs  []funcRange
}

func (s funcsByBegin) Len() int           { return len(s.begins) }
func (s funcsByBegin) Less(i, j int) bool { return s.begins[i] < s.begins[j] }
func (s funcsByBegin) Swap(i, j int) {
	s.begins[i], s.begins[j] = s.begins[j], s.begins[i]
	s.addrs[i], s.addrs[j] = s.addrs[j], s.addrs[i]
}
