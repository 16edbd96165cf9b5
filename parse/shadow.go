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
	_, ok := scanShadowRow(line, &row)
	return row, ok
}

// shadowRowLen returns how many shadow bytes line holds when it is a
// shadow row, allocating nothing: whether a line stands alone is asked of
// every line of a report's shadow dump before the line is taken.
func shadowRowLen(line string) (int, bool) { return scanShadowRow(line, nil) }

// scanShadowRow reads line as a shadow row, filling row unless it is nil,
// and returns its number of bytes.
func scanShadowRow(line string, row *report.ShadowRow) (n int, ok bool) {
	s, current := strings.CutPrefix(line, "=>")
	s = strings.TrimLeft(s, " ")
	colon := strings.IndexByte(s, ':')
	if colon < 3 || !strings.HasPrefix(s, "0x") || !allHex(s[2:colon]) {
		return 0, false
	}
	if row != nil {
		row.Current, row.Address = current, s[:colon]
		row.Bytes = make([]string, 0, 16)
	}
	marked := -1
	s = s[colon+1:]
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == ']':
			i++
		case c == '[':
			marked = n
			i++
		case i+1 < len(s) && isHex(c) && isHex(s[i+1]):
			if row != nil {
				row.Bytes = append(row.Bytes, hexBytes[hexVal(c)<<4|hexVal(s[i+1])])
			}
			n++
			i += 2
		default:
			return 0, false
		}
	}
	// A "[" must open a byte that follows it; "00[" at the end of a
	// cut-off row marks nothing.
	if n == 0 || marked >= n {
		return 0, false
	}
	if row != nil {
		row.Marked = marked
	}
	return n, true
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
