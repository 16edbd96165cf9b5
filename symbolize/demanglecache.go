package symbolize

import (
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/symbolize/internal/demangle"
)

// demangleCache demangles each distinct name once per style: big C++
// binaries repeat the same few thousand names across millions of frames,
// and demangling costs more than reading the DWARF. It is the only cache of
// demangled text, keyed two ways: by the mangled name, and by the DWARF
// string reference a linkage name comes from, so that a repeated frame
// costs one small-key lookup instead of hashing (and first copying) a name
// that can run to kilobytes in C++ binaries. (The per-DIE and per-symbol
// slots of diecache.go keep what a frame prints, demangled through here.)
type demangleCache struct {
	byName sync.Map // nameKey -> string
	byRef  sync.Map // refKey -> string
}

type nameKey struct {
	style NameStyle
	name  string
}

type refKey struct {
	style NameStyle
	ref   strRef
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
// The demangler is our copy of github.com/ianlancetaylor/demangle with
// those rules (internal/demangle).
func (c *demangleCache) demangle(name string, style NameStyle) string {
	if !strings.HasPrefix(name, "_Z") && !strings.HasPrefix(name, "_R") {
		return name
	}
	return c.demangleSlow(name, style)
}

func (c *demangleCache) demangleSlow(name string, style NameStyle) string {
	k := nameKey{style, name}
	if v, ok := c.byName.Load(k); ok {
		return v.(string)
	}
	var out string
	if style == StyleLLVM {
		out = demangleLLVM14(name)
	} else {
		var err error
		if out, err = demangle.ToString(name); err != nil {
			out = name
		} else if style == styleGDB {
			out = withoutReturnType(name, out)
		}
	}
	c.byName.Store(k, out)
	return out
}

// demangleLLVM14 is llvm-symbolizer 14's demangling of a "_Z" or "_R" name;
// a name it cannot demangle is printed as is.
func demangleLLVM14(name string) string {
	if strings.HasPrefix(name, "_Z") && llvm14CannotDemangle(name) {
		return name
	}
	out, err := demangle.ToString(name, demangle.LLVMStyle, demangle.NoRust)
	if err != nil {
		var ok bool
		if out, ok = llvm14DotSuffix(name); !ok {
			return name
		}
	}
	return out
}

// llvm14DotSuffix handles an Itanium name that is not a function (so no
// parameter types end it) followed by a '.' suffix, as rustc's legacy names
// are after ThinLTO: "_ZN4core3ptr13drop_in_place17h<hash>E.llvm.123". LLVM
// 14 ends the encoding at the '.' and prints "<name> (.llvm.123)"; the
// fork's parser only accepts a suffix after a function type. At most one
// '.' has a prefix that demangles: one inside a length-prefixed identifier
// ("vtable.shim", "alloc..vec") cuts it short, and one past the end of the
// encoding leaves a '.' in the prefix. Dots after an 'E' (the end of a
// nested name) are tried first, and the tries are bounded, which bounds
// the work on hostile names.
func llvm14DotSuffix(name string) (string, bool) {
	const maxTries = 16
	tries := 0
	for _, afterE := range [2]bool{true, false} {
		for i := 1; i < len(name) && tries < maxTries; i++ {
			if name[i] != '.' || (name[i-1] == 'E') != afterE {
				continue
			}
			tries++
			if out, err := demangle.ToString(name[:i], demangle.LLVMStyle, demangle.NoRust); err == nil {
				return out + " (" + name[i:] + ")", true
			}
		}
	}
	return "", false
}

// llvm14CannotDemangle reports names LLVM 14's Itanium demangler rejects
// although they are valid: an unresolved type in "sr" that starts with "St"
// (GCC emits "srSt24__is_bitwise_relocatable..."); LLVM 14 only accepts a
// substitution, a template parameter or a decltype there, and
// llvm-symbolizer then prints the mangled name.
func llvm14CannotDemangle(name string) bool {
	return strings.Contains(name, "srSt")
}

// withoutReturnType drops the return type a template function's
// demangled name starts with: the part before the name proper, which the
// demangler prints alone when asked for no parameters.
func withoutReturnType(mangled, full string) string {
	short, err := demangle.ToString(mangled, demangle.NoParams)
	if err != nil || short == "" {
		return full
	}
	if i := strings.Index(full, short); i > 0 && full[i-1] == ' ' {
		return full[i:]
	}
	return full
}

// demangleRef returns the DWARF string ref demangled in style.
func (o *Object) demangleRef(ref strRef, style NameStyle) string {
	k := refKey{style: style, ref: ref}
	if v, ok := o.demangled.byRef.Load(k); ok {
		return v.(string)
	}
	s := o.demangled.demangle(o.str(ref), style)
	o.demangled.byRef.Store(k, s)
	return s
}
