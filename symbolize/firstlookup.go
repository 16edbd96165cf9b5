package symbolize

import (
	"sync/atomic"
)

// The first lookup in a unit. One address in a fresh process, the sanitizer's single
// frame or a script's addr2line call, should not pay for the index of
// the whole unit around it. SQLite is one 2 MB unit whose full index is
// every function, every inlined call and 300,000 line rows; the answer
// needs one function's inline tree and one row. So the first lookup of
// a unit runs its line program without storing rows (lineProbe) and
// walks its DIEs keeping only the functions that contain the address
// (probeFunctions); the second lookup builds the full index, as before,
// so a batch pays the probe once per unit, and only for the units of its
// first few lookups (maxProbes).
//
// A probe answers exactly what the full index would, and when it cannot
// be sure of that (a decoding error, a sequence out of address order) it
// gives up and the lookup uses the full index: a damaged unit gets the
// same answers and errors either way.

// maxProbes bounds the probes of one object: a batch over a binary of
// many small units (a Go program has hundreds) would otherwise probe
// each unit and then index it on its second lookup, decoding most units
// twice; after the first few lookups, units are indexed at once.
const maxProbes = 8

// probeState is a unit's first-lookup bookkeeping.
type probeState struct {
	// used: a lookup has been answered in the unit (by a probe or not).
	used atomic.Bool
	// linesDone, funcsDone: the full line table / function index is
	// decoded (set inside their sync.Once).
	linesDone, funcsDone atomic.Bool
}

// probeUnit answers the unit part of the first lookup of pc in u without
// indexing u: a line table that knows only pc's row and a function index
// of the functions containing pc. ok is false when the lookup must use
// the full index instead: not u's first lookup, a split or partial unit,
// or a probe that gave up.
func (o *Object) probeUnit(u *unit, pc uint64) (lt *lineTable, fi *funcIndex, ok bool) {
	if u.split != nil || u.partial || u.probe.funcsDone.Load() || !u.probe.used.CompareAndSwap(false, true) {
		return nil, nil, false
	}
	if o.probes.Add(1) > maxProbes {
		return nil, nil, false
	}
	switch {
	case u.probe.linesDone.Load():
		// Decoded already (the unit index needed it): use it, unless it
		// came with an error, where which DIEs the full function index
		// holds decides declaration files (lookup's declUnit).
		if u.linesErr != nil {
			return nil, nil, false
		}
		lt = u.lines
	case u.stmtList >= 0:
		if lt, ok = o.probeLines(u, pc); !ok {
			return nil, nil, false
		}
	}
	if fi, ok = o.probeFunctions(&u.h, pc); !ok {
		return nil, nil, false
	}
	return lt, fi, true
}

// probeLines runs u's line program for pc alone (lineProbe); ok is false
// on any error or when the table's answer for pc needs the stored rows.
func (dw *dwarfData) probeLines(u *unit, pc uint64) (lt *lineTable, ok bool) {
	defer func() {
		if recover() != nil {
			lt, ok = nil, false
		}
	}()
	p := &lineProbe{pc: pc, ok: true}
	in := dw.lineInput(dw.secOf(&u.h), u)
	in.probe = p
	t, err := decodeLineProgram(in)
	if err != nil || t == nil || !p.ok {
		return nil, false
	}
	return t, true
}

// probeFunctions is decodeFunctions for one address: the same walk over
// the unit's DIEs, but only the functions whose ranges contain pc keep
// their DIE and inline tree; every other function keeps only its ranges
// (so that chain picks among the same candidates), and the inlined calls
// inside it are skipped by size without decoding. The DIEs it leaves out
// (abstract origins, declarations) are read one at a time when naming
// needs them (dieAt), as for a reference into another unit. ok is false
// on any decoding error.
func (dw *dwarfData) probeFunctions(h *cuHeader, pc uint64) (fi *funcIndex, ok bool) {
	defer func() {
		if recover() != nil {
			fi, ok = nil, false
		}
	}()
	if h.end-h.off > 1<<32-1 {
		return nil, false
	}
	fi = &funcIndex{h: h, base: h.off}
	r, err := dw.newDIEReader(h)
	if err != nil {
		return nil, false
	}
	_, root, _ := r.next(nil)
	if r.b.Err() != nil || root == nil {
		return nil, false
	}
	if root.children {
		stack := []probeLevel{{}}
		var rs [][2]uint64
		for len(stack) > 0 {
			off, a, done := r.nextAbbrev()
			if a == nil {
				if r.b.Err() != nil {
					return nil, false
				}
				if done {
					break
				}
				stack = stack[:len(stack)-1]
				continue
			}
			cur := stack[len(stack)-1]
			next := cur
			switch {
			case a.tag == tagInlinedSubroutine && cur.in && cur.holds:
				// In the function holding pc: its inline tree, whole.
				r.attrs(a, true)
				if r.b.Err() != nil {
					return nil, false
				}
				next = dw.probeDIE(fi, h, off, a, r.vals, cur, pc, &rs)
			case a.tag == tagSubprogram || (a.tag == tagInlinedSubroutine && !cur.in):
				// Every subprogram is looked at, since one nested in
				// another function is a function of its own; first only
				// its ranges, the rest when they hold pc.
				start := r.b.Pos()
				low, high, ranges := r.rangeVals(a)
				if r.b.Err() != nil {
					return nil, false
				}
				rs = dw.dieRanges(h, low, high, ranges, rs[:0])
				switch {
				case len(rs) == 0:
				case !holds(rs, pc):
					// A function (as in probeDIE) that chain never picks.
					fi.addFunc(rs, -1, -1)
					next = probeLevel{in: true}
				default:
					r.b.Seek(start)
					r.attrs(a, true)
					if r.b.Err() != nil {
						return nil, false
					}
					next = dw.probeDIE(fi, h, off, a, r.vals, cur, pc, &rs)
				}
			default:
				// Anything else, and an inlined call inside a function
				// that does not contain pc (it only adds to that
				// function's inline tree): skipped by size.
				r.attrs(a, false)
				if r.b.Err() != nil {
					return nil, false
				}
			}
			if a.children {
				stack = append(stack, next)
			}
		}
	}
	fi.sortAddrs() // as decodeFunctions
	fi.seal()
	fi.named = make([]atomic.Pointer[named], len(fi.dies))
	return fi, true
}

// probeLevel is what probeFunctions hands down the DIE tree, as
// decodeFunctions's level: whether a DIE is inside a function, whether
// that function contains pc (then fn is its index in funcIndex.funcs),
// and the DIE's inline depth there.
type probeLevel struct {
	in, holds   bool
	fn          int32
	inlineDepth int32
}

// probeDIE records the subprogram or inlined subroutine at off for
// probeFunctions and returns the level of its children. A function (a
// subprogram with ranges, or an inlined call outside any function) gets
// an entry in fi.addrs per range, as in decodeFunctions, with its DIE
// and function only when a range holds pc: -1 otherwise,
// which chain never reaches, since it only picks a function containing
// pc. An inlined call in a function holding pc is kept as decodeFunctions
// keeps it.
func (dw *dwarfData) probeDIE(fi *funcIndex, h *cuHeader, off uint64, a *abbrev, vals []attrVal, cur probeLevel, pc uint64, rs *[][2]uint64) probeLevel {
	di, low, high, ranges := dw.readDieInfo(h, a, vals)
	*rs = dw.dieRanges(h, low, high, ranges, (*rs)[:0])
	if len(*rs) == 0 {
		return cur
	}
	if a.tag == tagSubprogram || !cur.in {
		hit := holds(*rs, pc)
		id, fn := int32(-1), int32(-1)
		if hit {
			id, fn = fi.add(di, off), int32(len(fi.funcs))
			fi.funcs = append(fi.funcs, function{})
		}
		fi.addFunc(*rs, fn, id)
		return probeLevel{in: true, holds: hit, fn: fn}
	}
	id := fi.add(di, off)
	d := cur.inlineDepth + 1
	f := &fi.funcs[cur.fn]
	for _, rg := range *rs {
		f.inlines = append(f.inlines, addrRange{begin: rg[0], end: rg[1], die: id, depth: d})
	}
	cur.inlineDepth = d
	return cur
}

// add appends di, the DIE at off, to fi's DIEs and returns its index.
func (fi *funcIndex) add(di dieInfo, off uint64) int32 {
	id := int32(len(fi.dies))
	fi.dies = append(fi.dies, di)
	fi.offs = append(fi.offs, uint32(off-fi.base))
	return id
}

// ExpectManyLookups tells o that many lookups follow at once (a batch of
// queries, not one address): from now on each unit is indexed on its
// first lookup rather than probed for one address and indexed on its
// second, which would decode it twice. Answers are the same either way.
func (o *Object) ExpectManyLookups() {
	o.probes.Store(maxProbes)
}

// holds reports whether one of rs contains pc.
func holds(rs [][2]uint64, pc uint64) bool {
	for _, rg := range rs {
		if rg[0] <= pc && pc < rg[1] {
			return true
		}
	}
	return false
}
