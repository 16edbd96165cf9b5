package decompress

import (
	"bytes"
	"math/bits"
	"slices"
	"strconv"
)

// Record kinds FindRecord reports: the byte between '~' and '#'.
const (
	KindM byte = 'm' // "~m#": a compressed backtrace
	KindB byte = 'b' // "~b#": one already decoded by lws's tool or by us
)

// FindRecord finds the record in a log line (FORMAT.md §6.3 rules 1–3):
// ANSI CSI escapes are removed, trailing whitespace is stripped, and the
// lead-in is the first "~m#" anywhere in the line; only a line without "~m#"
// is searched for "~b#". payload is everything after the lead-in (possibly
// empty). It allocates only when the line holds an escape sequence.
func FindRecord(line []byte) (payload []byte, kind byte, ok bool) {
	clean, _ := CleanLine(line, nil)
	i, kind := findLeadIn(clean)
	if i < 0 {
		return nil, 0, false
	}
	return clean[i+3:], kind, true
}

// CleanLine returns line without ANSI CSI escape sequences and trailing
// whitespace. It returns a subslice of line when there is nothing to remove
// but trailing whitespace, and otherwise builds the result in scratch
// (returned for reuse).
func CleanLine(line, scratch []byte) (clean, scratchOut []byte) {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		scratch = stripANSI(scratch[:0], line)
		line = scratch
	}
	return trimRightSpace(line), scratch
}

// findLeadIn returns the offset of the first "~m#", else of the first
// "~b#", else -1.
func findLeadIn(line []byte) (int, byte) {
	firstB := -1
	for from := 0; ; {
		i := bytes.IndexByte(line[from:], '~')
		if i < 0 {
			break
		}
		i += from
		if i+2 < len(line) && line[i+2] == '#' {
			switch line[i+1] {
			case 'm':
				return i, KindM
			case 'b':
				if firstB < 0 {
					firstB = i
				}
			}
		}
		from = i + 1
	}
	if firstB >= 0 {
		return firstB, KindB
	}
	return -1, 0
}

// stripANSI appends line to dst without its CSI sequences: ESC '[', bytes
// 0x30–0x3F, bytes 0x20–0x2F, one final byte 0x40–0x7E. An ESC that does not
// start a complete sequence is kept, so that it is reported, not hidden.
func stripANSI(dst, line []byte) []byte {
	for i := 0; i < len(line); {
		c := line[i]
		if c == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && line[j] >= 0x30 && line[j] <= 0x3f {
				j++
			}
			for j < len(line) && line[j] >= 0x20 && line[j] <= 0x2f {
				j++
			}
			if j < len(line) && line[j] >= 0x40 && line[j] <= 0x7e {
				i = j + 1
				continue
			}
		}
		dst = append(dst, c)
		i++
	}
	return dst
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

func trimRightSpace(b []byte) []byte {
	n := len(b)
	for n > 0 && isSpace(b[n-1]) {
		n--
	}
	return b[:n]
}

// AppendB appends bt as lws's decoder tool prints it, without its trailing
// space: "~b#size: 7520, 0x406651 0x406852" ("~b#size: 999," for depth 0).
func AppendB(dst []byte, bt Backtrace) []byte {
	dst = append(dst, "~b#size: "...)
	dst = strconv.AppendUint(dst, bt.Size, 10)
	dst = append(dst, ',')
	for _, pc := range bt.PCs {
		dst = append(dst, " 0x"...)
		dst = appendHex(dst, pc)
	}
	return dst
}

// appendHex appends v in lowercase hex without leading zeros
// (strconv.AppendUint is general and a third of the decode time).
func appendHex(dst []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	n := (bits.Len64(v|1) + 3) / 4
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	for i := n - 1; i >= 0; i-- {
		out[i] = digits[v&15]
		v >>= 4
	}
	return dst[:len(dst)+n]
}

// ParseB parses the text after a "~b#" lead-in ("size: N, 0x… 0x…", with or
// without lws's trailing space) into bt, reusing bt.PCs.
func ParseB(payload []byte, bt *Backtrace) error {
	p := payload
	if !bytes.HasPrefix(p, []byte("size:")) {
		return errorf(ErrBadBLine, `expected "size:" after ~b#`)
	}
	p = bytes.TrimLeft(p[len("size:"):], " ")
	n := 0
	for n < len(p) && p[n] >= '0' && p[n] <= '9' {
		n++
	}
	size, err := strconv.ParseUint(string(p[:n]), 10, 64)
	if err != nil {
		return errorf(ErrBadBLine, "size %q is not a decimal 64-bit number", p[:n])
	}
	p = p[n:]
	if len(p) == 0 || p[0] != ',' {
		return errorf(ErrBadBLine, "expected ',' after the size")
	}
	pcs := bt.PCs[:0]
	for _, tok := range bytes.Fields(p[1:]) {
		if len(tok) < 3 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') || len(tok) > 18 {
			return errorf(ErrBadBLine, "frame %d: %q is not a 0x-prefixed 64-bit hex address", len(pcs), tok)
		}
		v, err := strconv.ParseUint(string(tok[2:]), 16, 64)
		if err != nil {
			return errorf(ErrBadBLine, "frame %d: %q is not a 0x-prefixed 64-bit hex address", len(pcs), tok)
		}
		pcs = append(pcs, v)
	}
	bt.Size, bt.PCs = size, pcs
	return nil
}
