package dwarf

// Probe decodes what a lookup of the one address pc in u needs without
// indexing u: a line table that knows only pc's row and a function index
// of the functions containing pc. One address in a fresh process (a
// sanitizer's single frame, a script's addr2line call) should not pay for
// the index of the whole unit around it: SQLite is one 2 MB unit whose
// full index is every function, every inlined call and 300,000 line rows,
// and the answer needs one function's inline tree and one row. So the
// probe runs u's line program without storing rows (lineProbe) and walks
// its DIEs keeping only the functions that contain pc (probeFunctions).
// What it leaves out is read one DIE at a time when asked for
// (Subroutine), as for a reference into another unit.
//
// A probe answers exactly what the full index would, and when it cannot
// be sure of that (a decoding error, a sequence out of address order) it
// gives up (ok false), and the caller uses the full index: a damaged unit
// gets the same answers and errors either way. It gives up at once for a
// skeleton or partial unit, or one indexed already. A line table decoded
// already is used as it is, unless it came with an error (then which DIEs
// the full function index holds decides declaration files).
//
// Probing a unit and indexing it on a later lookup decodes it twice: a
// caller probes only the first few lookups of a session, and none when a
// batch follows.
func (dw *Data) Probe(u *Unit, pc uint64) (lt *LineTable, fi *FuncIndex, ok bool) {
	if u.split != nil || u.partial || u.funcsDone.Load() {
		return nil, nil, false
	}
	switch {
	case u.linesDone.Load():
		if u.linesErr != nil {
			return nil, nil, false
		}
		lt = u.lines
	case u.stmtList >= 0:
		if lt, ok = dw.probeLines(u, pc); !ok {
			return nil, nil, false
		}
	}
	if fi, ok = dw.probeFunctions(&u.h, pc); !ok {
		return nil, nil, false
	}
	return lt, fi, true
}

// probeLines runs u's line program for pc alone (lineProbe); ok is false
// on any error or when the table's answer for pc needs the stored rows.
func (dw *Data) probeLines(u *Unit, pc uint64) (lt *LineTable, ok bool) {
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
func (dw *Data) probeFunctions(h *Header, pc uint64) (fi *FuncIndex, ok bool) {
	if h.end-h.off > 1<<32-1 {
		return nil, false
	}
	fi = &FuncIndex{h: h, base: h.off}
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
			case a.tag == TagInlinedSubroutine && cur.in && cur.holds:
				// In the function holding pc: its inline tree, whole.
				r.attrs(a, true)
				if r.b.Err() != nil {
					return nil, false
				}
				next = dw.probeDIE(fi, h, off, a, r.vals, cur, pc, &rs)
			case a.tag == TagSubprogram || (a.tag == TagInlinedSubroutine && !cur.in):
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
	return fi, true
}

// probeLevel is what probeFunctions hands down the DIE tree, as
// decodeFunctions's level: whether a DIE is inside a function, whether
// that function contains pc (then fn is its index in FuncIndex.funcs),
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
func (dw *Data) probeDIE(fi *FuncIndex, h *Header, off uint64, a *abbrev, vals []Value, cur probeLevel, pc uint64, rs *[][2]uint64) probeLevel {
	di, low, high, ranges := dw.readDieInfo(h, a, vals)
	*rs = dw.dieRanges(h, low, high, ranges, (*rs)[:0])
	if len(*rs) == 0 {
		return cur
	}
	if a.tag == TagSubprogram || !cur.in {
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
func (fi *FuncIndex) add(di Subroutine, off uint64) int32 {
	id := int32(len(fi.dies))
	fi.dies = append(fi.dies, di)
	fi.offs = append(fi.offs, uint32(off-fi.base))
	return id
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
