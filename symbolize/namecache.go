package symbolize

import "sync"

// refNames caches demangled names by the string reference they come from,
// so a repeated frame costs one small-key map lookup
// instead of hashing (and first copying) a mangled name that can run to
// kilobytes in C++ binaries.
type refNames struct {
	m sync.Map // refNameKey -> string
}

type refNameKey struct {
	style NameStyle
	ref   strRef
}

// demangleRef returns the DWARF string ref demangled in style.
func (o *Object) demangleRef(ref strRef, style NameStyle) string {
	k := refNameKey{style: style, ref: ref}
	if v, ok := o.refNames.m.Load(k); ok {
		return v.(string)
	}
	s := o.names.demangle(o.str(ref), style)
	o.refNames.m.Store(k, s)
	return s
}
