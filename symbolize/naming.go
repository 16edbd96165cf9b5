package symbolize

import (
	"strings"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
	"github.com/sanitrace/sanitrace/symbolize/internal/cxxfilt"
)

// The slots here keep what a frame prints for a DIE or an ELF symbol, so a
// repeated frame skips resolving and naming it again; the demangled text
// itself comes from the one demangleCache (demanglecache.go).

// named caches what a frame shows for a DIE: its printed name under one
// choice of naming options and its declaration. A batch repeats the same
// functions many times; resolving a DIE walks its abstract origin and
// declaration, and naming it means a demangler cache lookup. Only what a
// frame prints is kept (one per named DIE: a big C++ unit has tens of
// thousands): the rest of the resolved attributes is resolved again in the
// rare case it is needed (another naming key, GNU's per-function state).
//
// An inlined call (or any DIE) whose only naming attribute is its
// DW_AT_abstract_origin in the same unit shows what that origin shows: it
// shares the origin's entry, which is computed once (a C++ unit inlines
// the same few thousand functions tens of thousands of times). See
// originRoot for when that holds exactly.
type named struct {
	name string
	// declFile, declLine: as in resolved; declUnit is resolved's declUnit
	// as dwarf.Data.UnitRef names it (32 bytes in all, not 48 with the
	// pointer).
	declUnit int32
	declFile int32
	declLine int32
	key      nameOpts
	// flags: namedDeclFileImplicit, and above it how many DIEs the walk
	// that resolved the DIE visited when it was complete (walkDIE), else
	// 0: a DIE that only refers to this one may share the entry when its
	// own walk, that many DIEs and the referring ones, stays complete.
	flags uint8
}

// namedDeclFileImplicit: resolved's declFileImplicit.
const namedDeclFileImplicit uint8 = 1

// walked returns the complete walk's length recorded in n.flags, or 0.
func (n *named) walked() int { return int(n.flags >> 1) }

// nameOpts is the part of LookupOptions a DIE's name depends on, narrowed
// by cacheKey.
type nameOpts struct {
	functions uint8
	demangle  bool
	style     demangler
}

// cacheKey returns the naming key of opts, or false when a field does not
// fit the narrow key (not an option value this package defines): the name
// is then computed without the cache.
func cacheKey(opts LookupOptions) (nameOpts, bool) {
	f := opts.Functions
	if f < 0 || f > 255 {
		return nameOpts{}, false
	}
	return nameOpts{uint8(f), opts.Demangle, opts.policy().demangle}, true
}

// describeDIE returns what a frame shows for the DIE with index id of fi under
// opts: its cache entry (shared: callers must not modify it), its name,
// and the unit its declaration's file is named in (resolved's declUnit).
// Without names (FunctionsNone, which is how the outermost frame is
// described when the symbol table names it) any entry of the DIE serves:
// what it declares does not depend on the naming options.
func (o *Object) describeDIE(fi *dwarf.FuncIndex, id int32, opts LookupOptions) (*named, string, *dwarf.Unit) {
	k, cacheable := cacheKey(opts)
	slots := nameSlots(fi)
	slot := &slots[id]
	if n := slot.Load(); n != nil && cacheable && n.serves(k) {
		return o.described(n, k)
	}
	d := fi.DIE(id)
	di, off := &d, fi.Offset(id)
	if rid, depth, ok := originRoot(fi, di); ok && cacheable {
		rslot := &slots[rid]
		n := rslot.Load()
		if n == nil || !n.serves(k) {
			rd := fi.DIE(rid)
			if n = o.describeNew(fi, &rd, fi.Offset(rid), k, opts); n != nil {
				rslot.Store(n)
			}
		}
		if n != nil && n.walked() > 0 && depth+n.walked() <= maxWalkSteps {
			slot.Store(n)
			return o.described(n, k)
		}
	}
	if n := o.describeNew(fi, di, off, k, opts); n != nil {
		if cacheable {
			slot.Store(n)
		}
		return o.described(n, k)
	}
	// Not representable as an entry: described each time.
	r := o.resolve(fi, di, off)
	n := &named{
		name:     o.funcName(fi, di, off, &r, opts),
		declFile: int32(r.declFile),
		declLine: int32(r.declLine),
		flags:    r.flags(),
	}
	return n, n.name, r.declUnit
}

// serves reports whether n answers a lookup under key k.
func (n *named) serves(k nameOpts) bool {
	return n.key == k || k.functions == uint8(FunctionsNone)
}

// described returns n as describeDIE does under key k.
func (o *Object) described(n *named, k nameOpts) (*named, string, *dwarf.Unit) {
	name := n.name
	if k.functions == uint8(FunctionsNone) {
		name = ""
	}
	return n, name, o.dw.UnitOfRef(n.declUnit)
}

// dieNames is a function index's name cache: a slot per DIE, filled on
// use (dwarf.FuncIndex.Memo).
type dieNames struct {
	slots []atomic.Pointer[named]
}

// nameSlots returns fi's name-cache slots, made on first use.
func nameSlots(fi *dwarf.FuncIndex) []atomic.Pointer[named] {
	if c, ok := fi.Memo.Load().(*dieNames); ok {
		return c.slots
	}
	fi.Memo.CompareAndSwap(nil, &dieNames{slots: make([]atomic.Pointer[named], fi.Len())})
	return fi.Memo.Load().(*dieNames).slots
}

// describeNew resolves and names di, the DIE at off, under opts (key k)
// into a new entry, or returns nil when its declaration's unit has no
// unitRef.
func (o *Object) describeNew(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64, k nameOpts, opts LookupOptions) *named {
	r, walked := o.resolveWalk(fi, di, off)
	ref, ok := o.dw.UnitRef(r.declUnit)
	if !ok {
		return nil
	}
	n := &named{
		name:     o.funcName(fi, di, off, &r, opts),
		declUnit: ref,
		// Exact: resolve copies them from a dwarf.Subroutine's int32 fields.
		declFile: int32(r.declFile),
		declLine: int32(r.declLine),
		key:      k,
		flags:    r.flags() | uint8(walked)<<1, // walked <= maxWalkSteps
	}
	return n
}

// flags returns the named flags r sets.
func (r *resolved) flags() uint8 {
	if r.declFileImplicit {
		return namedDeclFileImplicit
	}
	return 0
}

// originRoot follows abstract origins from di, within fi, through the
// DIEs whose only naming attribute is that reference (an inlined call's
// DIE, and any it refers to alike), and returns where that stops, R, and
// depth, the number of references followed (at least 1).
//
// di then resolves as R does, provided the walk from R is complete and
// visits at most maxWalkSteps-depth DIEs: the walk from di visits the
// depth DIEs on the way, which add nothing and refer only along the way,
// and then R's walk, whose DIEs come in the same order (any of the depth
// DIEs it reaches again is skipped, and it added nothing); so it too is
// complete within maxWalkSteps and finds the same attributes.
func originRoot(fi *dwarf.FuncIndex, di *dwarf.Subroutine) (int32, int, bool) {
	rid, depth := int32(-1), 0
	d := *di
	for onlyOrigin(&d) {
		oid, ok := fi.IndexOf(d.Origin)
		if !ok {
			break // R is di: its walk reads the origin from elsewhere
		}
		if depth++; depth >= maxWalkSteps {
			return 0, 0, false // a cycle of references, or a chain past the walk's bound
		}
		rid, d = oid, fi.DIE(oid)
	}
	return rid, depth, depth > 0
}

// onlyOrigin reports whether di's only naming attribute is its
// DW_AT_abstract_origin.
func onlyOrigin(di *dwarf.Subroutine) bool {
	return di.Origin != 0 && di.Spec == 0 && di.Name == dwarf.NoStr && di.Linkage == dwarf.NoStr && di.DeclFile < 0 && di.DeclLine < 0
}

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
	visited := o.walkDIE(fi, di, off, func(d dwarf.Subroutine, off uint64) {
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
	_ = o.walkDIE(fi, di, off, func(d dwarf.Subroutine, _ uint64) {
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
func (o *Object) walkDIE(fi *dwarf.FuncIndex, di *dwarf.Subroutine, off uint64, visit func(d dwarf.Subroutine, off uint64)) int {
	// The walk is short (a concrete DIE, its abstract origin, that one's
	// declaration), so fixed arrays serve as stack and visited set. The
	// DIEs are copies: a FuncIndex packs its DIEs (dwarf.FuncIndex.DIE).
	type step struct {
		d   dwarf.Subroutine
		off uint64
	}
	var workArr [8]step
	var seenArr [33]uint64
	work := append(workArr[:0], step{*di, off})
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
			return o.demangleRef(r.linkage, opts.policy().demangle)
		}
		return o.dw.Str(r.linkage)
	}
	return o.dw.Str(r.name(o, fi, di, off))
}

// demangle returns name demangled the way the style's tool prints it.
//
// llvm-symbolizer 14 demangles "_Z" names with its Itanium demangler only,
// with LLVM 14's spelling ("(.cold)" suffixes, "> >"); it has no demangler
// for Rust's legacy mangling, so "_ZN3std2rt10lang_start28_$u7b$...17h<hash>E"
// stays an Itanium name ("std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h<hash>").
// Rust v0 names ("_R") go to its Rust demangler, which prints no crate
// disambiguators.
//
// addr2line -C uses libiberty: "[clone .cold]", "> >" except after an empty
// pack, and its Rust demanglers for both manglings, without the hash or
// crate disambiguators (bfd does not ask for DMGL_VERBOSE).
//
// The rules are internal/cxxfilt's, over github.com/ianlancetaylor/demangle.
func (c *demangleCache) demangle(name string, style demangler) string {
	if !mangled(name) {
		return name
	}
	return c.demangleSlow(name, style)
}

func (c *demangleCache) demangleSlow(name string, style demangler) string {
	k := nameKey{style, name}
	if v, ok := c.byName.get(k); ok {
		return v
	}
	out := demangleName(name, style)
	c.byName.put(k, out)
	return out
}

// demangleName demangles name in style, uncached.
func demangleName(name string, style demangler) string {
	if !mangled(name) {
		return name
	}
	switch style {
	case demangleLLVM14:
		return cxxfilt.Demangle(name, cxxfilt.LLVM)
	case demangleLLVM19:
		return cxxfilt.Demangle(name, cxxfilt.LLVM19)
	default:
		out := cxxfilt.Demangle(name, cxxfilt.GNU)
		if style == demangleGDB && out != name {
			out = withoutReturnType(name, out)
		}
		return out
	}
}

// withoutReturnType drops the return type a template function's
// demangled name starts with: the part before the name proper, which the
// demangler prints alone when asked for no parameters.
func withoutReturnType(mangled, full string) string {
	short, err := cxxfilt.NameOnly(mangled)
	if err != nil || short == "" {
		return full
	}
	if i := strings.Index(full, short); i > 0 && full[i-1] == ' ' {
		return full[i:]
	}
	return full
}

// demangleRef returns the DWARF string ref demangled in style.
func (o *Object) demangleRef(ref dwarf.StrRef, style demangler) string {
	c := &o.demangled
	k := refKey{style: style, ref: ref}
	if v, ok := c.byRef.get(k); ok {
		return v
	}
	// Not through byName: its key would keep a copy of the mangled name,
	// which runs to kilobytes in C++ (5 MB of cpp-heavy's W1 heap), for
	// the rare name that two string references share.
	s := demangleName(o.dw.Str(ref), style)
	c.byRef.put(k, s)
	return s
}

// demangleSym returns the symbol's name demangled in style.
func (o *Object) demangleSym(s *symbol, style demangler) string {
	if s.slot < 0 {
		// Not mangled (every name of C and Go binaries): nothing to
		// demangle, and no slot.
		return s.name
	}
	slot := &o.syms.demangled[s.slot]
	if n := slot.Load(); n != nil && n.style == style {
		return n.name
	}
	d := o.demangled.demangle(s.name, style)
	slot.Store(&symName{style: style, name: d})
	return d
}
