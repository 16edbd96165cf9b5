package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

const (
	shadowHeader = "Shadow bytes around the buggy address:"
	legendHeader = "Shadow byte legend (one shadow byte represents "
)

// hexBytes interns the 256 two-digit shadow byte strings, so rows cost one
// slice each.
var hexBytes = func() (t [256]string) {
	for i := range t {
		t[i] = strconv.FormatInt(int64(0x100+i), 16)[1:]
	}
	return t
}()

// parseShadowRow parses "=>0x0c067fff8000: fa fa 00[fd]fd fd" (the guilty
// row) or "  0x0c067fff7fb0: 00 00 ..." (compiler-rt asan_errors.cpp).
func parseShadowRow(line string) (report.ShadowRow, bool) {
	row := report.ShadowRow{Marked: -1}
	s := line
	if strings.HasPrefix(s, "=>") {
		row.Current = true
		s = s[2:]
	}
	s = strings.TrimLeft(s, " ")
	colon := strings.IndexByte(s, ':')
	if colon < 3 || !strings.HasPrefix(s, "0x") || !allHex(s[2:colon]) {
		return row, false
	}
	row.Address = s[:colon]
	s = s[colon+1:]
	row.Bytes = make([]string, 0, 16)
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == ']':
			i++
		case c == '[':
			row.Marked = len(row.Bytes)
			i++
		case i+1 < len(s) && isHex(c) && isHex(s[i+1]):
			row.Bytes = append(row.Bytes, hexBytes[hexVal(c)<<4|hexVal(s[i+1])])
			i += 2
		default:
			return row, false
		}
	}
	// A "[" must open a byte that follows it; "00[" at the end of a
	// cut-off row marks nothing.
	if len(row.Bytes) == 0 || row.Marked >= len(row.Bytes) {
		return row, false
	}
	return row, true
}

// parseLegendRow parses "  Heap left redzone:       fa" or
// "  Partially addressable: 01 02 03 04 05 06 07 ".
func parseLegendRow(line string) (name string, bytes []string, ok bool) {
	name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
	if !ok || name == "" {
		return "", nil, false
	}
	for _, f := range strings.Fields(rest) {
		if len(f) != 2 || !isHex(f[0]) || !isHex(f[1]) {
			return "", nil, false
		}
		bytes = append(bytes, strings.ToLower(f))
	}
	return name, bytes, len(bytes) > 0
}

// parseLegendHeader returns N of "Shadow byte legend (one shadow byte
// represents N application bytes):".
func parseLegendHeader(t string) (int, bool) {
	rest, ok := strings.CutPrefix(t, legendHeader)
	if !ok {
		return 0, false
	}
	n, _, _ := strings.Cut(rest, " ")
	g, err := strconv.Atoi(n)
	return g, err == nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}
