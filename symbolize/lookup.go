package symbolize

import "github.com/sanitrace/sanitrace/symbolize/dwarf"

// resolved is a DIE's naming attributes after following DW_AT_specification
// and DW_AT_abstract_origin the way llvm's DWARFDie::findRecursively does
// (each attribute independently; the first DIE in the walk that has it wins;
// an empty string counts as absent). The DW_AT_name candidates are kept in
// walk order and checked for emptiness only when a frame needs the short
// name: C++ frames show the linkage name, and reading every DW_AT_name
// would page in much of .debug_str for nothing.
type resolved struct {
	linkage            dwarf.StrRef
	names              [4]dwarf.StrRef // DW_AT_name candidates, in walk order
	nNames             uint8
	moreNames          bool // more than len(names) candidates: rescan
	declFile, declLine int64
	// declFileImplicit: declFile came as DW_FORM_implicit_const, which
	// llvm-symbolizer 14 does not read (see dieDeclFileImplicit).
	declFileImplicit bool
	// declUnit is the unit of the DIE that carries declFile when that is
	// not the unit being searched (an abstract origin in another unit, as
	// Rust emits): the file index is resolved in that unit's line table,
	// as llvm's DWARFDie::getDeclFile does. nil: the searched unit.
	declUnit *dwarf.Unit
}

func (o *Object) resolve(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64) resolved {
	r, _ := o.resolveWalk(fi, di, off)
	return r
}

// resolveWalk is resolve, also returning how many DIEs its walk visited
// when the walk was complete (see walkDIE), else 0.
func (o *Object) resolveWalk(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64) (resolved, int) {
	r := resolved{linkage: dwarf.NoStr, declFile: -1, declLine: -1}
	visited := o.walkDIE(fi, di, off, func(d *dwarf.Subroutine, off uint64) {
		if d.Name != dwarf.NoStr {
			if int(r.nNames) < len(r.names) {
				r.names[r.nNames] = d.Name
				r.nNames++
			} else {
				r.moreNames = true
			}
		}
		if r.linkage == dwarf.NoStr && o.dw.NonEmpty(d.Linkage) {
			r.linkage = d.Linkage
		}
		if r.declFile < 0 && d.DeclFile >= 0 {
			r.declFile = int64(d.DeclFile)
			r.declFileImplicit = d.DeclFileImplicit()
			if fi != nil && !fi.InDWO() {
				if _, local := fi.IndexOf(off); !local {
					r.declUnit = o.dw.UnitOfDIE(off)
				}
			}
		}
		if r.declLine < 0 && d.DeclLine >= 0 {
			r.declLine = int64(d.DeclLine)
		}
	})
	return r, visited
}

// name returns the resolved DW_AT_name of di, the DIE at off: the first
// non-empty candidate.
func (r *resolved) name(o *Object, fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64) dwarf.StrRef {
	for _, n := range r.names[:r.nNames] {
		if o.dw.NonEmpty(n) {
			return n
		}
	}
	if !r.moreNames {
		return dwarf.NoStr
	}
	found := dwarf.NoStr
	_ = o.walkDIE(fi, di, off, func(d *dwarf.Subroutine, _ uint64) {
		if found == dwarf.NoStr && o.dw.NonEmpty(d.Name) {
			found = d.Name
		}
	})
	return found
}

// walkDIE visits di, the DIE at off, and the DIEs its
// DW_AT_abstract_origin and DW_AT_specification lead to, each with its
// offset, in llvm's findRecursively order, at most maxWalkSteps of them.
// It returns how many it visited when that was all it reached (the walk
// was complete), else 0.
func (o *Object) walkDIE(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64, visit func(d *dwarf.Subroutine, off uint64)) int {
	// The walk is short (a concrete DIE, its abstract origin, that one's
	// declaration), so fixed arrays serve as stack and visited set.
	type step struct {
		d   *dwarf.Subroutine
		off uint64
	}
	var workArr [8]step
	var seenArr [33]uint64
	work := append(workArr[:0], step{di, off})
	seen := append(seenArr[:0], off)
	isSeen := func(off uint64) bool {
		for _, s := range seen {
			if s == off {
				return true
			}
		}
		return false
	}
	steps := 0
	for ; len(work) > 0 && steps < maxWalkSteps; steps++ {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		visit(s.d, s.off)
		for _, ref := range [2]uint64{s.d.Origin, s.d.Spec} {
			if ref != 0 && !isSeen(ref) {
				seen = append(seen, ref)
				if n, ok := o.dw.Subroutine(fi, ref); ok {
					work = append(work, step{n, ref})
				}
			}
		}
	}
	if len(work) > 0 {
		return 0
	}
	return steps
}

// maxWalkSteps bounds walkDIE (reference cycles, runaway chains).
const maxWalkSteps = 32

// funcName picks the name a frame shows for di, the DIE at off, under opts.
func (o *Object) funcName(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64, r *resolved, opts LookupOptions) string {
	switch opts.Functions {
	case FunctionsNone:
		return ""
	case FunctionsShort:
		return o.dw.Str(r.name(o, fi, di, off))
	}
	if r.linkage != dwarf.NoStr {
		if opts.Demangle {
			return o.demangleRef(r.linkage, opts.demangleStyle())
		}
		return o.dw.Str(r.linkage)
	}
	return o.dw.Str(r.name(o, fi, di, off))
}

// lookup builds the frames for pc following llvm's
// DWARFContext::getInliningInfoForAddress and
// SymbolizableObjectFile::symbolizeInlinedCode, or the GNU variant.
func (o *Object) lookup(pc uint64, opts LookupOptions) []Frame {
	var frames []Frame
	var u *dwarf.Unit
	if o.dw != nil && !(opts.Style == StyleGNU && o.zdebug) {
		u = o.dw.UnitFor(pc)
		if u == nil && opts.Style == StyleGNU {
			u = o.gnuUnitFor(pc)
		}
	}
	var lt *dwarf.LineTable
	var fi *dwarf.FuncIndex
	var chain []int32
	var chainBuf [16]int32 // deeper chains allocate
	probed := false
	if u != nil && opts.Style == StyleLLVM {
		lt, fi, probed = o.probeUnit(u, pc)
	}
	if u != nil && !probed {
		lt, _ = o.dw.LineTable(u)
		fi, _ = o.dw.Functions(u)
	}
	if u != nil {
		if u.DWOName() != "" && opts.Style == StyleLLVM {
			// Split DWARF: the DIEs are in the unit's .dwo (llvm-symbolizer
			// reads it; binutils 2.40 does not).
			if sfi, _ := o.dw.SplitFunctions(u, o.openSplitUnit); sfi != nil {
				fi = sfi
			}
		}
		if fi != nil {
			chain = fi.Chain(pc, chainBuf[:0])
			if opts.Style == StyleGNU {
				chain = o.gnuChain(chain, fi)
			}
		}
	}
	fileName := func(i int64) string {
		if lt == nil || i < 0 {
			return ""
		}
		s, _ := lt.FileName(uint32(i), pathForm(opts))
		return s
	}
	setLine := func(f *Frame) {
		if lt == nil {
			return
		}
		if row, ok := lt.Lookup(pc); ok {
			if name, ok := lt.FileName(fileIndex(row, opts.Style), pathForm(opts)); ok {
				f.File = name
				f.Line = int(row.Line())
				f.Column = int(row.Column())
				f.Discriminator = int(row.Discriminator())
			}
		}
	}
	// llvm-symbolizer names the outermost frame from the symbol table
	// (below) whenever a symbol holds pc: that frame's name from DWARF is
	// then not needed, and not resolved, copied or demangled (its
	// declaration is cached under the no-names key).
	var sym symAt
	outerOpts := opts
	if opts.Functions == FunctionsLinkage && opts.Style == StyleLLVM && !opts.DWARFNames {
		if s, ok := o.syms.find(pc, nil); ok {
			sym, outerOpts.Functions = s, FunctionsNone
		}
	}
	describe := func(f *Frame, id int32, opts LookupOptions) {
		di := fi.DIE(id)
		r, name, declUnit := o.describeDIE(fi, id, opts)
		f.Function = name
		if r.declLine > 0 {
			f.StartLine = int(r.declLine)
		}
		f.StartFile = fileName(int64(r.declFile))
		if declUnit != nil {
			f.StartFile = ""
			dlt, err := lt, error(nil)
			if declUnit != u || !probed {
				// A probe's fi holds only some of u's DIEs: the others
				// come here with u as declUnit. The probe's lt is then
				// what the full table would give (it exists only for
				// a table decoded without error).
				dlt, err = o.dw.LineTable(declUnit)
			}
			if err == nil && dlt != nil && r.declFile >= 0 {
				f.StartFile, _ = dlt.FileName(uint32(r.declFile), pathForm(opts))
			}
		}
		if opts.Style == StyleLLVM && f.StartFile != "" && r.flags&namedDeclFileImplicit != 0 {
			f.StartFile = ""
		}
		if di.HasLowPC {
			f.StartAddress, f.HasStartAddress = di.LowPC, true
		}
	}
	switch {
	case len(chain) == 0:
		if u != nil {
			var f Frame
			setLine(&f)
			if f.File != "" || !opts.Inlines {
				frames = append(frames, f)
			}
		}
	case !opts.Inlines:
		// getLineInfoForAddress: the innermost subroutine's name and start,
		// the line table's row.
		var f Frame
		describe(&f, chain[0], outerOpts)
		setLine(&f)
		frames = append(frames, f)
	default:
		var callFile, callLine, callCol, discr int64
		// One frame per chain entry: sized once (C++ chains run to a
		// dozen frames, and growing by doubling copied each frame twice).
		frames = make([]Frame, 0, len(chain))
		for i, id := range chain {
			di := fi.DIE(id)
			var f Frame
			if i+1 < len(chain) {
				describe(&f, id, opts)
			} else {
				describe(&f, id, outerOpts)
			}
			if i == 0 {
				setLine(&f)
			} else {
				f.File = fileName(callFile)
				f.Line, f.Column, f.Discriminator = int(callLine), int(callCol), int(discr)
			}
			callFile, callLine, callCol, discr = int64(di.CallFile), int64(di.CallLine), int64(di.CallColumn), int64(di.Discriminator)
			f.Inlined = i+1 < len(chain)
			frames = append(frames, f)
		}
	}
	if len(frames) == 0 {
		frames = append(frames, Frame{})
	}
	// llvm-symbolizer (shouldOverrideWithSymbolTable): with linkage names the
	// outermost frame takes its name and start from the ELF symbol table.
	if opts.Functions == FunctionsLinkage && opts.Style == StyleLLVM && !(opts.DWARFNames && frames[len(frames)-1].Function != "") {
		s, ok := sym, sym.symbol != nil // looked up above
		if opts.DWARFNames {
			s, ok = o.syms.findGDB(pc)
		}
		if ok {
			last := &frames[len(frames)-1]
			last.Function = s.name
			if opts.Demangle {
				last.Function = o.demangleSym(s.symbol, opts.demangleStyle())
			}
			last.StartAddress, last.HasStartAddress = s.addr, true
			if last.File == "" && s.local && !opts.DWARFNames { // gdb prints no object file name
				last.File, _ = o.syms.fileOf(s.symbol)
			}
		}
	}
	if opts.DWARFNames && opts.Functions != FunctionsNone && o.debugSyms != nil {
		// gdb reads the separate debug file's symbol table too: code
		// without DWARF (assembly such as clone3, __restore_rt) in a
		// stripped library is named from there.
		if last := &frames[len(frames)-1]; last.Function == "" {
			if s, ok := o.debugSyms.findGDB(pc); ok {
				last.Function = s.name
				if opts.Demangle {
					// not demangleSym: its cache is the binary's table's
					last.Function = o.demangled.demangle(s.name, opts.demangleStyle())
				}
				last.StartAddress, last.HasStartAddress = s.addr, true
			}
		}
	}
	if opts.Style == StyleGNU && opts.Functions != FunctionsNone {
		o.gnuNames(pc, frames, chain, fi, u, opts)
	}
	return frames
}

// pathForm is how opts spell file names.
func pathForm(opts LookupOptions) dwarf.PathForm {
	if opts.RelativeNames {
		return dwarf.PathRelative
	}
	return dwarf.PathFull
}

// fileIndex is the file a row names under style: llvm and the standard take
// the register (1 by default); binutils 2.40 names file 0 for rows before
// the sequence's first DW_LNS_set_file in DWARF 5 (it initialises its
// file name with entry 0), so gcc's cold sequences, whose file 1 is a
// header, show the unit's own file with the header's line.
func fileIndex(r dwarf.LineRow, style NameStyle) uint32 {
	i, unset := r.File()
	if unset && style == StyleGNU {
		return 0
	}
	return i
}
