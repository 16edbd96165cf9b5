package cxxfilt

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rust v0 names ("_R…", RFC 2603) are demangled here rather than by the
// module, whose v0 demangler misreads names rustc writes: it reads "00"
// (two empty identifiers, "{closure#0}::{closure#0}") as one number,
// prints "::" for the empty name of an internal namespace (an enum
// variant's constructor, "…::Either<…>::B::>" for "…::B>", issue 24) and
// fails on a constant whose low 64 bits are zero; and it follows neither
// reference tool's spelling of constants and lifetimes. The two tools
// part ways in a dozen small rules, each a field of v0Policy.

// v0Policy is one reference tool's reading of v0 names: LLVM 14's
// RustDemangle.cpp or libiberty 2.40's rust-demangle.c (without
// DMGL_VERBOSE, as addr2line -C calls it).
type v0Policy struct {
	// maxDepth bounds the nesting of paths, types and constants (each
	// back reference followed is one more level); basicTypesNest counts a
	// basic type as a level too.
	maxDepth       int
	basicTypesNest bool
	// dynPathNests counts a level more for a dyn trait's path without
	// generic arguments (libiberty's demangle_path_maybe_open_generics
	// counts one before it hands such a path to demangle_path).
	dynPathNests bool
	// wrapNumbers lets decimal and base-62 numbers wrap at 2^64
	// (libiberty's size_t and uint64_t arithmetic) where LLVM fails.
	wrapNumbers bool
	// backrefsBackward: a back reference must point before its own end.
	backrefsBackward bool
	// suffixInParens prints a ".suffix" as " (.suffix)"; libiberty
	// drops it.
	suffixInParens bool

	// signOnUnsigned takes "n" (minus) on unsigned constants as well.
	signOnUnsigned bool
	// zeroPadding accepts hex digits of a constant that start with '0'
	// ("01_").
	zeroPadding bool
	// longHexShifted: a constant of more than 16 hex digits is printed
	// "0x", the digits after the first, and the '_' that ends them
	// (libiberty prints from one byte too far); else "0x" and the digits.
	longHexShifted bool
	// charMaxDigits is the most hex digits of a char constant.
	charMaxDigits int
	// rustCharEscapes escapes '\\' and '\'' and prints ' ' and '~' as
	// they are; libiberty prints only '!' to '}' as they are, so a
	// backslash and a quote bare, and ' ' and '~' as \u{20}, \u{7e}.
	rustCharEscapes bool

	// checkedLifetimes: a lifetime index must name a bound lifetime,
	// lifetimes past 'z' are 'z1, 'z2…, and a binder may not bind more
	// lifetimes than the bytes left could name. libiberty prints
	// '_<depth> past 'z' and for an index past the binders (the depth
	// wrapping below 0).
	checkedLifetimes bool

	// dashAllUnderscores writes every '_' of an ABI name as '-' and
	// takes an empty one; libiberty rejects an empty ABI and, after each
	// '_' it replaces, does not look at the next byte ("a__b" is a-_b).
	dashAllUnderscores bool

	// rawBindingNames prints the names of a dyn trait's associated-type
	// bindings as mangled, punycode undecoded.
	rawBindingNames bool
	// lenientPunycode: an identifier whose punycode part is empty is an
	// error, one whose punycode ends inside a number is printed as
	// nothing, code points are checked neither for surrogates nor against
	// U+10FFFF, and the arithmetic wraps (libiberty); LLVM takes the empty
	// one and fails on the others.
	lenientPunycode bool
}

var (
	llvm14V0 = v0Policy{
		maxDepth:           500,
		basicTypesNest:     true,
		backrefsBackward:   true,
		suffixInParens:     true,
		signOnUnsigned:     true,
		charMaxDigits:      6,
		rustCharEscapes:    true,
		checkedLifetimes:   true,
		dashAllUnderscores: true,
		rawBindingNames:    true,
	}
	gnu240V0 = v0Policy{
		maxDepth:        1024,
		dynPathNests:    true,
		wrapNumbers:     true,
		zeroPadding:     true,
		longHexShifted:  true,
		charMaxDigits:   8,
		lenientPunycode: true,
	}
)

// rustV0 demangles a Rust v0 name in style, or returns errNotDemangled
// where the style's tool prints it mangled.
func rustV0(name string, style Style) (string, error) {
	p := &gnu240V0
	if style.llvm() {
		p = &llvm14V0
	}
	sym, suffix := name[2:], ""
	if i := strings.IndexByte(sym, '.'); i >= 0 {
		sym, suffix = sym[:i], sym[i:]
	}
	// Every byte of the grammar is a letter, a digit or '_', and a path
	// starts with an upper-case letter; libiberty checks so first, and
	// LLVM's parser fails on anything else.
	if sym == "" || !isUpper(sym[0]) {
		return "", errNotDemangled
	}
	for i := 0; i < len(sym); i++ {
		if c := sym[i]; !isDigit(c) && !isUpper(c) && !isLower(c) && c != '_' {
			return "", errNotDemangled
		}
	}
	d := v0Demangler{p: p, in: sym, printing: true, out: make([]byte, 0, 2*len(name))}
	d.path(true, false)
	if d.pos < len(d.in) && !d.failed {
		d.printing = false // the instantiating crate
		d.path(true, false)
	}
	if d.tooLong {
		return "", ErrTooLong
	}
	if d.failed || d.pos != len(d.in) {
		return "", errNotDemangled
	}
	if suffix != "" && p.suffixInParens {
		d.out = append(append(append(d.out, " ("...), suffix...), ')')
		if len(d.out) >= 1<<maxOutputPow {
			return "", ErrTooLong
		}
	}
	return string(d.out), nil
}

// v0Demangler is the state of one name's demangling. A failure sets
// failed, after which every step returns at once.
type v0Demangler struct {
	p        *v0Policy
	in       string // the name after "_R", without a ".suffix"
	pos      int
	out      []byte
	printing bool // false in an impl path and the instantiating crate
	failed   bool
	tooLong  bool
	depth    int
	bound    uint64 // lifetimes bound by the enclosing binders
}

func (d *v0Demangler) fail() { d.failed = true }

func (d *v0Demangler) peek() byte {
	if d.pos < len(d.in) {
		return d.in[d.pos]
	}
	return 0
}

// next returns the next byte, or fails at the end.
func (d *v0Demangler) next() byte {
	if d.pos >= len(d.in) {
		d.fail()
		return 0
	}
	c := d.in[d.pos]
	d.pos++
	return c
}

func (d *v0Demangler) eat(c byte) bool {
	if d.pos < len(d.in) && d.in[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

// room reports whether n more bytes are to be printed: not while
// skipping or after a failure, and not past the output bound (which is a
// failure).
func (d *v0Demangler) room(n int) bool {
	if !d.printing || d.failed {
		return false
	}
	if len(d.out)+n >= 1<<maxOutputPow {
		d.tooLong = true
		d.fail()
		return false
	}
	return true
}

func (d *v0Demangler) print(s string) {
	if d.room(len(s)) {
		d.out = append(d.out, s...)
	}
}

func (d *v0Demangler) printByte(c byte) {
	if d.room(1) {
		d.out = append(d.out, c)
	}
}

// printUint prints v in base (10 or 16).
func (d *v0Demangler) printUint(v uint64, base int) {
	if d.room(20) {
		d.out = strconv.AppendUint(d.out, v, base)
	}
}

// enter counts a level of nesting and reports whether the policy allows
// it; leave undoes it.
func (d *v0Demangler) enter() bool {
	if d.failed {
		return false
	}
	d.depth++
	if d.depth > d.p.maxDepth {
		d.fail()
		return false
	}
	return true
}

func (d *v0Demangler) leave() { d.depth-- }

// path demangles
//
//	<path> = "C" <identifier> | "M" <impl-path> <type> | "X" <impl-path> <type> <path>
//	       | "Y" <type> <path> | "N" <namespace> <path> <identifier>
//	       | "I" <path> {<generic-arg>} "E" | <backref>
//
// inValue is true outside types, where generic arguments are written
// "::<…>"; with leaveOpen, the generic arguments of the path are left
// open for a dyn trait's bindings, and path reports whether they are.
func (d *v0Demangler) path(inValue, leaveOpen bool) (open bool) {
	if !d.enter() {
		return false
	}
	defer d.leave()
	switch d.next() {
	case 'C':
		d.optBase62('s')
		d.printIdent(d.ident())
	case 'M':
		d.implPath(inValue)
		d.print("<")
		d.typ()
		d.print(">")
	case 'X':
		d.implPath(inValue)
		d.print("<")
		d.typ()
		d.print(" as ")
		d.path(false, false)
		d.print(">")
	case 'Y':
		d.print("<")
		d.typ()
		d.print(" as ")
		d.path(false, false)
		d.print(">")
	case 'N':
		ns := d.next()
		if !isUpper(ns) && !isLower(ns) {
			d.fail()
			return false
		}
		d.path(inValue, false)
		dis := d.optBase62('s')
		id := d.ident()
		if isLower(ns) {
			// An internal namespace: its name if it has one.
			if !id.empty() {
				d.print("::")
				d.printIdent(id)
			}
			return false
		}
		d.print("::{")
		switch ns {
		case 'C':
			d.print("closure")
		case 'S':
			d.print("shim")
		default:
			d.printByte(ns)
		}
		if !id.empty() {
			d.print(":")
			d.printIdent(id)
		}
		d.print("#")
		d.printUint(dis, 10)
		d.print("}")
	case 'I':
		d.path(inValue, false)
		if inValue {
			d.print("::")
		}
		d.print("<")
		for i := 0; !d.failed && !d.eat('E'); i++ {
			if i > 0 {
				d.print(", ")
			}
			d.genericArg()
		}
		if leaveOpen {
			return true
		}
		d.print(">")
	case 'B':
		d.backref(func() { open = d.path(inValue, leaveOpen) })
		return open
	default:
		d.fail()
	}
	return false
}

// implPath skips "[<disambiguator>] <path>", which is not printed.
func (d *v0Demangler) implPath(inValue bool) {
	was := d.printing
	d.printing = false
	d.optBase62('s')
	d.path(inValue, false)
	d.printing = was
}

// v0Ident is an identifier's bytes, punycode-encoded when puny.
type v0Ident struct {
	name string
	puny bool
}

func (id v0Ident) empty() bool { return id.name == "" }

// ident reads <undisambiguated-identifier> = ["u"] <decimal-number> ["_"] <bytes>.
func (d *v0Demangler) ident() v0Ident {
	puny := d.eat('u')
	n := d.decimal()
	d.eat('_')
	if d.failed || n > uint64(len(d.in)-d.pos) {
		d.fail()
		return v0Ident{}
	}
	id := v0Ident{d.in[d.pos : d.pos+int(n)], puny}
	d.pos += int(n)
	if puny && id.name != "" && d.p.lenientPunycode && id.name[len(id.name)-1] == '_' {
		d.fail() // libiberty: no punycode after the last '_'
	}
	if puny && id.name == "" && d.p.lenientPunycode {
		d.fail()
	}
	return id
}

// printIdent prints an identifier, decoding punycode.
func (d *v0Demangler) printIdent(id v0Ident) {
	if !d.printing || d.failed {
		return
	}
	if !id.puny {
		d.print(id.name)
		return
	}
	s, ok := decodePunycode(id.name, d.p.lenientPunycode)
	if !ok {
		d.fail()
		return
	}
	d.print(s)
}

// decimal reads <decimal-number> = "0" | <1-9> {<0-9>}.
func (d *v0Demangler) decimal() uint64 {
	c := d.peek()
	if !isDigit(c) {
		d.fail()
		return 0
	}
	d.pos++
	if c == '0' {
		return 0
	}
	v := uint64(c - '0')
	for isDigit(d.peek()) {
		digit := uint64(d.in[d.pos] - '0')
		d.pos++
		if !d.p.wrapNumbers && v > (1<<64-1-digit)/10 {
			d.fail()
			return 0
		}
		v = v*10 + digit
	}
	return v
}

// base62 reads <base-62-number> = {<0-9a-zA-Z>} "_", whose value is one
// more than its digits' ("_" is 0).
func (d *v0Demangler) base62() uint64 {
	if d.eat('_') {
		return 0
	}
	var v uint64
	for !d.failed {
		c := d.next()
		var digit uint64
		switch {
		case c == '_':
			if v == 1<<64-1 && !d.p.wrapNumbers {
				d.fail()
				return 0
			}
			return v + 1
		case isDigit(c):
			digit = uint64(c - '0')
		case isLower(c):
			digit = uint64(c-'a') + 10
		case isUpper(c):
			digit = uint64(c-'A') + 36
		default:
			d.fail()
			return 0
		}
		hi, lo := bits.Mul64(v, 62)
		sum, carry := bits.Add64(lo, digit, 0)
		if (hi != 0 || carry != 0) && !d.p.wrapNumbers {
			d.fail()
		}
		v = sum
	}
	return 0
}

// optBase62 reads an optional tag and base-62 number ("s" disambiguator,
// "G" binder): 0 without the tag, else one more than the number.
func (d *v0Demangler) optBase62(tag byte) uint64 {
	if !d.eat(tag) {
		return 0
	}
	n := d.base62()
	if d.failed || n == 1<<64-1 && !d.p.wrapNumbers {
		return 0 // (LLVM's overflow of the + 1 is a 0, not a failure)
	}
	return n + 1
}

// backref reads "B" <base-62-number> (the 'B' already read) and, while
// printing, runs f at the offset it names.
func (d *v0Demangler) backref(f func()) {
	at := d.base62()
	if d.failed {
		return
	}
	if d.p.backrefsBackward && at >= uint64(d.pos) {
		d.fail()
		return
	}
	if !d.printing {
		return
	}
	if at > uint64(len(d.in)) {
		d.fail()
		return
	}
	saved := d.pos
	d.pos = int(at)
	f()
	d.pos = saved
}

// genericArg demangles <generic-arg> = "L" <base-62-number> | "K" <const> | <type>.
func (d *v0Demangler) genericArg() {
	switch {
	case d.eat('L'):
		d.lifetime(d.base62())
	case d.eat('K'):
		d.constant()
	default:
		d.typ()
	}
}

// basicType returns the v0 basic type spelled by c, or "".
func basicType(c byte) string {
	switch c {
	case 'a':
		return "i8"
	case 'b':
		return "bool"
	case 'c':
		return "char"
	case 'd':
		return "f64"
	case 'e':
		return "str"
	case 'f':
		return "f32"
	case 'h':
		return "u8"
	case 'i':
		return "isize"
	case 'j':
		return "usize"
	case 'l':
		return "i32"
	case 'm':
		return "u32"
	case 'n':
		return "i128"
	case 'o':
		return "u128"
	case 'p':
		return "_"
	case 's':
		return "i16"
	case 't':
		return "u16"
	case 'u':
		return "()"
	case 'v':
		return "..."
	case 'x':
		return "i64"
	case 'y':
		return "u64"
	case 'z':
		return "!"
	}
	return ""
}

// typ demangles <type>.
func (d *v0Demangler) typ() {
	if d.failed {
		return
	}
	if !d.p.basicTypesNest {
		if b := basicType(d.peek()); b != "" {
			d.pos++
			d.print(b)
			return
		}
	}
	if !d.enter() {
		return
	}
	defer d.leave()
	c := d.next()
	if b := basicType(c); b != "" {
		d.print(b)
		return
	}
	switch c {
	case 'A', 'S':
		d.print("[")
		d.typ()
		if c == 'A' {
			d.print("; ")
			d.constant()
		}
		d.print("]")
	case 'T':
		d.print("(")
		n := 0
		for ; !d.failed && !d.eat('E'); n++ {
			if n > 0 {
				d.print(", ")
			}
			d.typ()
		}
		if n == 1 {
			d.print(",")
		}
		d.print(")")
	case 'R', 'Q':
		d.print("&")
		if d.eat('L') {
			if lt := d.base62(); lt != 0 {
				d.lifetime(lt)
				d.print(" ")
			}
		}
		if c == 'Q' {
			d.print("mut ")
		}
		d.typ()
	case 'P':
		d.print("*const ")
		d.typ()
	case 'O':
		d.print("*mut ")
		d.typ()
	case 'F':
		saved := d.bound
		d.fnSig()
		d.bound = saved
	case 'D':
		saved := d.bound
		d.dynBounds()
		d.bound = saved
		if !d.eat('L') {
			d.fail()
			return
		}
		if lt := d.base62(); lt != 0 {
			d.print(" + ")
			d.lifetime(lt)
		}
	case 'B':
		d.backref(d.typ)
	default:
		d.pos--
		d.path(false, false)
	}
}

// fnSig demangles <fn-sig> = [<binder>] ["U"] ["K" <abi>] {<type>} "E" <type>.
func (d *v0Demangler) fnSig() {
	d.binder()
	if d.eat('U') {
		d.print("unsafe ")
	}
	if d.eat('K') {
		d.abi()
	}
	d.print("fn(")
	for i := 0; !d.failed && !d.eat('E'); i++ {
		if i > 0 {
			d.print(", ")
		}
		d.typ()
	}
	d.print(")")
	if !d.eat('u') { // a unit return type is not written
		d.print(" -> ")
		d.typ()
	}
}

// abi demangles <abi> = "C" | <undisambiguated-identifier>, whose '-'
// were mangled as '_'.
func (d *v0Demangler) abi() {
	name := "C"
	if !d.eat('C') {
		id := d.ident()
		if id.puny || !d.p.dashAllUnderscores && id.empty() {
			d.fail()
			return
		}
		name = id.name
	}
	d.print(`extern "`)
	if d.p.dashAllUnderscores {
		d.print(strings.ReplaceAll(name, "_", "-"))
	} else {
		for i := 0; i < len(name); i++ {
			if name[i] == '_' {
				d.print(name[:i])
				d.print("-")
				name = name[i+1:]
				i = 0 // libiberty's loop then steps past the next byte
			}
		}
		d.print(name)
	}
	d.print(`" `)
}

// dynBounds demangles <dyn-bounds> = [<binder>] {<dyn-trait>} "E".
func (d *v0Demangler) dynBounds() {
	d.print("dyn ")
	d.binder()
	for i := 0; !d.failed && !d.eat('E'); i++ {
		if i > 0 {
			d.print(" + ")
		}
		d.dynTrait()
	}
}

// dynTrait demangles <dyn-trait> = <path> {"p" <undisambiguated-identifier> <type>}.
func (d *v0Demangler) dynTrait() {
	var open bool
	if c := d.peek(); d.p.dynPathNests && c != 'I' && c != 'B' {
		if d.enter() {
			open = d.path(false, true)
			d.leave()
		}
	} else {
		open = d.path(false, true)
	}
	for !d.failed && d.eat('p') {
		if open {
			d.print(", ")
		} else {
			d.print("<")
			open = true
		}
		id := d.ident()
		if d.p.rawBindingNames {
			d.print(id.name)
		} else {
			d.printIdent(id)
		}
		d.print(" = ")
		d.typ()
	}
	if open {
		d.print(">")
	}
}

// binder reads an optional "G" <base-62-number> and prints the
// lifetimes it binds.
func (d *v0Demangler) binder() {
	n := d.optBase62('G')
	if d.failed || n == 0 {
		return
	}
	if d.p.checkedLifetimes && n >= uint64(len(d.in))-d.bound {
		// Each bound lifetime takes a byte to use.
		d.fail()
		return
	}
	if !d.printing {
		// (libiberty counts them one by one: n may be near 2^64.)
		d.bound += n
		return
	}
	d.print("for<")
	for i := uint64(0); i < n && !d.failed; i++ {
		if i > 0 {
			d.print(", ")
		}
		d.bound++
		d.lifetime(1)
	}
	d.print("> ")
}

// lifetime prints the lifetime with de Bruijn index i (0 is '_).
func (d *v0Demangler) lifetime(i uint64) {
	if i == 0 {
		d.print("'_")
		return
	}
	if d.p.checkedLifetimes && i-1 >= d.bound {
		d.fail()
		return
	}
	depth := d.bound - i
	d.print("'")
	switch {
	case depth < 26:
		d.printByte('a' + byte(depth))
	case d.p.checkedLifetimes:
		d.print("z")
		d.printUint(depth-26+1, 10)
	default:
		d.print("_")
		d.printUint(depth, 10)
	}
}

// constant demangles <const> = <type> <const-data> | "p" | <backref>.
func (d *v0Demangler) constant() {
	if !d.enter() {
		return
	}
	defer d.leave()
	if d.eat('B') {
		d.backref(d.constant)
		return
	}
	switch c := d.next(); c {
	case 'p':
		d.print("_")
	case 'h', 't', 'm', 'y', 'o', 'j':
		if d.p.signOnUnsigned && d.eat('n') {
			d.print("-")
		}
		d.constInt()
	case 'a', 's', 'l', 'x', 'n', 'i':
		if d.eat('n') {
			d.print("-")
		}
		d.constInt()
	case 'b':
		switch _, digits := d.hex(); {
		case d.failed:
		case digits == "0":
			d.print("false")
		case digits == "1":
			d.print("true")
		default:
			d.fail()
		}
	case 'c':
		d.constChar()
	default:
		d.fail()
	}
}

// hex reads <hex-number> "_": its value (the low 64 bits) and digits.
func (d *v0Demangler) hex() (uint64, string) {
	start := d.pos
	var v uint64
	for !d.failed && !d.eat('_') {
		c := d.next()
		n := hexNibble(c)
		if n < 0 {
			d.fail()
			return 0, ""
		}
		if c == '0' && d.pos == start+1 && !d.p.zeroPadding && d.peek() != '_' {
			d.fail() // "0" only stands alone
			return 0, ""
		}
		v = v<<4 | uint64(n)
	}
	if d.failed {
		return 0, ""
	}
	digits := d.in[start : d.pos-1]
	if digits == "" {
		d.fail()
	}
	return v, digits
}

// constInt prints an integer constant's digits after its sign.
func (d *v0Demangler) constInt() {
	v, digits := d.hex()
	switch {
	case d.failed:
	case len(digits) <= 16:
		d.printUint(v, 10)
	case d.p.longHexShifted:
		d.print("0x")
		d.print(d.in[d.pos-len(digits) : d.pos])
	default:
		d.print("0x")
		d.print(digits)
	}
}

// constChar prints a char constant as the policy spells it.
func (d *v0Demangler) constChar() {
	v, digits := d.hex()
	if d.failed {
		return
	}
	if len(digits) > d.p.charMaxDigits {
		d.fail()
		return
	}
	d.print("'")
	switch {
	case v == '\t':
		d.print(`\t`)
	case v == '\r':
		d.print(`\r`)
	case v == '\n':
		d.print(`\n`)
	case d.p.rustCharEscapes && (v == '\\' || v == '\''):
		d.printByte('\\')
		d.printByte(byte(v))
	case d.p.rustCharEscapes && v >= ' ' && v <= '~', v > ' ' && v < '~':
		d.printByte(byte(v))
	default:
		d.print(`\u{`)
		d.printUint(v, 16)
		d.print("}")
	}
	d.print("'")
}

// decodePunycode decodes an identifier's punycode (RFC 3492 with '_' as
// the delimiter) to UTF-8. lenient is libiberty's reading (see
// v0Policy.lenientPunycode).
func decodePunycode(s string, lenient bool) (string, bool) {
	const (
		base, tMin, tMax = 36, 1, 26
		skew, initBias   = 38, 72
	)
	var out []uint64 // code points
	if i := strings.LastIndexByte(s, '_'); i >= 0 {
		for j := 0; j < i; j++ {
			out = append(out, uint64(s[j]))
		}
		s = s[i+1:]
	}
	n, bias, damp := uint64(0x80), uint64(initBias), uint64(700)
	var i uint64
	for p := 0; p < len(s); {
		old, w := i, uint64(1)
		for k := uint64(base); ; k += base {
			if p == len(s) {
				if lenient {
					return "", true // libiberty prints nothing
				}
				return "", false
			}
			c := s[p]
			p++
			var digit uint64
			switch {
			case isLower(c):
				digit = uint64(c - 'a')
			case isDigit(c):
				digit = uint64(c-'0') + 26
			default:
				return "", false
			}
			if !lenient && digit > (1<<64-1-i)/w {
				return "", false
			}
			i += digit * w
			t := uint64(tMin)
			if k >= bias+tMax {
				t = tMax
			} else if k > bias {
				t = k - bias
			}
			if digit < t {
				break
			}
			if !lenient && w > (1<<64-1)/(base-t) {
				return "", false
			}
			w *= base - t
		}
		points := uint64(len(out)) + 1
		delta := (i - old) / damp
		damp = 2
		delta += delta / points
		k := uint64(0)
		for delta > (base-tMin)*tMax/2 {
			delta /= base - tMin
			k += base
		}
		bias = k + (base-tMin+1)*delta/(delta+skew)
		if !lenient && i/points > 1<<64-1-n {
			return "", false
		}
		n += i / points
		i %= points
		if !lenient && (n > utf8.MaxRune || n >= 0xd800 && n <= 0xdfff) {
			return "", false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = n
		i++
	}
	return encodeCodePoints(out), true
}

// encodeCodePoints writes code points in UTF-8 as libiberty does, which
// checks none: a surrogate is written in three bytes, and a value past
// U+10FFFF in four whose first keeps the low byte of 0xf0|c>>18 (LLVM
// fails on both before).
func encodeCodePoints(cs []uint64) string {
	b := make([]byte, 0, 4*len(cs))
	for _, c := range cs {
		switch {
		case c < 0x80:
			b = append(b, byte(c))
		case c < 0x800:
			b = append(b, byte(0xc0|c>>6), byte(0x80|c&0x3f))
		case c < 0x10000:
			b = append(b, byte(0xe0|c>>12), byte(0x80|(c>>6)&0x3f), byte(0x80|c&0x3f))
		default:
			b = append(b, byte(0xf0|c>>18), byte(0x80|(c>>12)&0x3f), byte(0x80|(c>>6)&0x3f), byte(0x80|c&0x3f))
		}
	}
	return string(b)
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
