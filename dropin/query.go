package dropin

import (
	hexenc "encoding/hex"
	"math/bits"
	"strings"
)

// command is the kind of an llvm-symbolizer query line.
type command int

const (
	cmdCode command = iota
	cmdData
	cmdFrame
)

// query is one parsed llvm-symbolizer request.
type query struct {
	cmd    command
	module string // what the module cache opens: a path, or "BUILDID:<hex>"
	shown  string // the module as answers name it, when not module
	offset uint64
}

// moduleName is the module as the answer's ModuleName shows it: for a
// BUILDID: query, the build-id in hex (as newer llvm-symbolizers print it).
func (q query) moduleName() string {
	if q.shown != "" {
		return q.shown
	}
	return q.module
}

// buildIDPrefix introduces a module named by its GNU build-id, a query
// form llvm-symbolizer 15 added (14 reads it as a file name): the binary is
// looked up as .build-id/xx/rest.debug under the debug-file directories.
const buildIDPrefix = "BUILDID:"

// parseQuery is llvm-symbolizer 14's parseCommand. obj is the --obj value
// ("" when the module comes from the line). It returns the module name
// parsed so far even when the line is invalid: the JSON error object
// reports it.
func parseQuery(line, obj string) (q query, ok bool) {
	switch {
	case strings.HasPrefix(line, "CODE "):
		q.cmd, line = cmdCode, line[len("CODE "):]
	case strings.HasPrefix(line, "DATA "):
		q.cmd, line = cmdData, line[len("DATA "):]
	case strings.HasPrefix(line, "FRAME "):
		q.cmd, line = cmdFrame, line[len("FRAME "):]
	}
	pos := line
	if obj == "" {
		pos = skipDelims(pos)
		// Newer llvm-symbolizers also take "FILE:" before a path and
		// "BUILDID:<hex>" instead of one.
		pos = strings.TrimPrefix(pos, "FILE:")
		if rest, ok := strings.CutPrefix(pos, buildIDPrefix); ok {
			n := indexDelim(rest)
			id := rest[:n]
			if _, err := hexenc.DecodeString(id); err != nil || id == "" {
				return q, false
			}
			q.module, q.shown = buildIDPrefix+strings.ToLower(id), id
			pos = rest[n:]
		} else if pos != "" && (pos[0] == '"' || pos[0] == '\'') {
			quote := pos[0]
			end := strings.IndexByte(pos[1:], quote)
			if end < 0 {
				return q, false
			}
			q.module = pos[1 : 1+end]
			pos = pos[2+end:]
		} else {
			n := indexDelim(pos)
			q.module, pos = pos[:n], pos[n:]
		}
	} else {
		q.module = obj
	}
	pos = skipDelims(pos)
	n := indexDelim(pos)
	off, ok := parseLLVMInteger(pos[:n])
	q.offset = off
	return q, ok
}

// isDelim reports whether c is one of the separators llvm-symbolizer 14
// uses between a line's words: space, line feed, carriage return (a tab is
// not one). It and the two below are strings.TrimLeft and IndexAny over
// those, written out: a batch parses every stdin line on one goroutine
// while the others wait, and those built their byte set on every call.
func isDelim(c byte) bool { return c == ' ' || c == '\n' || c == '\r' }

func skipDelims(s string) string {
	i := 0
	for i < len(s) && isDelim(s[i]) {
		i++
	}
	return s[i:]
}

// indexDelim returns the index of the first separator in s, len(s) when
// there is none.
func indexDelim(s string) int {
	i := 0
	for i < len(s) && !isDelim(s[i]) {
		i++
	}
	return i
}

// parseLLVMInteger is StringRef::getAsInteger(0, uint64): the radix from
// the prefix (0x/0X hex, 0b/0B binary, 0o or a leading 0 octal, else
// decimal), the whole string consumed, no overflow.
func parseLLVMInteger(s string) (uint64, bool) {
	radix := uint64(10)
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		radix, s = 16, s[2:]
	case strings.HasPrefix(s, "0b"), strings.HasPrefix(s, "0B"):
		radix, s = 2, s[2:]
	case strings.HasPrefix(s, "0o"):
		radix, s = 8, s[2:]
	case len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9':
		radix, s = 8, s[1:]
	}
	return parseRadix(s, radix)
}

// parseRadix consumes all of s as digits of radix; empty or overflowing
// input fails.
func parseRadix(s string, radix uint64) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	var v uint64
	if radix == 16 {
		// The usual query: a digit is 4 bits, and v overflows exactly
		// when its top 4 bits are set before the shift.
		for i := 0; i < len(s); i++ {
			d, ok := digitValue(s[i])
			if !ok || d >= 16 || v>>60 != 0 {
				return 0, false
			}
			v = v<<4 | d
		}
		return v, true
	}
	for i := 0; i < len(s); i++ {
		d, ok := digitValue(s[i])
		if !ok || d >= radix {
			return 0, false
		}
		hi, lo := bits.Mul64(v, radix)
		if hi != 0 {
			return 0, false
		}
		lo, carry := bits.Add64(lo, d, 0)
		if carry != 0 {
			return 0, false
		}
		v = lo
	}
	return v, true
}

func digitValue(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// parseLLVMSigned is getAsInteger for a signed 32-bit int: an optional '-'
// then parseLLVMInteger.
func parseLLVMSigned(s string) (int, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	v, ok := parseLLVMInteger(s)
	if !ok {
		return 0, false
	}
	if neg {
		if v > 1<<31 {
			return 0, false
		}
		return -int(v), true
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return int(v), true
}
