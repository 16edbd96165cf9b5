package symbolize

import (
	"sync/atomic"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
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
	style     uint8
}

// cacheKey returns the naming key of opts, or false when a field does not
// fit the narrow key (not an option value this package defines): the name
// is then computed without the cache.
func cacheKey(opts LookupOptions) (nameOpts, bool) {
	f, s := opts.Functions, opts.demangleStyle()
	if f < 0 || f > 255 || s < 0 || s > 255 {
		return nameOpts{}, false
	}
	return nameOpts{uint8(f), opts.Demangle, uint8(s)}, true
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
	di, off := fi.DIE(id), fi.Offset(id)
	if rid, depth, ok := originRoot(fi, di); ok && cacheable {
		rslot := &slots[rid]
		n := rslot.Load()
		if n == nil || !n.serves(k) {
			if n = o.describeNew(fi, fi.DIE(rid), fi.Offset(rid), k, opts); n != nil {
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
	for onlyOrigin(di) {
		oid, ok := fi.IndexOf(di.Origin)
		if !ok {
			break // R is di: its walk reads the origin from elsewhere
		}
		if depth++; depth >= maxWalkSteps {
			return 0, 0, false // a cycle of references, or a chain past the walk's bound
		}
		rid, di = oid, fi.DIE(oid)
	}
	return rid, depth, depth > 0
}

// onlyOrigin reports whether di's only naming attribute is its
// DW_AT_abstract_origin.
func onlyOrigin(di *dwarf.Subroutine) bool {
	return di.Origin != 0 && di.Spec == 0 && di.Name == dwarf.NoStr && di.Linkage == dwarf.NoStr && di.DeclFile < 0 && di.DeclLine < 0
}

// symName caches a symbol's demangled name for one style.
type symName struct {
	style NameStyle
	name  string
}

// demangleSym returns the symbol's name demangled in style.
func (o *Object) demangleSym(s *symbol, style NameStyle) string {
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
