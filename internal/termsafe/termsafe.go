// Package termsafe makes text that came from an input (a log's module
// path, an archive member's name, a server's error) safe to print as one
// line of a terminal message. Such text is untrusted: a bell, a carriage
// return or an escape sequence in it would ring, overwrite the line before
// it or talk to the terminal, so that a warning could be made to read as
// something else.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line returns s as one printable line: carriage returns and line feeds
// become spaces, the other control characters (C0 but tab, DEL, and the C1
// controls, which some terminals take for CSI and OSC) are spelled \xHH.
// Text without any is returned as it is, without copying.
func Line(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isControl(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r' || r == '\n':
			b.WriteByte(' ')
		case isControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteString(s[i : i+n]) // invalid UTF-8 passes as it was
		}
		i += n
	}
	return b.String()
}

// isControl: the C0 controls but tab, DEL and the C1 controls.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0
}
