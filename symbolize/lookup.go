package symbolize

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Symbolize returns the frames for addr, innermost first. An address nothing
// knows gives one empty Frame and no error.
//
// It is the engine's one last line of defence against its own bugs: the
// decoders return errors and do not recover (their fuzzers hold them to
// that), but a session that answers a sanitizer's pipe or a CI job's
// artifacts for minutes must not be ended by one file that reaches a bug.
// A panic under a lookup costs that answer: one empty Frame, and an error
// naming the file and the address (errors.Is ErrInternal).
func (o *Object) Symbolize(addr uint64, opts LookupOptions) (frames []Frame, err error) {
	return o.SymbolizeInto(nil, addr, opts)
}

// SymbolizeInto is Symbolize building the frames in buf's array when it
// is large enough: a session that prints each answer before the next
// lookup passes the frames of its last answer back, and allocates
// nothing per answer for them (half of what a batch on a C program
// allocated, each byte of which brings the next collection nearer).
func (o *Object) SymbolizeInto(buf []Frame, addr uint64, opts LookupOptions) (frames []Frame, err error) {
	if o == nil {
		return []Frame{{}}, errors.New("symbolize: nil object")
	}
	defer func() {
		if p := recover(); p != nil {
			frames, err = []Frame{{}}, fmt.Errorf("symbolize: %s: address 0x%x: %w: %v", o.debugPath, addr, ErrInternal, p)
		}
	}()
	frames = o.lookup(addr, opts, buf[:0])
	if len(frames) == 0 {
		frames = append(frames, Frame{})
	}
	return frames, nil
}

// SymbolizeMany symbolizes addrs; the result is aligned with addrs. Equal
// addresses are looked up once, and the work is spread over the CPUs,
// except under GNU240, whose answers depend on query order.
func (o *Object) SymbolizeMany(addrs []uint64, opts LookupOptions) [][]Frame {
	out := make([][]Frame, len(addrs))
	if opts.policy().stateful() {
		// bfd's naming depends on the order of queries (bfd.go):
		// answer them one by one in input order, as addr2line does.
		for i, a := range addrs {
			out[i], _ = o.Symbolize(a, opts)
		}
		return out
	}
	uniq := make([]uint64, 0, len(addrs))
	seen := make(map[uint64]int, len(addrs))
	for _, a := range addrs {
		if _, ok := seen[a]; !ok {
			seen[a] = len(uniq)
			uniq = append(uniq, a)
		}
	}
	if len(uniq) > 1 {
		o.ExpectManyLookups()
	}
	// Sorting keeps each unit's lookups together (and its decode on one
	// worker, usually).
	sorted := slices.Clone(uniq)
	slices.Sort(sorted)
	res := make(map[uint64][]Frame, len(sorted))
	workers := runtime.GOMAXPROCS(0)
	if workers > 4 {
		workers = 4
	}
	if len(sorted) < 64 {
		workers = 1
	}
	chunk := (len(sorted) + workers - 1) / workers
	parts := make([][][]Frame, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, (w+1)*chunk
		if hi > len(sorted) {
			hi = len(sorted)
		}
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			p := make([][]Frame, 0, hi-lo)
			for _, a := range sorted[lo:hi] {
				f, _ := o.Symbolize(a, opts)
				p = append(p, f)
			}
			parts[w] = p
		}(w, lo, hi)
	}
	wg.Wait()
	for w := 0; w < workers; w++ {
		lo := w * chunk
		for i, f := range parts[w] {
			res[sorted[lo+i]] = f
		}
	}
	for i, a := range addrs {
		out[i] = res[a]
	}
	return out
}

// Data answers a DATA query: the global object containing addr, from the
// symbol table.
func (o *Object) Data(addr uint64) (DataSymbol, bool) {
	if o == nil {
		return DataSymbol{}, false
	}
	s, found := o.syms.findData(addr)
	if !found {
		return DataSymbol{}, false
	}
	return DataSymbol{Name: s.name, Demangled: o.demangled.demangle(s.name, LLVM14.demangle), Start: s.addr, Size: s.size}, true
}

// lookup builds the frames for pc as opts' policy's tool does: llvm's
// DWARFContext::getInliningInfoForAddress and
// SymbolizableObjectFile::symbolizeInlinedCode, bfd's
// _bfd_dwarf2_find_nearest_line, gdb's frame names. Every rule of a
// Policy is consulted here: the unit and tables the address is read
// from (unitOf), the frames of its inline chain (dwarfFrames), the names
// the symbol tables give (at the end).
func (o *Object) lookup(pc uint64, opts LookupOptions, buf []Frame) []Frame {
	p := opts.policy()
	a := o.unitOf(pc, p)
	// The subroutines holding pc, innermost first; kept out of a, whose
	// contents escape, so that its buffer stays on the stack.
	var chainBuf [16]int32 // deeper chains allocate
	var chain []int32
	if a.fi != nil {
		chain = a.fi.Chain(pc, chainBuf[:0])
		if p.bfdRangeLists {
			chain = o.gnuChain(chain, a.fi)
		}
	}
	// With symbolsOverride the symbol table names the outermost frame
	// (below) whenever a symbol holds pc: that frame's name from DWARF is
	// then not needed, and not resolved, copied or demangled (its
	// declaration is cached under the no-names key).
	var sym symAt
	outerOpts := opts
	symTable := o.overrideSyms(len(chain) == 0)
	if opts.Functions == FunctionsLinkage && p.symbols == symbolsOverride {
		if s, ok := symTable.lookup(pc, p.aliases); ok {
			sym, outerOpts.Functions = s, FunctionsNone
		}
	}
	frames := o.dwarfFrames(pc, &a, chain, p, opts, outerOpts, buf)
	last := &frames[len(frames)-1]
	switch p.symbols {
	case symbolsOverride:
		if sym.symbol != nil { // looked up above
			o.nameBySymbol(last, sym, symTable, opts, p)
			if last.File == "" && sym.local {
				last.File, _ = symTable.fileOf(sym.symbol)
			}
		}
	case symbolsFallback:
		if opts.Functions == FunctionsLinkage && last.Function == "" {
			if s, ok := o.syms.lookup(pc, p.aliases); ok {
				o.nameBySymbol(last, s, &o.syms, opts, p)
			}
		}
		if opts.Functions != FunctionsNone && o.debugSyms != nil && last.Function == "" {
			if s, ok := o.debugSyms.lookup(pc, p.aliases); ok {
				o.nameBySymbol(last, s, o.debugSyms, opts, p)
			}
		}
	case symbolsBFD:
		if opts.Functions != FunctionsNone {
			o.gnuNames(pc, frames, chain, a.fi, a.u, opts, p)
		}
	}
	return frames
}

// overrideSyms is the table symbolsOverride names a frame from: the
// binary's own (llvm-symbolizer 14 reads no other), but for an answer
// from the symbol tables alone (symbolOnly: no DWARF function holds the
// address) its separate debug file's where that one is richer
// (symtab.richerThan), so that such an answer is llvm-symbolizer's on
// the full binary: its name, and its STT_FILE's (docs/differences.md).
// Where the DWARF names the function, the answer stays llvm-symbolizer
// 14's on the binary as it is (the DWARF's name where .dynsym has none,
// not the debug file's "getdelim.cold").
func (o *Object) overrideSyms(symbolOnly bool) *symtab {
	if symbolOnly && o.debugSyms != nil && o.debugSyms.richerThan(&o.syms) {
		return o.debugSyms
	}
	return &o.syms
}

// unitAnswer is what a lookup reads of the unit holding its address: the
// unit, its line table and function index (a probe's, or the full ones;
// a split unit's DIEs from its .dwo). Any of them may be missing.
type unitAnswer struct {
	u      *dwarf.Unit
	lt     *dwarf.LineTable
	fi     *dwarf.FuncIndex
	probed bool // lt and fi are a probe's (probeUnit)
}

// unitOf finds the unit holding pc and reads it as p does.
func (o *Object) unitOf(pc uint64, p *Policy) unitAnswer {
	var a unitAnswer
	if o.dw == nil || o.zdebug && !p.readsZdebug {
		return a
	}
	a.u = o.dw.UnitFor(pc)
	if a.u == nil && p.lineSequenceUnits {
		a.u = o.gnuUnitFor(pc)
	}
	if a.u == nil {
		return a
	}
	if !p.stateful() {
		a.lt, a.fi, a.probed = o.probeUnit(a.u, pc)
	}
	if !a.probed {
		a.lt, _ = o.dw.LineTable(a.u)
		a.fi, _ = o.dw.Functions(a.u)
	}
	if a.u.DWOName() != "" && p.readsSplitUnits {
		if sfi, _ := o.dw.SplitFunctions(a.u, o.openSplitUnit); sfi != nil {
			a.fi = sfi
		}
	}
	return a
}

// dwarfFrames builds pc's frames from the unit's line table and chain
// (the subroutines holding pc, innermost first), named under opts (the
// outermost under outerOpts); one empty frame when the DWARF says nothing
// of pc. They are appended to buf, which is empty.
func (o *Object) dwarfFrames(pc uint64, a *unitAnswer, chain []int32, p *Policy, opts, outerOpts LookupOptions, buf []Frame) []Frame {
	form := p.pathForm(opts.RelativeNames)
	fileName := func(i int64) string {
		if a.lt == nil || i < 0 {
			return ""
		}
		s, _ := a.lt.FileName(uint32(i), form)
		return s
	}
	setLine := func(f *Frame) {
		if a.lt == nil {
			return
		}
		if row, ok := a.lt.Lookup(pc); ok {
			if name, ok := a.lt.FileName(p.fileIndex(row), form); ok {
				f.File = name
				f.Line = int(row.Line())
				f.Column = int(row.Column())
				f.Discriminator = int(row.Discriminator())
			}
		}
	}
	describe := func(f *Frame, id int32, di *dwarf.Subroutine, opts LookupOptions) {
		r, name, declUnit := o.describeDIE(a.fi, id, opts)
		f.Function = name
		if r.declLine > 0 {
			f.StartLine = int(r.declLine)
		}
		f.StartFile = fileName(int64(r.declFile))
		if declUnit != nil {
			f.StartFile = ""
			dlt, err := a.lt, error(nil)
			if declUnit != a.u || !a.probed {
				// A probe's fi holds only some of u's DIEs: the others
				// come here with u as declUnit. The probe's lt is then
				// what the full table would give (it exists only for
				// a table decoded without error).
				dlt, err = o.dw.LineTable(declUnit)
			}
			if err == nil && dlt != nil && r.declFile >= 0 {
				f.StartFile, _ = dlt.FileName(uint32(r.declFile), form)
			}
		}
		if !p.readsImplicitDeclFile && f.StartFile != "" && r.flags&namedDeclFileImplicit != 0 {
			f.StartFile = ""
		}
		if di.HasLowPC {
			f.StartAddress, f.HasStartAddress = di.LowPC, true
		}
	}
	frames := buf
	switch {
	case len(chain) == 0:
		if a.u != nil {
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
		di := a.fi.DIE(chain[0])
		describe(&f, chain[0], &di, outerOpts)
		setLine(&f)
		frames = append(frames, f)
	default:
		var callFile, callLine, callCol, discr int64
		// One frame per chain entry: sized once (C++ chains run to a
		// dozen frames, and growing by doubling copied each frame twice).
		frames = slices.Grow(frames, len(chain))
		for i, id := range chain {
			di := a.fi.DIE(id)
			var f Frame
			if i+1 < len(chain) {
				describe(&f, id, &di, opts)
			} else {
				describe(&f, id, &di, outerOpts)
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
	return frames
}

// nameBySymbol names the frame f after s, a symbol of t.
func (o *Object) nameBySymbol(f *Frame, s symAt, t *symtab, opts LookupOptions, p *Policy) {
	f.Function = s.name
	if opts.Demangle {
		if t == &o.syms {
			f.Function = o.demangleSym(s.symbol, p.demangle)
		} else {
			// not demangleSym: its cache is the binary's table's
			f.Function = o.demangled.demangle(s.name, p.demangle)
		}
	}
	f.StartAddress, f.HasStartAddress = s.addr, true
}

// The first lookup in a unit. One address in a fresh process, the
// sanitizer's single frame or a script's addr2line call, should not pay
// for the index of the whole unit around it: the first lookup of a unit
// probes it (dwarf.Data.Probe: its line program run for the one address,
// its DIEs walked keeping only the functions that contain it), and the
// second lookup builds the full index, as before, so a batch pays the
// probe once per unit, and only for the units of its first few lookups
// (maxProbes). A probe answers exactly what the full index would, or
// gives up and the lookup uses the index. Lookups under a stateful
// policy (bfd's) do not probe: the probe's answers are checked against
// the index's for the others.

// maxProbes bounds the probes of one object: a batch over a binary of
// many small units (a Go program has hundreds) would otherwise probe
// each unit and then index it on its second lookup, decoding most units
// twice; after the first few lookups, units are indexed at once.
const maxProbes = 8

// probeUnit answers the unit part of the first lookup of pc in u without
// indexing u (dwarf.Data.Probe). ok is false when the lookup must use the
// full index instead: not u's first lookup, the object's probes spent, a
// unit no probe serves (a skeleton or partial unit), or a probe that gave
// up.
func (o *Object) probeUnit(u *dwarf.Unit, pc uint64) (lt *dwarf.LineTable, fi *dwarf.FuncIndex, ok bool) {
	if u.DWOName() != "" || u.Partial() || u.FunctionsIndexed() || !o.looked[u.Index()].CompareAndSwap(false, true) {
		return nil, nil, false
	}
	if o.probes.Add(1) > maxProbes {
		return nil, nil, false
	}
	return o.dw.Probe(u, pc)
}

// ExpectManyLookups tells o that many lookups follow at once (a batch of
// queries, not one address): from now on each unit is indexed on its
// first lookup rather than probed for one address and indexed on its
// second, which would decode it twice. Answers are the same either way.
func (o *Object) ExpectManyLookups() {
	o.probes.Store(maxProbes)
}
