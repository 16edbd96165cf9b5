package parse

import (
	"bytes"

	"github.com/sanitrace/sanitrace/report"
)

// Reports that are not sanitizer reports: the Linux kernel's, Go's race
// detector and runtime, gdb sessions, glibc, Rust, Chromium and
// boost::stacktrace dumps. Each format has its grammar file (kernel.go,
// golang.go, gdb.go, glibc.go, rust.go, chromium.go, boost.go) that
// declares it (format.go): a starter that recognises a report's first line
// and a grammar that reads the rest. The scanner drives them like its
// sanitizer reports: prefix noise is removed, lines a grammar does not
// know are held back until a known line confirms them, and a report ends
// at its closing line, at the next report, or after too many unknown
// lines.

// verdict is what a grammar makes of one line of its open report.
type verdict int

const (
	vOwn     verdict = iota // the report's line
	vUnknown                // not recognised: held back until a known line follows
	vLast                   // the report's closing line
	vNotMine                // not the report's: it ended before this line
	vForeign                // another writer's line amid the report's: skipped
)

// grammar reads the lines of one open report after its first.
type grammar interface {
	// line handles one line, its noise prefix removed and its right end
	// trimmed.
	line(b *builder, t string) verdict
	// end finishes the report when it closes (eof: because the input
	// ended).
	end(b *builder, eof bool)
	// pendingLimit is how many unknown lines in a row the report may hold.
	pendingLimit(b *builder) int
}

// withPrev is a grammar whose report starts on the line before the one its
// starter recognised (a ruler, "------------[ cut here ]------------").
type withPrev interface{ includesPrev() bool }

// starter recognises a grammar's first line. t is the line without its
// noise prefix, prev the last non-blank line before it outside reports
// (prefix removed). It returns nil when t does not start a report.
type starter func(t, prev string) (grammar, *report.Report)

// detectDump recognises the first line of a dump report and returns its
// builder, or nil.
func (s *Scanner) detectDump(line []byte, no int) *builder {
	prev := s.dumpTitle()
	st, ok := dumpStart(line, prev)
	if !ok {
		return nil
	}
	b := &builder{kind: kindDump, pfx: newPrefix(string(line[:st.pfx])), rep: st.r, g: st.g, f: st.f, indent: st.indent}
	s.begin(b, line, no)
	if n := len(st.r.Stacks); n > 0 {
		b.stack = n - 1 // the starter read a frame on the first line
	}
	if w, ok := st.g.(withPrev); ok && w.includesPrev() && s.lastIdleNo == no-1 && no > 1 {
		// The ruler or "cut here" line before the headline is the
		// report's own.
		b.rep.Raw = append([]string{prev}, b.rep.Raw...)
		b.rep.Input.FirstLine = s.lastIdleNo
	}
	return b
}

// dumpStarted is what a format's starter recognised on a line: the format,
// the report begun and the grammar that reads the rest, and the lengths of
// the line's prefix and of the report's indentation after it.
type dumpStarted struct {
	f           *format
	g           grammar
	r           *report.Report
	pfx, indent int
}

// headline reports whether the report opens with a line of its own (a
// "panic:", a "BUG:", gdb's "Program received signal"), not at a bare
// first frame (a pasted bt's "#0", boost's " 0#", a backtrace_symbols
// line), which could as well be another stack of a report open before it.
func (d *dumpStarted) headline() bool { return len(d.r.Stacks) == 0 }

// dumpStart runs the formats' starters on line (prev: the last non-blank
// line outside reports, prefix removed), trying the line without each
// candidate prefix, the longest first: "panic: " and "WARNING: " look like a
// "name: " prefix themselves.
func dumpStart(line []byte, prev string) (dumpStarted, bool) {
	var cuts [8]int
	n := 0
	p0 := 0
	if k := spaces(line); k > 0 && k < len(line) && knownPrefixAt(line[k:]) > 0 {
		p0 = k // an indented paste of a prefixed log
	}
	for p := p0; n < len(cuts); {
		cuts[n] = p
		n++
		m := knownPrefixAt(line[p:])
		if m == 0 {
			break
		}
		p += m
	}
	for k := n - 1; k >= 0; k-- {
		pfx := cuts[k]
		// A report indented as a whole (a markdown code block, a quote)
		// keeps its indentation off every line.
		ind := 0
		for pfx+ind < len(line) && line[pfx+ind] == ' ' {
			ind++
		}
		t := string(line[pfx+ind:])
		for _, f := range formats {
			if g, r := f.startLine(t, prev); g != nil {
				return dumpStarted{f: f, g: g, r: r, pfx: pfx, indent: ind}, true
			}
		}
	}
	return dumpStarted{}, false
}

// endsOpen reports whether line, which the open report's grammar does not
// know, is where another report opens, so that the open one ended before
// it: a headline of another format than the open report's (a kernel
// "BUG:" after a Go dump, a Rust panic after a kernel report, Chromium's
// "Received signal" after a sanitizer's). Each format's starter declares
// its headlines; a line that starts a report outside reports ends an open
// one of another format the same way, so a log pasted after another keeps
// its reports. The open format's own headlines are its grammar's to judge
// (a nested "panic:", an "Oops" after a "BUG:"), and sanitizer headlines
// end every report before any grammar sees them.
func (s *Scanner) endsOpen(line []byte) bool {
	if s.cur.f != &valgrindFormat && valgrindMessage(line) {
		// Valgrind's message has no cue word (its starter finds a report
		// at the first frame and reads back to it): without this, a
		// report open before it took the message and its frames as another
		// writer's lines (finding F6).
		return true
	}
	if !maybeReport(line) {
		return false
	}
	st, ok := dumpStart(line, "")
	return ok && st.f != s.cur.f && st.headline()
}

// inGrammar continues a dump report.
func (s *Scanner) inGrammar(line []byte, no int) {
	b := s.cur
	if opensSanitizerReport(line) {
		s.finish(false, &qline{text: string(line), no: no})
		return
	}
	body, ok := b.pfx.strip(line)
	if !ok {
		body = line[splitKnownPrefix(line):]
	}
	if n := min(b.indent, spaces(body)); n > 0 && bytes.IndexByte(body[:n], '\t') < 0 {
		body = body[n:]
	}
	str := string(bytes.TrimRight(body, " \t"))
	b.carried = ok
	v := b.g.line(b, str)
	if (v == vForeign || v == vUnknown) && s.endsOpen(line) {
		// Another format's headline, which the grammar does not know or
		// takes for another writer's line amid its block: a log pasted
		// after or into the report (finding F8).
		s.finish(false, &qline{text: string(line), no: no})
		return
	}
	switch v {
	case vOwn:
		b.confirm(str, no)
	case vLast:
		b.confirm(str, no)
		b.ended = true
		s.finish(false, nil)
	case vNotMine:
		s.finish(false, &qline{text: string(line), no: no})
	case vForeign:
		s.foreignLine(line, no)
	case vUnknown:
		b.pend(str, no)
		if len(b.pending) > b.g.pendingLimit(b) || len(b.rep.Raw)+len(b.pending) > maxReportLines {
			s.finish(false, nil)
		}
	}
}

// startBack starts a report of a format found at its first frame
// (format.back): the report begins on a line before line, and the lines
// after that one, then line, are read again inside it.
func (s *Scanner) startBack(line []byte, no int) bool {
	r := &s.recent
	// entry is the k-th line before line: outside reports, after the
	// last one, and with no other line between (but the pieces of a line
	// joined from wrapped ones, which count as one).
	entry := func(k int) (int, bool) {
		next := no
		for j := 1; j <= k; j++ {
			if j > r.n || j > recentMax {
				return 0, false
			}
			i := (r.n - j) % recentMax
			if r.no[i] >= next || next-r.no[i] > backGapMax || r.no[i] <= s.lastReportEnd {
				return 0, false
			}
			next = r.no[i]
		}
		return (r.n - k) % recentMax, true
	}
	before := func(k int) ([]byte, bool) {
		i, ok := entry(k)
		if !ok {
			return nil, false
		}
		return r.text[i], true
	}
	for _, f := range formats {
		if f.back == nil {
			continue
		}
		k, pfx, g, rep := f.back(line, before)
		if k == 0 {
			continue
		}
		h, _ := entry(k)
		if rep.Tool == "" {
			rep.Tool = f.producer.Tool()
		}
		b := &builder{kind: kindDump, pfx: newPrefix(string(r.text[h][:pfx])), rep: rep, g: g, f: f}
		s.endOrphans()
		s.endDump()
		s.open(s.begin(b, r.text[h], r.no[h]))
		again := make([]qline, 0, k)
		for j := k - 1; j >= 1; j-- {
			i, _ := entry(j)
			again = append(again, qline{text: string(r.text[i]), no: r.no[i]})
		}
		again = append(again, qline{text: string(line), no: no})
		s.redo = append(again, s.redo...)
		return true
	}
	return false
}

// backGapMax bounds the lines one line before a first frame may stand for
// (startBack): it and the pieces joined to it.
const backGapMax = 4

// openStack starts a new stack in the report and returns it. The open
// report's stacks are built in the Scanner's room and copied out at their
// size when they close (closeStack): most stacks have 3 to 8 frames, and
// deep recursions' 250 would grow a slice of their own every time.
func (b *builder) openStack(title, role, detail string) *report.Stack {
	b.closeStack()
	st := report.Stack{Title: title, Role: role, RoleDetail: detail}
	if b.room != nil {
		st.Frames, *b.room = (*b.room)[:0], nil
		b.roomStack = len(b.rep.Stacks) + 1
	}
	b.rep.Stacks = append(b.rep.Stacks, st)
	b.stack = len(b.rep.Stacks) - 1
	return &b.rep.Stacks[b.stack]
}

// lastFrame returns the open stack's last frame, or nil.
func (b *builder) lastFrame() *report.Frame {
	if b.stack < 0 {
		return nil
	}
	st := &b.rep.Stacks[b.stack]
	if len(st.Frames) == 0 {
		return nil
	}
	return &st.Frames[len(st.Frames)-1]
}

// appendFrame adds f to the open stack, opening one titled title when
// none is.
func (b *builder) appendFrame(f report.Frame, title, role, detail string) {
	if b.stack < 0 {
		b.openStack(title, role, detail)
	}
	st := &b.rep.Stacks[b.stack]
	st.Frames = append(st.Frames, f)
}

// dropEmptyStacks removes stacks that got a title but no frame (and no
// marker in their place).
func dropEmptyStacks(r *report.Report) {
	out := r.Stacks[:0]
	for _, st := range r.Stacks {
		if len(st.Frames) > 0 || st.Marker != "" {
			out = append(out, st)
		}
	}
	r.Stacks = out
}

// isSpace is strings.TrimSpace's ASCII space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isSeparator reports whether t is a line of one repeated character
// ("=====...", "------...") at least 16 long: the rulers around kernel,
// TSan and Go race reports.
func isSeparator[T string | []byte](t T, c byte) bool {
	for len(t) > 0 && isSpace(t[0]) {
		t = t[1:]
	}
	for len(t) > 0 && isSpace(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	if len(t) < 16 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != c {
			return false
		}
	}
	return true
}
