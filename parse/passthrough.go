package parse

import (
	"strings"
	"unicode/utf8"
)

// What a caller that gives the whole input back (decode --passthrough)
// needs of the Scanner: which lines are settled as outside every report,
// and which lines inside a report's range were another writer's.

// Undecided returns the number of the first line read so far that may
// still become part of a report that Next has not returned yet; the next
// line to be read when there is none. Every line before it that no
// returned report covers is program output, and can be shown now: the
// Scanner holds back only what its lookahead needs (a report being read,
// a line that may be joined with its wrapped rest, a ruler that may open
// a Go race or kernel report).
func (s *Scanner) Undecided() int {
	u := s.lineNo + 1
	low := func(n int) {
		if n > 0 && n < u {
			u = n
		}
	}
	for _, r := range s.ready {
		low(r.Input.FirstLine)
	}
	if s.cur != nil {
		low(s.cur.rep.Input.FirstLine)
	}
	if s.held != nil {
		low(s.held.no)
	}
	if s.idleHeld != nil {
		low(s.idleHeld.no)
	}
	for _, q := range s.redo {
		low(q.no)
	}
	if s.lws.rep != nil {
		low(s.lws.rep.Input.FirstLine)
	}
	// A damaged line (NUL, invalid UTF-8) may turn out to be a report's
	// headline when frame lines follow it (repairBefore, damage.go).
	r := &s.recent
	for k := 1; k <= recentMax && k <= r.n; k++ {
		i := (r.n - k) % recentMax
		if r.no[i] <= s.reportLine || s.lineNo-r.no[i] >= recentMax {
			break
		}
		if len(r.text[i]) > 0 && (r.damaged[i] || !utf8.Valid(r.text[i])) {
			low(r.no[i])
		}
	}
	if s.lastIdleNo == s.lineNo && (mayOpenDump(s.dumpTitle()) || gpfStart(s.lastIdle)) {
		// a dump starting on the next line takes it as its own; a
		// headline's first piece waits for its wrapped rest (unwrap.go)
		low(s.lastIdleNo)
	}
	return u
}

// mayOpenDump reports whether t is a line that a report starting on the
// next line includes as its first (includesPrev in dump.go).
func mayOpenDump(t string) bool {
	return isSeparator(t, '=') || strings.HasPrefix(t, "------------[ cut here ]")
}

// KeepForeign makes the Scanner remember the lines inside a report's
// range that a rendering of the report does not show: lines skipped as
// another writer's (they lack the prefix the report's lines carry), and
// lines it did not recognise but took as the report's because report
// lines followed them (program output in the middle of a report, notes no
// grammar reads), unless one became a stack's title. TakeForeign hands
// them over.
func (s *Scanner) KeepForeign() { s.keepForeign = true }

// keepUnshownLine notes a line of the report that no model field holds.
func (b *builder) keepUnshownLine(str string, no int) {
	if b.keepUnshown {
		b.unshown = append(b.unshown, qline{text: str, no: no})
	}
}

// unshownLines returns the numbers of b's unrecognised lines that are not
// a stack's title, once its report is finished.
func unshownLines(b *builder) []int {
	if len(b.unshown) == 0 {
		return nil
	}
	titles := make(map[string]bool, len(b.rep.Stacks))
	for _, st := range b.rep.Stacks {
		titles[strings.TrimSpace(st.Title)] = true
	}
	var nos []int
	for _, q := range b.unshown {
		if !titles[strings.TrimSpace(q.text)] {
			nos = append(nos, q.no)
		}
	}
	return nos
}

// TakeForeign returns the numbers of the lines KeepForeign keeps, found
// since the last call.
func (s *Scanner) TakeForeign() []int {
	f := s.foreign
	s.foreign = nil
	return f
}
