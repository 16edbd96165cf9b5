package cxxfilt

import "strings"

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
