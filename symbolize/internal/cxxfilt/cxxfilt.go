// Package cxxfilt demangles C++ and Rust symbol names byte for byte as the
// reference tools print them: llvm-symbolizer 14 (the demangler of
// llvm-cxxfilt 14) and addr2line -C from binutils 2.40 (libiberty with
// DMGL_PARAMS | DMGL_ANSI, which is "c++filt -i").
//
// Most names take fast.go's path: a parser of this package's own for the
// common shape of a name (nested names, templates, packs, function
// pointers, literals), which prints as it reads and answers only where it
// is sure of all three tools' bytes; about 95% of the names of the bench's
// C++ binaries and the system's C++ libraries, at a tenth of the cost.
//
// Every other name is parsed and printed by
// github.com/ianlancetaylor/demangle. Its
// printer follows later LLVMs and a libiberty of its own, and its parser
// counts some substitutions differently, so this package works around it
// in three ways, per rule the cheapest that gives the exact bytes:
//
//   - edits of the parsed tree before the module prints it (edit.go,
//     llvm14.go, gnu.go, inner.go): marker bytes where the printer decides
//     spacing from the last byte it wrote, LLVM 14's expressions rebuilt as
//     plain text and operands, constructors renamed;
//   - rewrites of the mangled name before parsing where the module's tree
//     differs (srsubs.go, gnusr.go, lambda.go, constconst.go): the
//     module's own parser says where its substitution table stands and
//     which bytes are references, through a probe reference past the table;
//   - for Rust, libiberty's legacy demangling written here (rust.go), and a
//     v0 demangler of this package's own (rustv0.go), whose v0Policy holds
//     where the two tools part ways: the module's misreads v0 names rustc
//     writes (issue 24).
//
// A panic in the module is recovered and the name printed mangled; output
// and tree walks are bounded.
package cxxfilt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// Style selects the reference tool whose output is reproduced.
type Style int

const (
	// LLVM is llvm-symbolizer 14 and llvm-cxxfilt 14.
	LLVM Style = iota
	// GNU is addr2line -C 2.40 and c++filt -i 2.40.
	GNU
	// LLVM19 is llvm-symbolizer 19 and llvm-cxxfilt 19 (Debian's 19.1.7):
	// LLVM 14's rules but for its expressions, which 19 parenthesises by
	// precedence as the module does, an ABI-tagged class's constructors
	// and destructors, which it names, and ">>" between template closers
	// (joinClosers; ToString keeps 14's "> >").
	LLVM19
)

// llvm reports whether s is one of LLVM's demanglers.
func (s Style) llvm() bool { return s != GNU }

// Demangle returns name as the style's tool prints it: demangled, or name
// itself when the tool cannot demangle it.
func Demangle(name string, style Style) string {
	return demangleVia(name, style, fastFirst)
}

// demanglePath chooses how a C++ name is parsed: by fast.go where it
// can, or always by the module (tests compare the two).
type demanglePath int

const (
	fastFirst demanglePath = iota
	moduleOnly
)

func demangleVia(name string, style Style, path demanglePath) string {
	if !strings.HasPrefix(name, "_Z") && !strings.HasPrefix(name, "_R") {
		return name
	}
	if style.llvm() {
		out := demangleLLVM(name, style, path)
		if style == LLVM19 && out != name {
			out = joinClosers(out)
		}
		return out
	}
	out, err := toString(name, GNU, false, path)
	if err != nil {
		return name
	}
	return out
}

// ErrTooLong is returned for a name whose demangling would exceed
// maxOutput bytes.
var ErrTooLong = errors.New("demangled name too long")

// errNotDemangled is returned for a name the style's tool prints mangled.
var errNotDemangled = errors.New("name not demangled by the reference tool")

// maxOutputPow bounds the output at 1 MiB: hostile names nest substitutions
// so that the output doubles with each one, and real names stay far below
// (the longest of libLLVM, Boost and libstdc++ demangle to some 30 kB).
const maxOutputPow = 20

// gnuMaxMangled is the longest name libiberty 2.40 demangles: its
// component array, two per character, is bounded by
// DEMANGLE_RECURSION_LIMIT (2048, PR 87675).
const gnuMaxMangled = 1024

// ToString demangles a "_Z" or "_R" name in style, or returns an error
// when the style's tool would print the name mangled. A panic in the
// module's parser or printer is an error too.
func ToString(name string, style Style) (string, error) {
	return toString(name, style, false, fastFirst)
}

// NameOnly demangles a name in the GNU style without the function's
// parameters (libiberty without DMGL_PARAMS): for a template function, its
// return type and name.
func NameOnly(name string) (string, error) {
	return toString(name, GNU, true, fastFirst)
}

func toString(name string, style Style, noParams bool, path demanglePath) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("demangle %.40q: %v", name, r)
		}
	}()
	if strings.HasPrefix(name, "_R") {
		return rustV0(name, style)
	}
	if style == GNU {
		if s, ok := rustLegacyGNU(name); ok {
			return s, nil
		}
		if len(name) > gnuMaxMangled {
			return "", errNotDemangled
		}
	}
	if path == fastFirst && !noParams {
		if s, ok := fastDemangle(name, style); ok {
			return s, nil
		}
	}
	return cxxToString(name, style, noParams)
}

// cxxOptions are the module's options for parsing and printing: GNU,
// LLVM, GNU without parameters, LLVM without parameters. They are built
// once, as a slice built per name was a good part of this package's own
// allocations; nothing appends to them (their capacity is their length).
var cxxOptions = func() [4]struct{ parse, print []demangle.Option } {
	var r [4]struct{ parse, print []demangle.Option }
	for i := range r {
		o := []demangle.Option{demangle.NoRust}
		if i&1 != 0 {
			o = append(o, demangle.LLVMStyle)
		}
		if i&2 != 0 {
			o = append(o, demangle.NoParams)
		}
		r[i].parse = o[:len(o):len(o)]
		p := append(append([]demangle.Option(nil), o...), demangle.MaxLength(maxOutputPow))
		r[i].print = p[:len(p):len(p)]
	}
	return r
}()

// cxxToString demangles an Itanium C++ name.
func cxxToString(name string, style Style, noParams bool) (string, error) {
	// (Two byte searches cost less than ContainsAny's per-byte set test.)
	if strings.IndexByte(name, markArgEnd[0]) >= 0 || strings.IndexByte(name, markNoSpace[0]) >= 0 {
		// The markers below cannot be told apart from the name's own
		// bytes; no real name holds control characters.
		return "", errNotDemangled
	}
	oi := 0 // cxxOptions' index: bit 0 LLVM, bit 1 no parameters
	if style.llvm() {
		oi |= 1
	}
	if noParams {
		oi |= 2
	}
	o := &cxxOptions[oi]
	opts := o.parse
	var c copier
	a, err := parse(name, style, opts, &c)
	if err != nil {
		return "", err
	}
	if mayHaveInnerEncoding(name) {
		if r := innerParamsFixed(a, &c); r != nil {
			a = r
		}
	}
	if style == GNU {
		if r := gnuCDtorsNamed(a, &c); r != nil {
			a = r
		}
	}
	if c.over {
		return "", ErrTooLong
	}
	var suffix string
	if style.llvm() {
		if llvm14Rejects(name, a) {
			return "", errNotDemangled
		}
		a, suffix = llvm14Clones(name, a)
	}
	e := editor{style: style, print: o.print}
	if a, err = e.edit(a); err != nil {
		return "", err
	}
	popts := o.print
	if e.printGNU {
		// o's counterpart without LLVMStyle (see gnuSame).
		popts = cxxOptions[oi&^1].print
	}
	s := demangle.ASTToString(a, popts...)
	if len(s) >= 1<<maxOutputPow {
		return "", ErrTooLong
	}
	switch {
	case e.marked:
		s = unmark(s)
	case e.spaceClosers && strings.Contains(s, ">>"):
		s = spaceClosers(s)
	default:
		// The printer's text shares its buffer, which doubled as it
		// grew: a copy of the right size is what a cache should keep
		// (a third less memory for cpp-heavy's names).
		s = strings.Clone(s)
	}
	if suffix != "" {
		s += " (" + suffix + ")"
	}
	if len(s) >= 1<<maxOutputPow {
		return "", ErrTooLong
	}
	return s, nil
}

// demangleLLVM is llvm-symbolizer 14's (or 19's, by style) demangling of
// a "_Z" or "_R" name; a name it cannot demangle is printed as is.
//
// llvm-symbolizer 14 demangles "_Z" names with its Itanium demangler only,
// so a legacy Rust name "_ZN3std2rt10lang_start17h<hash>E" stays an
// Itanium name with its hash; Rust v0 names ("_R") go to its Rust
// demangler.
func demangleLLVM(name string, style Style, path demanglePath) string {
	if strings.HasPrefix(name, "_Z") && llvmCannotDemangle(name) {
		return name
	}
	out, err := toString(name, style, false, path)
	if err != nil {
		var ok bool
		// (A v0 name's suffix is the v0 demangler's own.)
		if !strings.HasPrefix(name, "_Z") {
			return name
		}
		if out, ok = llvm14DotSuffix(name, style); !ok {
			return name
		}
	}
	return out
}

// llvm14DotSuffix handles an Itanium name that is not a function (so no
// parameter types end it) followed by a '.' suffix, as rustc's legacy names
// are after ThinLTO: "_ZN4core3ptr13drop_in_place17h<hash>E.llvm.123". LLVM
// 14 ends the encoding at the '.' and prints "<name> (.llvm.123)"; the
// module's parser only accepts a suffix after a function type. At most one
// '.' has a prefix that demangles: one inside a length-prefixed identifier
// ("vtable.shim", "alloc..vec") cuts it short, and one past the end of the
// encoding leaves a '.' in the prefix. Dots after an 'E' (the end of a
// nested name) are tried first, and the tries are bounded, which bounds
// the work on hostile names.
func llvm14DotSuffix(name string, style Style) (string, bool) {
	const maxTries = 16
	tries := 0
	for _, afterE := range [2]bool{true, false} {
		for i := 1; i < len(name) && tries < maxTries; i++ {
			if name[i] != '.' || (name[i-1] == 'E') != afterE {
				continue
			}
			tries++
			if out, err := ToString(name[:i], style); err == nil {
				return out + " (" + name[i:] + ")", true
			}
		}
	}
	return "", false
}

// llvmCannotDemangle reports names LLVM's Itanium demangler (14's and
// 19's) rejects although GCC emits them: an unresolved type after "sr" or
// "srN" that is std:: or a source name, as in "srSt24__is_bitwise_relocatable"
// and boost::swap's "srN15boost_swap_impl8is_constIT_EE5value". LLVM
// accepts only a substitution, a template parameter or a decltype there
// (parseUnresolvedType), and llvm-symbolizer then prints the mangled name.
// The test reads the mangled text: each of the 514 names of the
// demangling corpora (cpp-heavy's, cppcheck-asan's, the system C++
// libraries') it matches is one llvm-cxxfilt 14 and 19 reject.
func llvmCannotDemangle(name string) bool {
	if strings.Contains(name, "srSt") {
		return true
	}
	for i := 0; ; {
		j := strings.Index(name[i:], "srN")
		if j < 0 {
			return false
		}
		i += j + len("srN")
		if i < len(name) && (name[i] >= '0' && name[i] <= '9' || strings.HasPrefix(name[i:], "St")) {
			return true
		}
	}
}

// joinClosers respells a name demangled by LLVM 14's rules as LLVM 19 prints it: 14
// writes a space between a template's closing '>' and the '>' that ends
// its last argument, 19 does not. In a demangled name "> >" is only ever
// that space (an operator> is printed "operator>", and a '>' operator in a
// template argument is parenthesised, by both LLVMs).
func joinClosers(s string) string {
	if !strings.Contains(s, "> >") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && i > 0 && s[i-1] == '>' && i+1 < len(s) && s[i+1] == '>' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
