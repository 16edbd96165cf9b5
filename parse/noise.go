package parse

import (
	"bytes"
	"strings"
)

// prefix is the noise a log writer puts before every line (a timestamp,
// "[job 3] ", "svc_1  | ", "stderr: "), learnt from a report's first line.
// Runs of digits that belong to a date or time may differ from line to
// line; everything else must match exactly.
type prefix struct {
	text     string
	variable []bool // per byte of text: part of a variable digit run
}

func newPrefix(text string) prefix {
	p := prefix{text: text}
	if text == "" {
		return p
	}
	p.variable = make([]bool, len(text))
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		before, after := byte(0), byte(0)
		if i > 0 {
			before = text[i-1]
		}
		if j < len(text) {
			after = text[j]
		}
		// A tab after a leading number: DebugView's line number.
		if strings.IndexByte("-:./,", before) >= 0 || strings.IndexByte("-:./,TZ", after) >= 0 || i == 0 && after == '\t' {
			for k := i; k < j; k++ {
				p.variable[k] = true
			}
		}
		i = j
	}
	return p
}

// strip returns line without the prefix, or false when line doesn't carry
// it. A line that is the prefix minus trailing blanks is an empty line.
func (p prefix) strip(line []byte) ([]byte, bool) {
	if p.text == "" {
		return line, true
	}
	i, j := 0, 0
	for i < len(p.text) {
		if p.variable[i] {
			for i < len(p.text) && p.variable[i] {
				i++
			}
			k := j
			for k < len(line) && isDigit(line[k]) {
				k++
			}
			if k == j {
				return line, false
			}
			j = k
			continue
		}
		if j >= len(line) {
			// "svc_1  |" for an empty line: the rest of the prefix is blank.
			if strings.TrimRight(p.text[i:], " \t") == "" {
				return line[j:], true
			}
			return line, false
		}
		if line[j] != p.text[i] {
			if strings.TrimRight(p.text[i:], " \t") == "" && len(bytes.TrimRight(line[j:], " \t")) == 0 {
				return line[len(line):], true
			}
			return line, false
		}
		i++
		j++
	}
	return line[j:], true
}

// splitKnownPrefix recognises the common line prefixes of CI and container
// logs at the start of s, where a report's own first line gives no marker
// to split at (UBSan's "file:line:col: runtime error", stack dumps): ISO
// timestamps, "[...] " tags, GitHub's "##[error]", "name: " and
// docker-compose's "svc_1  | ". It returns the length of the prefix.
func splitKnownPrefix(s []byte) int {
	n := 0
	// A pasted log indented as a whole ("    [  12.3] BUG: ...").
	if k := spaces(s); k > 0 && k < len(s) && knownPrefixAt(s[k:]) > 0 {
		n = k
	}
	prev := -1 // where the last piece starts
	for {
		m := knownPrefixAt(s[n:])
		if m == 0 {
			return n
		}
		// After a logger's tag ("A/DEBUG: ") the line's text starts,
		// even when it reads as "name: " ("pid: 1, tid: 1 ...").
		if prev >= 0 && nameColon(s[n:n+m]) && bytes.HasSuffix(s[prev:n], []byte(": ")) && formatPrefixAt(s[prev:]) == n-prev {
			return n
		}
		prev = n
		n += m
	}
}

func knownPrefixAt(s []byte) int {
	if len(s) == 0 {
		return 0
	}
	if m := timestampLen(s); m > 0 {
		return m
	}
	if m := syslogLen(s); m > 0 {
		return m
	}
	if m := debugViewLen(s); m > 0 {
		return m
	}
	if m := dmesgLevelLen(s); m > 0 {
		return m
	}
	if m := formatPrefixAt(s); m > 0 {
		return m
	}
	switch {
	case s[0] == '>' && (len(s) == 1 || s[1] == ' ' || s[1] == '>'):
		// e-mail and markdown quoting: "> ", "> > ", ">> "
		return 1 + spaces(s[1:])
	case s[0] == '|' && (len(s) == 1 || s[1] == ' '):
		return 1 + spaces(s[1:])
	case bytes.HasPrefix(s, []byte("##[")):
		if e := bytes.IndexByte(s, ']'); e > 0 {
			return e + 1 + spaces(s[e+1:])
		}
	case s[0] == '[' && len(s) > 1 && s[1] != '<': // not a kernel frame's "[<ffffffff8100a1b2>]"
		e := bytes.IndexByte(s, ']')
		if e > 1 && e < 40 && e+1 < len(s) && s[e+1] == ' ' && bytes.IndexByte(s[1:e], '[') < 0 {
			return e + 1 + spaces(s[e+1:])
		}
	}
	// "stderr: ", "svc_1  | "
	w := 0
	for w < len(s) && w < 40 && (isIdent(s[w]) || s[w] == '-') {
		w++
	}
	if w > 0 && w < len(s) {
		if s[w] == ':' && w+1 < len(s) && s[w+1] == ' ' && !isDigit(s[0]) {
			return w + 2
		}
		k := w + spaces(s[w:])
		if k > w && k+1 < len(s) && s[k] == '|' && s[k+1] == ' ' {
			return k + 2
		}
	}
	return 0
}

// debugViewLen matches the columns Sysinternals DebugView saves in front
// of every line it captured (a Windows program's OutputDebugString
// output, ASan's on Windows among it): the line number and the time,
// elapsed seconds or the clock's, each ended by a tab ("00000044\t
// 22:39:53\t", "12\t0.00123400\t", "7\t9:39:53 PM\t"). The writer's
// "[pid] " that follows with "Show Process ID" on is the common bracket
// prefix.
func debugViewLen(s []byte) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '\t' {
		return 0
	}
	j := i + 1
	for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == ':') {
		j++
	}
	if j == i+1 {
		return 0
	}
	if rest := s[j:]; bytes.HasPrefix(rest, []byte(" AM")) || bytes.HasPrefix(rest, []byte(" PM")) {
		j += 3
	}
	if j >= len(s) || s[j] != '\t' {
		return 0
	}
	return j + 1
}

// dmesgLevelLen matches the facility and level `dmesg -x` prints before
// the timestamp ("kern  :warn  : ", "kern :err : " once a script squeezed
// the blanks), which differ from line to line of one report.
func dmesgLevelLen(s []byte) int {
	if len(s) < 10 || s[0] < 'a' || s[0] > 'z' {
		return 0
	}
	word := func(i int, words []string) int {
		for _, w := range words {
			if len(s) >= i+len(w) && string(s[i:i+len(w)]) == w {
				j := i + len(w)
				j += spaces(s[j:])
				if j < len(s) && s[j] == ':' {
					return j + 1
				}
			}
		}
		return 0
	}
	i := word(0, dmesgFacilities)
	if i == 0 {
		return 0
	}
	i = word(i, dmesgLevels)
	if i == 0 || i >= len(s) || s[i] != ' ' {
		return 0
	}
	return i + spaces(s[i:])
}

var (
	dmesgFacilities = []string{"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news"}
	dmesgLevels     = []string{"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug"}
)

// formatPrefixAt is the length of a format's own line prefix at the
// start of s (format.prefix), 0 when there is none.
func formatPrefixAt(s []byte) int {
	for _, f := range prefixedFormats {
		if m := f.prefix(s); m > 0 {
			return m
		}
	}
	return 0
}

// nameColon reports whether p, a prefix knownPrefixAt found, is a bare
// "name: ", which may as well be the text of the line.
func nameColon(p []byte) bool {
	n := len(p)
	if n < 3 || p[n-2] != ':' || p[n-1] != ' ' {
		return false
	}
	for _, c := range p[:n-2] {
		if !isIdent(c) && c != '-' {
			return false
		}
	}
	return true
}

// timestampLen matches "2024-01-02T03:04:05.123Z " and "2024-01-02 03:04:05,123 "
// (with optional fraction and zone) and "03:04:05.123 ".
func timestampLen(s []byte) int {
	i := 0
	digits := func(n int) bool {
		for k := 0; k < n; k++ {
			if i >= len(s) || !isDigit(s[i]) {
				return false
			}
			i++
		}
		return true
	}
	lit := func(c byte) bool {
		if i < len(s) && s[i] == c {
			i++
			return true
		}
		return false
	}
	if digits(4) && lit('-') && digits(2) && lit('-') && digits(2) {
		if !(lit('T') || lit(' ')) {
			return 0
		}
	} else {
		i = 0
	}
	if !(digits(2) && lit(':') && digits(2) && lit(':') && digits(2)) {
		return 0
	}
	if lit('.') || lit(',') {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if !lit('Z') && i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
		for i < len(s) && (isDigit(s[i]) || s[i] == ':') {
			i++
		}
	}
	if i >= len(s) || (s[i] != ' ' && s[i] != '\t') {
		return 0
	}
	return i + spaces(s[i:])
}

func spaces(s []byte) int {
	n := 0
	for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	return n
}

// syslogLen matches the BSD syslog prefix of /var/log/messages, kern.log
// and journalctl: "Nov 24 18:02:11 buildhost kernel: ", with an optional
// "[pid]" after the tag.
func syslogLen(s []byte) int {
	if len(s) < 16 || !isUpper(s[0]) || !isLower(s[1]) || !isLower(s[2]) || s[3] != ' ' {
		return 0
	}
	i := 4
	if s[i] == ' ' {
		i++
	}
	for k := 0; k < 2 && i < len(s) && isDigit(s[i]); k++ {
		i++
	}
	if i >= len(s) || s[i] != ' ' {
		return 0
	}
	i++
	m := timestampLen(s[i:])
	if m == 0 {
		return 0
	}
	i += m
	h := i // host
	for i < len(s) && s[i] != ' ' {
		i++
	}
	if i == h || i >= len(s) {
		return 0
	}
	i++
	t := i // tag
	for i < len(s) && (isIdent(s[i]) || s[i] == '-' || s[i] == '.' || s[i] == '/') {
		i++
	}
	if i == t {
		return 0
	}
	if i < len(s) && s[i] == '[' {
		for i < len(s) && s[i] != ']' {
			i++
		}
		i++
	}
	if i+1 >= len(s) || s[i] != ':' || s[i+1] != ' ' {
		return 0
	}
	return i + 2
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
