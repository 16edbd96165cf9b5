package parse

import "bytes"

// Terminal control sequences in log lines. A CI log keeps what the
// program wrote for a terminal: colors, cursor and mode changes, window
// titles, hyperlinks, character-set switches. None of it is text, and any
// of it can stand before or inside the words the parser looks for, so
// every line is read without them (ECMA-48, 5th edition, and the xterm
// control sequences that follow its syntax):
//
//   - CSI: ESC [, parameter bytes 0x30-0x3F (private modes start with
//     "?", ">", "<" or "="), intermediate bytes 0x20-0x2F, one final byte
//     0x40-0x7E: "\e[1;31m", "\e[?25l", "\e[>4;1m", "\e[2K".
//   - Control strings: OSC (ESC ]), DCS (ESC P), SOS (ESC X), PM (ESC ^)
//     and APC (ESC _) run to ST (ESC \) or BEL, which xterm takes for OSC
//     and others copy: window titles "\e]0;title\a", hyperlinks
//     "\e]8;;URL\e\\text\e]8;;\e\\". A string without its terminator ends
//     at the end of the line, as a log line is all a reader has.
//   - nF escapes: ESC, intermediate bytes 0x20-0x2F, a final byte
//     0x30-0x7E: character-set designators "\e(B" (what "tput sgr0"
//     prints before "\e[m"), "\e)0", "\e%G", "\e#8".
//   - Two-byte escapes ESC 0x30-0x7E: single shifts SS2 and SS3
//     ("\eN", "\eO"), "\e7", "\e8", "\e=", "\e>", "\eM", "\ec", a stray ST.
//   - C0 controls that change nothing a reader sees: NUL (a fill byte in
//     ECMA-48, also what a torn write leaves), BEL, the locking shifts SO
//     and SI ("tput sgr0" under screen and tmux ends in SI), DEL, and the
//     other C0 bytes. Tab, backspace, CR, LF, VT and FF stay: they place
//     text.
//
// C1 controls as single bytes (0x9B for CSI, ...) are not recognised: in a
// UTF-8 log those bytes are parts of characters.

// hasControls reports whether line needs appendStripEscapes: it has an ESC
// or a NUL. Lines with other C0 controls but neither are left as they are
// (two byte searches per line cost little; a byte-by-byte test of every
// line would cost a third of the scanner's time on lines without reports).
func hasControls(line []byte) bool {
	return bytes.IndexByte(line, 0x1b) >= 0 || bytes.IndexByte(line, 0) >= 0
}

// StripEscapes returns s without terminal control sequences and without
// the C0 controls that show nothing (see above).
func StripEscapes(s string) string {
	if !hasControls([]byte(s)) {
		return s
	}
	return string(appendStripEscapes(nil, []byte(s)))
}

// appendStripEscapes appends b without its control sequences to dst.
func appendStripEscapes(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c != 0x1b {
			if !invisibleC0(c) {
				dst = append(dst, c)
			}
			i++
			continue
		}
		i = escapeEnd(b, i)
	}
	return dst
}

// invisibleC0 reports whether c is a control byte that is dropped.
func invisibleC0(c byte) bool {
	if c >= 0x20 {
		return c == 0x7f
	}
	switch c {
	case '\t', '\n', '\v', '\f', '\r', '\b':
		return false
	}
	return true
}

// escapeEnd returns the index just past the escape sequence that starts
// with the ESC at b[i].
func escapeEnd(b []byte, i int) int {
	j := i + 1
	if j >= len(b) {
		return j
	}
	switch c := b[j]; {
	case c == '[': // CSI
		j++
		for j < len(b) && b[j] >= 0x30 && b[j] <= 0x3f {
			j++
		}
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && b[j] >= 0x40 && b[j] <= 0x7e {
			j++
		}
		// A malformed sequence ends before the byte that broke it.
		return j
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_': // control strings
		for j++; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
		}
		return j
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && b[j] >= 0x30 && b[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: one byte
		return j + 1
	}
	// ESC before a control byte or DEL: only the ESC goes (the byte is
	// judged on its own).
	return j
}
