package symbolize

import (
	"math"
	"sort"
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
type named struct {
	name string
	// declFile, declLine, declFileImplicit: as in resolved; declUnit is
	// resolved's declUnit as a unitRef (32 bytes in all, not 48 with the
	// pointer).
	declUnit         int32
	declFile         int32
	declLine         int32
	key              nameOpts
	declFileImplicit bool
}

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

// describeDIE returns what a frame shows for the DIE fi.dies[id] under
// opts, and the unit its declaration's file is named in (resolved's
// declUnit). The result is shared: callers must not modify it.
func (o *Object) describeDIE(fi *funcIndex, id int32, opts LookupOptions) (*named, *unit) {
	k, cacheable := cacheKey(opts)
	slot := &fi.named[id]
	if n := slot.Load(); n != nil && cacheable && n.key == k {
		return n, o.unitOfRef(n.declUnit)
	}
	di := &fi.dies[id]
	r := o.resolve(fi, di)
	ref, ok := o.unitRef(r.declUnit)
	n := &named{
		name:     o.funcName(fi, di, &r, opts),
		declUnit: ref,
		// Exact: resolve copies them from a dieInfo's int32 fields.
		declFile:         int32(r.declFile),
		declLine:         int32(r.declLine),
		key:              k,
		declFileImplicit: r.declFileImplicit,
	}
	if cacheable && ok {
		slot.Store(n)
	}
	return n, r.declUnit
}

// unitRef names u, a unit of o or of its supplementary file, in 32 bits:
// 0 for nil, i+1 for o.units.units[i], -(i+1) for the supplementary
// file's units[i]. false: u is in neither list (or past int32 range), and
// cannot be named so.
func (o *Object) unitRef(u *unit) (int32, bool) {
	if u == nil {
		return 0, true
	}
	find := func(us []*unit) (int32, bool) {
		i := sort.Search(len(us), func(i int) bool { return us[i].h.off >= u.h.off })
		if i < len(us) && us[i] == u && i < math.MaxInt32 {
			return int32(i + 1), true
		}
		return 0, false
	}
	if i, ok := find(o.units.units); ok {
		return i, true
	}
	if o.sup != nil {
		if i, ok := find(o.sup.units); ok {
			return -i, true
		}
	}
	return 0, false
}

// unitOfRef returns the unit unitRef named ref.
func (o *Object) unitOfRef(ref int32) *unit {
	switch {
	case ref > 0:
		return o.units.units[ref-1]
	case ref < 0:
		return o.sup.units[-ref-1]
	}
	return nil
}

// symName caches a symbol's demangled name for one style.
type symName struct {
	style NameStyle
	name  string
}

// demangleSym returns the symbol's name demangled in style.
func (o *Object) demangleSym(s *symbol, style NameStyle) string {
	if !mangled(s.name) {
		// Most names of C and Go binaries: no cache slot to read (a
		// random access into a table the size of the symbol table).
		return s.name
	}
	slot := &o.syms.demangled[s.idx]
	if n := slot.Load(); n != nil && n.style == style {
		return n.name
	}
	d := o.demangled.demangle(s.name, style)
	slot.Store(&symName{style: style, name: d})
	return d
}
