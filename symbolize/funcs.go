package symbolize

import (
	"debug/dwarf"
	"fmt"
	"sort"
)

// dieInfo is what naming and frame building need from a subprogram or
// inlined-subroutine DIE.
type dieInfo struct {
	off                dwarf.Offset
	name, linkage      string
	spec, origin       dwarf.Offset // 0 when absent
	declFile, declLine int64        // -1 when absent
	callFile           int64        // -1 when absent
	callLine, callCol  int64
	discr              int64
	lowPC              uint64
	hasLowPC           bool
	inlined            bool
}

// addrRange maps [begin,end) to a DIE (an index into funcIndex.dies) at a
// given inline depth (0 for the subprogram itself).
type addrRange struct {
	begin, end uint64
	die        int32
	depth      int32
}

// function is a concrete subprogram: its inlined calls sorted by
// (depth, begin), so each depth can be binary searched (gimli's layout).
type function struct {
	inlines []addrRange
	byDepth []int32 // byDepth[d-1] = first index in inlines with depth d
}

// funcIndex is one unit's functions, sorted by begin address.
type funcIndex struct {
	dies  []dieInfo
	byOff map[dwarf.Offset]int32
	funcs []function
	addrs []addrRange // die = function index here
}

// decodeFunctions walks u's DIE tree once and indexes its subprograms and
// their inline trees.
func (o *Object) decodeFunctions(u *unit) (fi *funcIndex, err error) {
	defer func() {
		if p := recover(); p != nil {
			fi, err = nil, fmt.Errorf("%s: DIEs of unit at 0x%x: panic: %v", o.debugPath, u.off, p)
		}
	}()
	fi = &funcIndex{byOff: make(map[dwarf.Offset]int32)}
	r := o.dw.Reader()
	r.Seek(u.off)
	root, err := r.Next()
	if err != nil || root == nil {
		return nil, fmt.Errorf("%s: unit at 0x%x: %v", o.debugPath, u.off, err)
	}
	if !root.Children {
		return fi, nil
	}
	// stack[i] is the DIE state at tree depth i+1: which function (or -1) and
	// the inline depth within it.
	type level struct {
		fn, inlineDepth int32
	}
	stack := []level{{fn: -1}}
	for len(stack) > 0 {
		e, err := r.Next()
		if err != nil {
			return fi, fmt.Errorf("%s: unit at 0x%x: %w", o.debugPath, u.off, err)
		}
		if e == nil {
			break
		}
		if e.Tag == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		cur := stack[len(stack)-1]
		next := cur
		switch e.Tag {
		case dwarf.TagSubprogram, dwarf.TagInlinedSubroutine:
			di := readDieInfo(e)
			id := int32(len(fi.dies))
			fi.dies = append(fi.dies, di)
			fi.byOff[e.Offset] = id
			rs := o.dieRanges(e)
			if len(rs) == 0 {
				break
			}
			if e.Tag == dwarf.TagSubprogram || cur.fn < 0 {
				// A concrete function (an inlined subroutine outside any
				// function is treated as one too).
				fnIdx := int32(len(fi.funcs))
				fi.funcs = append(fi.funcs, function{})
				for _, rg := range rs {
					fi.addrs = append(fi.addrs, addrRange{begin: rg[0], end: rg[1], die: fnIdx, depth: id})
				}
				next = level{fn: fnIdx, inlineDepth: 0}
			} else {
				d := cur.inlineDepth + 1
				f := &fi.funcs[cur.fn]
				for _, rg := range rs {
					f.inlines = append(f.inlines, addrRange{begin: rg[0], end: rg[1], die: id, depth: d})
				}
				next = level{fn: cur.fn, inlineDepth: d}
			}
		}
		if e.Children {
			stack = append(stack, next)
		}
	}
	// addrs: depth holds the function's DIE index; sort by begin.
	sort.SliceStable(fi.addrs, func(i, j int) bool { return fi.addrs[i].begin < fi.addrs[j].begin })
	for i := range fi.funcs {
		f := &fi.funcs[i]
		sort.SliceStable(f.inlines, func(a, b int) bool {
			x, y := f.inlines[a], f.inlines[b]
			if x.depth != y.depth {
				return x.depth < y.depth
			}
			return x.begin < y.begin
		})
		for j, in := range f.inlines {
			for int(in.depth) > len(f.byDepth) {
				f.byDepth = append(f.byDepth, int32(j))
			}
		}
	}
	return fi, nil
}

func readDieInfo(e *dwarf.Entry) dieInfo {
	di := dieInfo{off: e.Offset, declFile: -1, declLine: -1, callFile: -1, inlined: e.Tag == dwarf.TagInlinedSubroutine}
	for _, f := range e.Field {
		switch f.Attr {
		case dwarf.AttrName:
			di.name, _ = f.Val.(string)
		case dwarf.AttrLinkageName, attrMIPSLinkageName:
			if s, ok := f.Val.(string); ok {
				di.linkage = s
			}
		case dwarf.AttrSpecification:
			di.spec, _ = f.Val.(dwarf.Offset)
		case dwarf.AttrAbstractOrigin:
			di.origin, _ = f.Val.(dwarf.Offset)
		case dwarf.AttrDeclFile:
			di.declFile = asInt(f.Val, -1)
		case dwarf.AttrDeclLine:
			di.declLine = asInt(f.Val, -1)
		case dwarf.AttrCallFile:
			di.callFile = asInt(f.Val, -1)
		case dwarf.AttrCallLine:
			di.callLine = asInt(f.Val, 0)
		case dwarf.AttrCallColumn:
			di.callCol = asInt(f.Val, 0)
		case attrGNUDiscriminator:
			di.discr = asInt(f.Val, 0)
		case dwarf.AttrLowpc:
			if v, ok := f.Val.(uint64); ok {
				di.lowPC, di.hasLowPC = v, true
			}
		}
	}
	return di
}

const (
	attrMIPSLinkageName  dwarf.Attr = 0x2007
	attrGNUDiscriminator dwarf.Attr = 0x2136
)

func asInt(v any, def int64) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case uint64:
		return int64(x)
	}
	return def
}

// dieRanges returns a DIE's address ranges without re-decoding its unit for
// the common low_pc/high_pc case.
func (o *Object) dieRanges(e *dwarf.Entry) [][2]uint64 {
	low, hasLow := e.Val(dwarf.AttrLowpc).(uint64)
	if hf := e.AttrField(dwarf.AttrHighpc); hf != nil && hasLow {
		var high uint64
		switch hf.Class {
		case dwarf.ClassAddress:
			high, _ = hf.Val.(uint64)
		case dwarf.ClassConstant:
			high = low + uint64(asInt(hf.Val, 0))
		}
		if low < high {
			return [][2]uint64{{low, high}}
		}
		return nil
	}
	if e.AttrField(dwarf.AttrRanges) == nil {
		return nil
	}
	rs, err := o.dw.Ranges(e)
	if err != nil {
		return nil
	}
	out := rs[:0]
	for _, r := range rs {
		if r[0] < r[1] {
			out = append(out, r)
		}
	}
	return out
}

// functions returns u's function index, decoding it on first use.
func (o *Object) functions(u *unit) (*funcIndex, error) {
	u.funcsOnce.Do(func() {
		u.funcs, u.funcsErr = o.decodeFunctions(u)
	})
	return u.funcs, u.funcsErr
}

// chain returns the DIE indices of the subroutines containing pc, innermost
// first, the concrete function last; nil when no function contains pc.
func (fi *funcIndex) chain(pc uint64) []int32 {
	i := sort.Search(len(fi.addrs), func(i int) bool { return fi.addrs[i].begin > pc })
	var fn *addrRange
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
	f := &fi.funcs[fn.die]
	out := []int32{fn.depth}
	for d := range f.byDepth {
		lo := int(f.byDepth[d])
		hi := len(f.inlines)
		if d+1 < len(f.byDepth) {
			hi = int(f.byDepth[d+1])
		}
		rs := f.inlines[lo:hi]
		k := sort.Search(len(rs), func(k int) bool { return rs[k].begin > pc })
		found := false
		// Ranges at one depth don't overlap in well-formed DWARF; check the
		// nearest few in case they do.
		for m := k - 1; m >= 0 && m >= k-8; m-- {
			if pc < rs[m].end {
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

// implicitDeclFile reports whether the DIE at off gives DW_AT_decl_file as an
// implicit constant, which llvm-symbolizer 14 does not read (declform.go).
func (o *Object) implicitDeclFile(off dwarf.Offset) bool {
	if o.sec == nil {
		return false
	}
	o.forms.init(o.sec.info, o.sec.abbrev, o.byteOrder)
	return o.forms.has(off, declFileImplicit)
}

// indexedRanges reports whether the DIE at off gives DW_AT_ranges as
// DW_FORM_rnglistx. binutils 2.40 reads such an index as a section offset
// (read_rangelist), finds no valid list there and so drops the DIE's
// ranges: clang's DWARF 5 inlined subroutines with several ranges vanish
// from addr2line's inline chains.
func (o *Object) indexedRanges(off dwarf.Offset) bool {
	if o.sec == nil {
		return false
	}
	o.forms.init(o.sec.info, o.sec.abbrev, o.byteOrder)
	return o.forms.has(off, rangesIndexed)
}
