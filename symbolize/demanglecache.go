package symbolize

import (
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/symbolize/dwarf"
	"github.com/sanitrace/sanitrace/symbolize/internal/cxxfilt"
)

// demangleCache demangles each distinct name once per style: big C++
// binaries repeat the same few thousand names across millions of frames,
// and demangling costs more than reading the DWARF. It is the only cache of
// demangled text, keyed two ways: by the mangled name (ELF symbols), and
// by the DWARF string reference a linkage name comes from, so that a
// repeated frame costs one small-key lookup instead of hashing (and first
// copying) a name that can run to kilobytes in C++ binaries. (The per-DIE and per-symbol
// slots of diecache.go keep what a frame prints, demangled through here.)
//
// Plain maps under a mutex rather than sync.Maps: a sync.Map boxes every
// key and value and adds a node per entry, some 200,000 small objects of
// pointers on a big C++ binary that every collection must mark again; a
// map keeps its entries in a few large arrays. The locks are taken only on
// a miss of the per-DIE slots, and never while demangling.
type demangleCache struct {
	byName lockedStrings[nameKey]
	byRef  lockedStrings[refKey]
}

// lockedStrings is a map to strings under a lock of its own, made on the
// first put.
type lockedStrings[K comparable] struct {
	mu sync.Mutex
	m  map[K]string
}

func (s *lockedStrings[K]) get(k K) (string, bool) {
	s.mu.Lock()
	v, ok := s.m[k]
	s.mu.Unlock()
	return v, ok
}

func (s *lockedStrings[K]) put(k K, v string) {
	s.mu.Lock()
	if s.m == nil {
		s.m = make(map[K]string)
	}
	s.m[k] = v
	s.mu.Unlock()
}

type nameKey struct {
	style NameStyle
	name  string
}

type refKey struct {
	style NameStyle
	ref   dwarf.StrRef
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
func (c *demangleCache) demangle(name string, style NameStyle) string {
	if !mangled(name) {
		return name
	}
	return c.demangleSlow(name, style)
}

// mangled reports whether name is one a style may demangle: an Itanium
// ("_Z") or Rust v0 ("_R") name.
func mangled(name string) bool {
	return strings.HasPrefix(name, "_Z") || strings.HasPrefix(name, "_R")
}

func (c *demangleCache) demangleSlow(name string, style NameStyle) string {
	k := nameKey{style, name}
	if v, ok := c.byName.get(k); ok {
		return v
	}
	out := demangleName(name, style)
	c.byName.put(k, out)
	return out
}

// demangleName demangles name in style, uncached.
func demangleName(name string, style NameStyle) string {
	if !mangled(name) {
		return name
	}
	switch style {
	case StyleLLVM:
		return cxxfilt.Demangle(name, cxxfilt.LLVM)
	default:
		out := cxxfilt.Demangle(name, cxxfilt.GNU)
		if style == styleGDB && out != name {
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
func (o *Object) demangleRef(ref dwarf.StrRef, style NameStyle) string {
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
