package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// rustLegacyGNU demangles a legacy Rust name ("_ZN...17h<hash>E", maybe
// with a ".llvm.<n>" suffix) as libiberty 2.40's rust-demangle.c does
// without DMGL_VERBOSE: the path without the hash, "$LT$"-style escapes
// and ".." decoded. It reports false for a name libiberty does not take as
// Rust, which then goes to the C++ demangler. (The module's own drops the
// first '_' of every identifier that starts with one.)
func rustLegacyGNU(name string) (string, bool) {
	if !strings.HasPrefix(name, "_ZN") {
		return "", false
	}
	sym := name[3:]
	for i := 0; i < len(sym); i++ {
		c := sym[i]
		if c != '_' && !isDigit(c) && !isUpper(c) && !(c >= 'a' && c <= 'z') && c != '$' && c != '.' && c != ':' && c != '@' {
			return "", false
		}
	}
	// The path ends at an 'E' that ends the name or comes before a
	// '.' suffix.
	n := len(sym)
	dotSuffix := true
	for n > 0 && !(dotSuffix && sym[n-1] == 'E') {
		dotSuffix = sym[n-1] == '.'
		n--
	}
	if n == 0 {
		return "", false
	}
	n--
	if !(n > 19 && sym[n-19:n-16] == "17h") {
		return "", false
	}
	var idents []string
	for rest := sym[:n]; rest != ""; {
		id, r, ok := legacyIdent(rest)
		if !ok || id == "" {
			return "", false
		}
		idents = append(idents, id)
		rest = r
	}
	if len(idents) < 2 || !isLegacyHash(idents[len(idents)-1]) {
		return "", false
	}
	var b strings.Builder
	for i, id := range idents[:len(idents)-1] {
		if i > 0 {
			b.WriteString("::")
		}
		writeLegacyIdent(&b, id)
	}
	return b.String(), true
}

// legacyIdent reads one length-prefixed identifier.
func legacyIdent(s string) (id, rest string, ok bool) {
	if s == "" || !isDigit(s[0]) {
		return "", s, false
	}
	l, i := int(s[0]-'0'), 1
	if s[0] != '0' {
		for i < len(s) && isDigit(s[i]) {
			l = l*10 + int(s[i]-'0')
			i++
			if l > len(s) {
				return "", s, false
			}
		}
	}
	if i+l > len(s) {
		return "", s, false
	}
	return s[i : i+l], s[i+l:], true
}

// isLegacyHash reports whether id is "h" and 16 lower-case hex digits,
// at least 5 of them distinct.
func isLegacyHash(id string) bool {
	if len(id) != 17 || id[0] != 'h' {
		return false
	}
	var seen uint16
	for i := 1; i < 17; i++ {
		d := hexNibble(id[i])
		if d < 0 {
			return false
		}
		seen |= 1 << d
	}
	count := 0
	for ; seen != 0; seen >>= 1 {
		count += int(seen & 1)
	}
	return count >= 5
}

// hexNibble decodes a lower-case hex digit, -1 for anything else.
func hexNibble(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// writeLegacyIdent writes an identifier with its escapes decoded: a '_'
// before a leading '$' dropped, "$LT$" and the like, "$u7e$", ".." as
// "::"; from an unknown escape on, the rest as it is.
func writeLegacyIdent(b *strings.Builder, id string) {
	if len(id) >= 2 && id[0] == '_' && id[1] == '$' {
		id = id[1:]
	}
	for len(id) > 0 {
		switch id[0] {
		case '$':
			c, l := legacyEscape(id)
			if c == 0 {
				b.WriteString(id)
				return
			}
			b.WriteByte(c)
			id = id[l:]
		case '.':
			if len(id) >= 2 && id[1] == '.' {
				b.WriteString("::")
				id = id[2:]
			} else {
				b.WriteByte('.')
				id = id[1:]
			}
		default:
			l := strings.IndexAny(id, "$.")
			if l < 0 {
				l = len(id)
			}
			b.WriteString(id[:l])
			id = id[l:]
		}
	}
}

// legacyEscapes are the two-letter escapes of legacy Rust names.
var legacyEscapes = map[string]byte{
	"SP": '@', "BP": '*', "RF": '&', "LT": '<', "GT": '>', "LP": '(', "RP": ')',
}

// legacyEscape decodes the escape at the start of e and returns the byte
// and the escape's length, or 0.
func legacyEscape(e string) (byte, int) {
	if len(e) < 3 || e[0] != '$' {
		return 0, 0
	}
	e = e[1:]
	var c byte
	l := 0
	switch {
	case e[0] == 'C':
		c, l = ',', 1
	case len(e) >= 2:
		l = 2
		if x, ok := legacyEscapes[e[:2]]; ok {
			c = x
		} else if e[0] == 'u' && len(e) >= 3 {
			l = 3
			hi, lo := hexNibble(e[1]), hexNibble(e[2])
			if hi < 0 || lo < 0 || hi > 7 {
				return 0, 0
			}
			c = byte(hi<<4 | lo)
			if c < 0x20 { // control characters (0x7f passes, as in 2.40)
				return 0, 0
			}
		}
	}
	if c == 0 || len(e) <= l || e[l] != '$' {
		return 0, 0
	}
	return c, l + 2
}

// rustV0 demangles a Rust v0 name ("_R") with the module, with three
// corrections:
//   - an empty identifier "0" before a digit ("s_024Name"): the module
//     reads "024" as 24, where rustc-demangle, libiberty and LLVM end a
//     decimal number at a leading zero; it gets its "_" separator
//     ("s_0_24Name"), and the back references past it one more byte;
//   - LLVM 14 takes a sign on an unsigned integer constant ("Kjn1_" is -1)
//     where the module fails: such a constant is read as signed ("Kxn1_",
//     the same length);
//   - libiberty neither escapes a quote nor a backslash in a char constant,
//     writes ' ' and '~' as \u{20} and \u{7e}, and writes an integer
//     constant longer than 16 hex digits as "0x", the digits after the
//     first, and its '_' (gnuRustConsts, on the printed name: those
//     spellings occur nowhere else in a Rust name).
func rustV0(name string, style Style) (string, error) {
	name = emptyIdentsSeparated(name)
	if style == LLVM {
		return demangle.ToString(signedUnsignedConsts(name), demangle.LLVMStyle)
	}
	s, err := demangle.ToString(name)
	if err != nil {
		return "", err
	}
	return gnuRustConsts(s), nil
}

// emptyIdentsSeparated inserts the "_" separator after an empty
// identifier that follows a disambiguator and precedes a digit
// ("s_024Name"), and moves the back references to bytes past it.
func emptyIdentsSeparated(name string) string {
	for from := 0; ; {
		i := strings.Index(name[from:], "_0")
		if i < 0 {
			return name
		}
		p := from + i + 2 // the byte after the "0"
		from = p
		if p >= len(name) || !isDigit(name[p]) || !afterDisambiguator(name, p-2) {
			continue
		}
		name = name[:p] + "_" + shiftBackrefs(name[p:], p-2)
		from = p + 1
	}
}

// afterDisambiguator reports whether the '_' at i ends a disambiguator
// "s<base-62>_".
func afterDisambiguator(name string, i int) bool {
	j := i - 1
	for j > 0 && (isDigit(name[j]) || isUpper(name[j]) || name[j] >= 'a' && name[j] <= 'z') && name[j] != 's' {
		j--
	}
	return j > 0 && name[j] == 's'
}

// shiftBackrefs adds one to the back references in s ("B<base-62>_") to
// offsets (counted after "_R") at or past at.
func shiftBackrefs(s string, at int) string {
	return rustBackref.bump(s, 0, at, nil)
}

const base62Digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// signedUnsignedConsts spells the negative unsigned constants of name as
// signed ones of the same length.
func signedUnsignedConsts(name string) string {
	if !strings.Contains(name, "n") {
		return name
	}
	b := []byte(name)
	changed := false
	for i := 0; i+3 < len(b); i++ {
		if b[i] != 'K' || b[i+2] != 'n' {
			continue
		}
		if j := strings.IndexByte("htmyoj", b[i+1]); j >= 0 {
			b[i+1] = "aslxni"[j]
			changed = true
		}
	}
	if !changed {
		return name
	}
	return string(b)
}

// gnuRustConsts respells the char and long integer constants of a printed
// v0 name as libiberty 2.40 does.
func gnuRustConsts(s string) string {
	if !strings.Contains(s, "'") && !strings.Contains(s, "0x") {
		return s
	}
	for _, r := range [][2]string{
		{`'\''`, `'''`},
		{`'\\'`, `'\'`},
		{`' '`, `'\u{20}'`},
		{`'~'`, `'\u{7e}'`},
	} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "0x")
		if i < 0 {
			break
		}
		j := i + 2
		for j < len(s) && hexNibble(s[j]) >= 0 {
			j++
		}
		if j-(i+2) > 16 {
			b.WriteString(s[:i+2])
			b.WriteString(s[i+3 : j])
			b.WriteByte('_')
		} else {
			b.WriteString(s[:j])
		}
		s = s[j:]
	}
	b.WriteString(s)
	return b.String()
}
