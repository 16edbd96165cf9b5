package mutate

import (
	"bytes"
	"fmt"
)

// controls are the bytes a hostile log hides in its text: C0 controls,
// DEL, C1 controls in UTF-8, terminal sequences (erase, move, OSC 8
// hyperlinks, a title change), a NUL.
var controls = [][]byte{
	[]byte("\r"), []byte("\b\b\b\b"), []byte("\a"), []byte("\v"), []byte("\f"),
	[]byte("\x7f"), []byte("\x00"), []byte("\x1b"), []byte("\x1b[2J"), []byte("\x1b[1A\x1b[K"),
	[]byte("\x1b[31m"), []byte("\x1b]8;;https://example.invalid/\x1b\\link\x1b]8;;\x1b\\"),
	[]byte("\x1b]0;title\a"), []byte("\u0085"), []byte("\u009b2J"), []byte("\x9b"), []byte("\x1bP"),
	[]byte("\u202e"), // right-to-left override: not a control byte, but a favourite of spoofers
}

// badUTF8 are byte strings that are not UTF-8.
var badUTF8 = [][]byte{
	{0xff}, {0xfe, 0xff}, {0xc3}, {0xe2, 0x82}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}, {0xc0, 0xaf},
}

// extremes replace a number of a log: zero, the largest 64-bit values in
// decimal and hex, past 64 bits, negative, an empty hex number.
var extremes = []string{
	"0", "18446744073709551615", "18446744073709551616", "0xffffffffffffffff",
	"0x10000000000000000", "99999999999999999999999999", "-1", "0x", "2147483648", "4294967296",
}

// lines returns the start offsets of the lines of data; the last entry is
// len(data) when data ends with a newline or is empty.
func lines(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineAt returns the bounds [lo, hi) of line i, its newline included.
func lineAt(starts []int, n, i int) (int, int) {
	hi := n
	if i+1 < len(starts) {
		hi = starts[i+1]
	}
	return starts[i], hi
}

// textEdit makes one edit that knows lines.
func textEdit(r *Rand, b *buf, donors [][]byte) string {
	st := lines(b.data)
	nl := len(st)
	if st[nl-1] == len(b.data) && nl > 1 {
		nl-- // no empty line after the final newline
	}
	i := r.Intn(nl)
	lo, hi := lineAt(st, len(b.data), i)
	line := b.data[lo:hi]
	for {
		switch r.Intn(16) {
		case 0:
			k := min(r.Range(1, 3), nl-i)
			_, end := lineAt(st, len(b.data), i+k-1)
			b.data = splice3(b.data[:lo], nil, b.data[end:])
			return fmt.Sprintf("delete %d lines from line %d", k, i+1)
		case 1:
			k := min(r.Range(1, 5), nl-i)
			_, end := lineAt(st, len(b.data), i+k-1)
			times := r.Range(1, 3)
			if r.Percent(5) {
				times = r.Range(100, 2000)
			}
			block := append([]byte(nil), b.data[lo:end]...)
			if len(block) > 0 && block[len(block)-1] != '\n' {
				block = append(block, '\n')
			}
			b.data = splice3(b.data[:end], bytes.Repeat(block, times), b.data[end:])
			return fmt.Sprintf("repeat lines %d-%d x%d", i+1, i+k, times)
		case 2:
			if nl < 2 {
				continue
			}
			j := min(i+r.Range(1, 20), nl-1)
			if j == i {
				continue
			}
			jlo, jhi := lineAt(st, len(b.data), j)
			a, c := withNewline(b.data[lo:hi]), withNewline(b.data[jlo:jhi])
			b.data = splice3(splice3(b.data[:lo], c, b.data[hi:jlo]), a, b.data[jhi:])
			return fmt.Sprintf("swap lines %d and %d", i+1, j+1)
		case 3:
			if len(donors) == 0 {
				continue
			}
			d := donors[r.Intn(len(donors))]
			dst := lines(d)
			k := r.Intn(len(dst))
			dlo, _ := lineAt(dst, len(d), k)
			_, dhi := lineAt(dst, len(d), min(k+r.Range(0, 9), len(dst)-1))
			block := withNewline(d[dlo:dhi])
			b.data = splice3(b.data[:lo], block, b.data[lo:])
			return fmt.Sprintf("insert %d donor bytes before line %d", len(block), i+1)
		case 4, 5:
			c := controls[r.Intn(len(controls))]
			p := lo + r.Intn(max(1, len(bytes.TrimSuffix(line, []byte("\n")))))
			b.data = splice3(b.data[:p], c, b.data[p:])
			return fmt.Sprintf("insert control %q in line %d", c, i+1)
		case 6, 7:
			start, end, ok := number(r, line)
			if !ok {
				continue
			}
			x := extremes[r.Intn(len(extremes))]
			b.data = splice3(b.data[:lo+start], []byte(x), b.data[lo+end:])
			return fmt.Sprintf("number %q in line %d -> %s", line[start:end], i+1, x)
		case 8:
			body := len(bytes.TrimSuffix(line, []byte("\n")))
			end := lo + body // keep the newline
			if r.Percent(30) {
				end = hi
			}
			if end == lo {
				continue
			}
			p := lo + r.Intn(end-lo)
			b.data = splice3(b.data[:p], nil, b.data[end:])
			return fmt.Sprintf("cut line %d at column %d", i+1, p-lo)
		case 9:
			if hi == lo || b.data[hi-1] != '\n' {
				continue
			}
			b.data = splice3(b.data[:hi-1], nil, b.data[hi:])
			return fmt.Sprintf("join lines %d and %d", i+1, i+2)
		case 10:
			if !r.Percent(30) {
				continue // long lines are slow to check: fewer of them
			}
			size := []int{4097, 65537, 1<<20 + 1}[r.Intn(3)]
			unit := bytes.TrimSuffix(line, []byte("\n"))
			if len(unit) == 0 {
				unit = []byte("x")
			}
			long := append(bytes.Repeat(unit, size/len(unit)+1)[:size], '\n')
			b.data = splice3(b.data[:lo], long, b.data[lo:])
			return fmt.Sprintf("insert a %d-byte line before line %d", size, i+1)
		case 11:
			if hi > lo && b.data[hi-1] == '\n' {
				if hi-2 >= lo && b.data[hi-2] == '\r' {
					b.data = splice3(b.data[:hi-2], nil, b.data[hi-1:])
					return fmt.Sprintf("CRLF -> LF on line %d", i+1)
				}
				b.data = splice3(b.data[:hi-1], []byte("\r"), b.data[hi-1:])
				return fmt.Sprintf("LF -> CRLF on line %d", i+1)
			}
		case 12:
			bad := badUTF8[r.Intn(len(badUTF8))]
			p := lo + r.Intn(max(1, hi-lo))
			b.data = splice3(b.data[:p], bad, b.data[p:])
			return fmt.Sprintf("insert % x (not UTF-8) in line %d", bad, i+1)
		case 13:
			if op, ok := base64Edit(r, b); ok {
				return op
			}
		case 14:
			if op, ok := markupEdit(r, b); ok {
				return op
			}
		case 15:
			if len(donors) == 0 {
				continue
			}
			k := r.Intn(len(donors))
			block := withNewline(donors[k])
			at, where := lo, fmt.Sprintf("before line %d", i+1)
			if n := len(b.data); n > 0 && b.data[n-1] == '\n' && r.Percent(30) {
				at, where = n, "at the end"
			}
			b.data = splice3(b.data[:at], block, b.data[at:])
			b.whole = k + 1
			return fmt.Sprintf("insert donor %d whole (%d bytes) %s", k, len(block), where)
		}
	}
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b
	}
	return append(append([]byte(nil), b...), '\n')
}

// number returns the bounds of a random number token of line: a 0x hex
// number or a run of digits.
func number(r *Rand, line []byte) (int, int, bool) {
	type span struct{ lo, hi int }
	var spans []span
	for i := 0; i < len(line); {
		c := line[i]
		if c < '0' || c > '9' {
			i++
			continue
		}
		j := i + 1
		if c == '0' && j < len(line) && (line[j] == 'x' || line[j] == 'X') {
			j++
			for j < len(line) && isHex(line[j]) {
				j++
			}
		} else {
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
		}
		spans = append(spans, span{i, j})
		i = j
	}
	if len(spans) == 0 {
		return 0, 0, false
	}
	s := spans[r.Intn(len(spans))]
	return s.lo, s.hi, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

const b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func isB64(c byte) bool { return bytes.IndexByte([]byte(b64chars+"="), c) >= 0 }

// base64Edit changes the payload of a libwebsockets "~m#" record: one
// character replaced by another base64 character (the record stays well
// formed, its bits do not), one removed or added, or the payload cut.
func base64Edit(r *Rand, b *buf) (string, bool) {
	var at []int
	for i := 0; ; {
		j := bytes.Index(b.data[i:], []byte("~m#"))
		if j < 0 {
			break
		}
		at = append(at, i+j+3)
		i += j + 3
	}
	if len(at) == 0 {
		return "", false
	}
	start := at[r.Intn(len(at))]
	end := start
	for end < len(b.data) && isB64(b.data[end]) {
		end++
	}
	if end == start {
		return "", false
	}
	p := start + r.Intn(end-start)
	switch r.Intn(4) {
	case 0, 1:
		c := b64chars[r.Intn(64)]
		b.data[p] = c
		return fmt.Sprintf("~m# payload: set %q at %s", c, b.at(p)), true
	case 2:
		b.data = splice3(b.data[:p], nil, b.data[p+1:])
		return fmt.Sprintf("~m# payload: delete a character at %s", b.at(p)), true
	default:
		b.data = splice3(b.data[:p], nil, b.data[end:])
		return fmt.Sprintf("~m# payload: cut at %s", b.at(p)), true
	}
}

// markupEdit changes one ':'-separated field of a symbolizer markup
// element ("{{{bt:3:0x1234}}}"): emptied, made extreme, lengthened,
// given another colon, or the element's closing braces dropped.
func markupEdit(r *Rand, b *buf) (string, bool) {
	var at []int
	for i := 0; ; {
		j := bytes.Index(b.data[i:], []byte("{{{"))
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + 3
	}
	if len(at) == 0 {
		return "", false
	}
	start := at[r.Intn(len(at))]
	end := bytes.Index(b.data[start:], []byte("}}}"))
	if end < 0 {
		return "", false
	}
	end += start
	if r.Percent(10) {
		b.data = splice3(b.data[:end], nil, b.data[end+3:])
		return fmt.Sprintf("markup at %s: closing braces dropped", b.at(start)), true
	}
	// Field bounds inside the element's body.
	var bounds []int
	bounds = append(bounds, start+3)
	for i := start + 3; i < end; i++ {
		if b.data[i] == ':' {
			bounds = append(bounds, i+1)
		}
	}
	k := r.Intn(len(bounds))
	flo := bounds[k]
	fhi := end
	if k+1 < len(bounds) {
		fhi = bounds[k+1] - 1
	}
	var repl []byte
	switch r.Intn(5) {
	case 0:
	case 1:
		repl = []byte(extremes[r.Intn(len(extremes))])
	case 2:
		repl = bytes.Repeat([]byte("A"), r.Range(256, 70000))
	case 3:
		repl = append(append([]byte(nil), b.data[flo:fhi]...), ':')
	default:
		repl = append(append([]byte(nil), b.data[flo:fhi]...), controls[r.Intn(len(controls))]...)
	}
	b.data = splice3(b.data[:flo], repl, b.data[fhi:])
	return fmt.Sprintf("markup at %s: field %d -> %d bytes", b.at(start), k, len(repl)), true
}
