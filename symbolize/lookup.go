package symbolize

import "debug/dwarf"

// origin resolves a DIE reference: from the unit's own index when possible,
// else by decoding the DIE (a cross-unit DW_FORM_ref_addr).
func (o *Object) dieAt(fi *funcIndex, off dwarf.Offset) (*dieInfo, bool) {
	if i, ok := fi.byOff[off]; ok {
		return &fi.dies[i], true
	}
	r := o.dw.Reader()
	r.Seek(off)
	e, err := r.Next()
	if err != nil || e == nil || e.Offset != off {
		return nil, false
	}
	di := readDieInfo(e)
	return &di, true
}

// resolved is a DIE's naming attributes after following DW_AT_specification
// and DW_AT_abstract_origin the way llvm's DWARFDie::findRecursively does
// (each attribute independently; the first DIE in the walk that has it wins).
type resolved struct {
	name, linkage      string
	declFile, declLine int64
	declFileDIE        dwarf.Offset // the DIE declFile came from
}

func (o *Object) resolve(fi *funcIndex, di *dieInfo) resolved {
	r := resolved{declFile: -1, declLine: -1}
	haveName, haveLinkage := false, false
	work := []*dieInfo{di}
	seen := map[dwarf.Offset]bool{di.off: true}
	for steps := 0; len(work) > 0 && steps < 32; steps++ {
		d := work[len(work)-1]
		work = work[:len(work)-1]
		if !haveName && d.name != "" {
			r.name, haveName = d.name, true
		}
		if !haveLinkage && d.linkage != "" {
			r.linkage, haveLinkage = d.linkage, true
		}
		if r.declFile < 0 && d.declFile >= 0 {
			r.declFile, r.declFileDIE = d.declFile, d.off
		}
		if r.declLine < 0 && d.declLine >= 0 {
			r.declLine = d.declLine
		}
		for _, ref := range []dwarf.Offset{d.origin, d.spec} {
			if ref != 0 && !seen[ref] {
				seen[ref] = true
				if n, ok := o.dieAt(fi, ref); ok {
					work = append(work, n)
				}
			}
		}
	}
	return r
}

// funcName picks the name a frame shows for a DIE under opts.
func (o *Object) funcName(r resolved, opts LookupOptions) string {
	switch opts.Functions {
	case FunctionsNone:
		return ""
	case FunctionsShort:
		return r.name
	}
	if r.linkage != "" {
		if opts.Demangle {
			return o.names.demangle(r.linkage, opts.Style)
		}
		return r.linkage
	}
	return r.name
}

// lookup builds the frames for pc following llvm's
// DWARFContext::getInliningInfoForAddress and
// SymbolizableObjectFile::symbolizeInlinedCode, or the GNU variant.
func (o *Object) lookup(pc uint64, opts LookupOptions) []Frame {
	var frames []Frame
	var u *unit
	if o.dw != nil && !(opts.Style == StyleGNU && o.zdebug) {
		u = o.units.unitFor(pc)
		if u == nil && opts.Style == StyleGNU {
			u = o.gnuUnitFor(pc)
		}
	}
	var lt *lineTable
	var fi *funcIndex
	var chain []int32
	if u != nil {
		lt, _ = o.lineTable(u)
		fi, _ = o.functions(u)
		if fi != nil {
			chain = fi.chain(pc)
			if opts.Style == StyleGNU {
				chain = o.gnuChain(chain, fi)
			}
		}
	}
	fileName := func(i int64) string {
		if lt == nil || i < 0 {
			return ""
		}
		s, _ := lt.fileName(uint32(i))
		return s
	}
	setLine := func(f *Frame) {
		if lt == nil {
			return
		}
		if row, ok := lt.lookup(pc); ok {
			if name, ok := lt.fileName(row.fileIndex(opts.Style)); ok {
				f.File = name
				f.Line = int(row.line)
				f.Column = int(row.col)
				f.Discriminator = int(row.discr)
			}
		}
	}
	describe := func(f *Frame, di *dieInfo) {
		r := o.resolve(fi, di)
		f.Function = o.funcName(r, opts)
		if r.declLine > 0 {
			f.StartLine = int(r.declLine)
		}
		f.StartFile = fileName(r.declFile)
		if opts.Style == StyleLLVM && f.StartFile != "" && o.implicitDeclFile(r.declFileDIE) {
			f.StartFile = ""
		}
		if di.hasLowPC {
			f.StartAddress, f.HasStartAddress = di.lowPC, true
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
		describe(&f, &fi.dies[chain[0]])
		setLine(&f)
		frames = append(frames, f)
	default:
		var callFile, callLine, callCol, discr int64
		for i, id := range chain {
			di := &fi.dies[id]
			var f Frame
			describe(&f, di)
			if i == 0 {
				setLine(&f)
			} else {
				f.File = fileName(callFile)
				f.Line, f.Column, f.Discriminator = int(callLine), int(callCol), int(discr)
			}
			callFile, callLine, callCol, discr = di.callFile, di.callLine, di.callCol, di.discr
			f.Inlined = i+1 < len(chain)
			frames = append(frames, f)
		}
	}
	if len(frames) == 0 {
		frames = append(frames, Frame{})
	}
	// llvm-symbolizer (shouldOverrideWithSymbolTable): with linkage names the
	// outermost frame takes its name and start from the ELF symbol table.
	if opts.Functions == FunctionsLinkage && opts.Style == StyleLLVM {
		if s, ok := o.syms.find(pc, nil); ok {
			last := &frames[len(frames)-1]
			last.Function = s.name
			if opts.Demangle {
				last.Function = o.names.demangle(s.name, opts.Style)
			}
			last.StartAddress, last.HasStartAddress = s.addr, true
			if last.File == "" && s.local {
				last.File = s.file
			}
		}
	}
	if opts.Style == StyleGNU && opts.Functions != FunctionsNone {
		o.gnuNames(pc, frames, chain, fi, u, opts)
	}
	return frames
}
