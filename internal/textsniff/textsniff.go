// Package textsniff tells a log from binary data by its first bytes: the
// one rule that decode (which refuses binary data with an error) and batch
// (which skips it among a CI job's artifacts) both follow, so that batch
// reads every file that decode would read as a log.
package textsniff

import (
	"encoding/binary"
	"unicode/utf8"
)

// Binary reports whether head, the start of an input, is binary data
// rather than text:
//
//   - NUL bytes in more than 1% of it: text has none, object files,
//     images and core dumps are full of them. One stray NUL (a torn
//     write) is not enough.
//   - control characters other than the whitespace, backspace and escape
//     that logs use in more than a tenth of it: a log with a bell or a
//     carriage return on every line is still a log.
//   - bytes that are not UTF-8 in more than a tenth of it: compressed and
//     encrypted data (a PNG, a .jar) is mostly such bytes, where a Latin-1
//     log has a few accented letters.
func Binary(head []byte) bool { return binaryData(head, true) }

// binaryData is Binary; skip passes over eight printable bytes at a time
// (without: byte by byte, FuzzBinary's reference).
func binaryData(head []byte, skip bool) bool {
	nul, ctl, bad := 0, 0, 0
	for i := 0; i < len(head); {
		if skip && i+8 <= len(head) && printable(binary.LittleEndian.Uint64(head[i:])) {
			i += 8 // most of a log: eight bytes that count for nothing
			continue
		}
		c := head[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(head[i:])
			if r == utf8.RuneError && n == 1 && len(head)-i >= utf8.UTFMax { // a cut character at the end is not bad
				bad++
			}
			i += n
			continue
		}
		switch {
		case c == 0:
			nul++
			ctl++
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b && c != '\b':
			ctl++
		case c == 0x7f:
			ctl++
		}
		i++
	}
	return nul*100 > len(head) || ctl*10 > len(head) || bad*10 > len(head)
}

// printable reports whether each of the eight bytes of w is in ' '..'~':
// none is counted by Binary. (Borrows of the subtraction cross bytes only
// from a byte below ' ', which is then found anyway.)
func printable(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - ones*' ') & ^w & highs // a byte below ' ' (or one above 0x7f)
	del := (w ^ ones*0x7f)
	isDel := (del - ones) & ^del & highs // a byte equal to 0x7f
	return w&highs == 0 && below == 0 && isDel == 0
}
