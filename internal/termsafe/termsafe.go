// Package termsafe makes text that came from an input (a log's frame or
// headline, a module path, an archive member's name, a server's error)
// safe to print on a terminal. Such text is untrusted: a bell, a carriage
// return, a backspace or an escape sequence in it would ring, overwrite
// what was printed before it or talk to the terminal, so that a function
// name or a warning could be made to read as something else.
//
// Every control character is spelled the same visible way, \xHH (its code
// point in hex): the C0 controls but tab, DEL, the C1 controls U+0080 to
// U+009F, and the bytes 0x80 to 0x9F that are not part of a UTF-8
// character (an 8-bit terminal takes 0x9B for CSI, as ESC [). ESC is
// spelled \x1b, so no escape sequence of an input reaches the terminal;
// the only ones sanitrace writes are its own colors. Other invalid UTF-8
// and printable characters pass as they are.
package termsafe

import (
	"strings"
	"unicode/utf8"
)

// Text returns s with every control character spelled \xHH, line feeds
// and carriage returns too: one field of a line (a frame's function, a
// path, a headline). Text without any is returned as it is, without
// copying.
func Text(s string) string {
	return escapeFrom(s, firstControl(s), escapeLF)
}

// Lines is Text for text of several lines (a Go frame as read is two):
// its line feeds stay, every other control character is spelled \xHH.
func Lines(s string) string {
	return escapeFrom(s, firstBesideLF(s), keepLF)
}

// LinesClean reports whether Lines returns s as it is: s holds no control
// character but line feeds. It is the check alone, for a caller that
// looks at many strings to learn whether any needs escaping.
func LinesClean(s string) bool { return firstBesideLF(s) == len(s) }

// firstBesideLF returns the index of the first control character of s
// other than a line feed, or len(s): line feeds alone need no copy.
func firstBesideLF(s string) int {
	i := firstControl(s)
	for i < len(s) && s[i] == '\n' {
		i += 1 + firstControl(s[i+1:])
	}
	return i
}

// escapeFrom returns s with its control characters from i on spelled
// \xHH (line feeds as lf says), s itself when i is its end.
func escapeFrom(s string, i, lf int) string {
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	appendEscaped(&b, s[i:], lf)
	return b.String()
}

// Line returns s as one printable line, for a message that may span lines
// (a wrapped error): line feeds become spaces, every other control
// character is spelled \xHH as Text spells it.
func Line(s string) string {
	return escapeFrom(s, firstControl(s), spaceLF)
}

// AppendLine appends the line b (as read from an input, with its line
// ending) to dst with its control characters spelled \xHH, and returns
// the extended slice. The line ending, "\n" or "\r\n", is kept: it ends
// the line, as in the input.
func AppendLine(dst, b []byte) []byte {
	body, end := b, []byte(nil)
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body, end = body[:n-1], body[n-1:]
		if n := len(body); n > 0 && body[n-1] == '\r' {
			body, end = body[:n-1], b[n-1:]
		}
	}
	s := string(body) // escaped lines are rare; the common case copies once
	i := firstControl(s)
	dst = append(dst, body[:i]...)
	if i < len(s) {
		var sb strings.Builder
		appendEscaped(&sb, s[i:], escapeLF)
		dst = append(dst, sb.String()...)
	}
	return append(dst, end...)
}

// firstControl returns the index of the first control character of s, or
// len(s). Eight bytes are tested at once while they are printable ASCII
// (all of most text: the check runs on every string a report shows); a
// word with a byte below 0x20 or from 0x7f up is looked at a byte at a
// time, and only bytes from 0x80 up are decoded.
func firstControl(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			v := s[i : i+8]
			w := uint64(v[0]) | uint64(v[1])<<8 | uint64(v[2])<<16 | uint64(v[3])<<24 |
				uint64(v[4])<<32 | uint64(v[5])<<40 | uint64(v[6])<<48 | uint64(v[7])<<56
			// A byte below 0x20 or from 0x7f up sets its high bit in one
			// of the terms (carries only leave bytes already flagged).
			if ((w-0x20*ones)&^w|(w+ones)|w)&highs == 0 {
				i += 8
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isC1(r, n, c) {
			return i
		}
		i += n
	}
	return len(s)
}

// isC1 reports whether the rune r of n bytes starting with byte c is a C1
// control, in UTF-8 or as a bare byte.
func isC1(r rune, n int, c byte) bool {
	if r == utf8.RuneError && n == 1 {
		return c >= 0x80 && c < 0xa0
	}
	return r >= 0x80 && r < 0xa0
}

const hexDigits = "0123456789abcdef"

// What appendEscaped makes of a line feed.
const (
	escapeLF = iota // \x0a
	spaceLF         // a space
	keepLF          // itself
)

// appendEscaped writes s with its control characters spelled \xHH, line
// feeds as lf says.
func appendEscaped(b *strings.Builder, s string, lf int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n' && lf == spaceLF:
				b.WriteByte(' ')
			case c == '\n' && lf == keepLF:
				b.WriteByte(c)
			case c < 0x20 && c != '\t' || c == 0x7f:
				b.WriteString(`\x`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isC1(r, n, c) {
			v := byte(r)
			if n == 1 {
				v = c
			}
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[v>>4])
			b.WriteByte(hexDigits[v&0xf])
		} else {
			b.WriteString(s[i : i+n]) // invalid UTF-8 from 0xa0 up passes as it was
		}
		i += n
	}
}
