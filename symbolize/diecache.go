package symbolize

// The slots here keep what a frame prints for a DIE or an ELF symbol, so a
// repeated frame skips resolving and naming it again; the demangled text
// itself comes from the one demangleCache (demanglecache.go).

// named caches what a frame shows for a DIE: its resolved attributes and
// its printed name under one choice of naming options. A batch repeats the
// same functions many times; resolving a DIE walks its abstract origin and
// declaration, and naming it means a demangler cache lookup.
type named struct {
	r    resolved
	key  nameOpts
	name string
}

type nameOpts struct {
	functions FunctionNames
	demangle  bool
	style     NameStyle
}

// describeDIE returns the resolved attributes and the function name of the
// DIE fi.dies[id] under opts.
func (o *Object) describeDIE(fi *funcIndex, id int32, opts LookupOptions) (resolved, string) {
	k := nameOpts{opts.Functions, opts.Demangle, opts.demangleStyle()}
	slot := &fi.named[id]
	n := slot.Load()
	if n != nil && n.key == k {
		return n.r, n.name
	}
	var r resolved
	if n != nil {
		r = n.r
	} else {
		r = o.resolve(fi, &fi.dies[id])
	}
	name := o.funcName(fi, &fi.dies[id], &r, opts)
	slot.Store(&named{r: r, key: k, name: name})
	return r, name
}

// resolvedDIE returns the resolved attributes of fi.dies[id].
func (o *Object) resolvedDIE(fi *funcIndex, id int32) resolved {
	if n := fi.named[id].Load(); n != nil {
		return n.r
	}
	return o.resolve(fi, &fi.dies[id])
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
