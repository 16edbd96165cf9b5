package symbolize

import (
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/symbolize/internal/demangle"
)

// nameCache demangles each distinct (style, name) once: big C++ binaries
// repeat the same few thousand names across millions of frames, and
// demangling costs more than reading the DWARF.
type nameCache struct {
	m sync.Map // nameKey -> string
}

type nameKey struct {
	style NameStyle
	name  string
}

// demangle returns name demangled the way the style's tool prints it:
// llvm-symbolizer 14 demangles only "_Z" names, with LLVM 14's spelling
// ("(.cold)" suffixes, "> >"); addr2line -C uses libiberty's ("[clone .cold]",
// "> >" except after an empty pack). The demangler is our copy of
// github.com/ianlancetaylor/demangle with those rules (internal/demangle).
func (c *nameCache) demangle(name string, style NameStyle) string {
	if !strings.HasPrefix(name, "_Z") {
		if style == StyleGNU && strings.HasPrefix(name, "_R") {
			return c.demangleSlow(name, style)
		}
		return name
	}
	return c.demangleSlow(name, style)
}

func (c *nameCache) demangleSlow(name string, style NameStyle) string {
	k := nameKey{style, name}
	if v, ok := c.m.Load(k); ok {
		return v.(string)
	}
	var opts []demangle.Option
	if style == StyleLLVM {
		opts = append(opts, demangle.LLVMStyle)
	}
	out, err := demangle.ToString(name, opts...)
	if err != nil || (style == StyleLLVM && llvm14CannotDemangle(name)) {
		out = name
	} else if style == StyleLLVM {
		// LLVM prints "operator<<char" for operator< with template args.
		out = strings.ReplaceAll(out, "operator< <", "operator<<")
	}
	c.m.Store(k, out)
	return out
}

// llvm14CannotDemangle reports names LLVM 14's Itanium demangler rejects
// although they are valid: an unresolved type in "sr" that starts with "St"
// (GCC emits "srSt24__is_bitwise_relocatable..."); LLVM 14 only accepts a
// substitution, a template parameter or a decltype there, and
// llvm-symbolizer then prints the mangled name.
func llvm14CannotDemangle(name string) bool {
	return strings.Contains(name, "srSt")
}
