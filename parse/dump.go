package parse

import (
	"bytes"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Reports that are not sanitizer reports: the Linux kernel's, Go's race
// detector and runtime, gdb sessions, glibc, Rust, Chromium and
// boost::stacktrace dumps. Each format is a grammar (kernel.go, golang.go,
// gdb.go, glibc.go, rust.go, chromium.go, boost.go): a starter that
// recognises a report's first line and a line handler that reads the rest.
// The scanner drives them like its sanitizer reports: prefix noise is
// removed, lines a grammar does not know are held back until a known line
// confirms them, and a report ends at its closing line, at the next report,
// or after too many unknown lines.

// verdict is what a grammar makes of one line of its open report.
type verdict int

const (
	vOwn     verdict = iota // the report's line
	vUnknown                // not recognised: held back until a known line follows
	vLast                   // the report's closing line
	vNotMine                // not the report's: it ended before this line
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

// starters in the order they are tried: the most specific first.
var starters = []starter{
	kernelStart,
	goStart,
	rustStart,
	glibcStart,
	chromiumStart,
	gdbStart,
	boostStart,
	backtraceStart,
}

// The tools the grammars name their reports with. Those whose frames
// report.ClassIn reads by rules of their own are report's.
const (
	ToolKernel   = report.ToolKernel  // every kernel report
	ToolGoRace   = report.ToolGoRace  // Go's race detector
	ToolGoPanic  = report.ToolGoPanic // Go's panics and fatal errors
	ToolRust     = report.ToolRust    // Rust panics
	ToolGlibc    = "glibc"            // backtrace_symbols dumps and malloc's aborts
	ToolChromium = "Chromium"         // Chromium's, Electron's and V8's dumps
	ToolBoost    = "boost::stacktrace"
)

// maybeReport is the cheap test run on every line outside a report: could
// it start one? A few byte searches, no allocation. Every headline but a
// few has a colon after a known word ("ERROR:", "AddressSanitizer:",
// "runtime error:", "BUG:", "panic:", "Call Trace:", ...), so one walk over
// the colons replaces a substring search per marker; frames of dumps have
// a '#' or end in "[0x...]"; the rest are matched by what they contain.
func maybeReport(b []byte) bool {
	n := len(b)
	if n == 0 {
		return false
	}
	for i := 0; i < n; {
		c := bytes.IndexByte(b[i:], ':')
		if c < 0 {
			break
		}
		c += i
		if colonWord(b, c) {
			return true
		}
		i = c + 1
	}
	if bytes.IndexByte(b, '#') >= 0 { // gdb, Chromium, boost frames; kernel "[#1]"
		return true
	}
	switch b[n-1] {
	case ']':
		return bytes.Contains(b, markBtSym)
	case ')':
		if bytes.Contains(b, markDoubleFree) {
			return true
		}
	}
	// Chromium's "Received signal 11", gdb's "received signal SIGSEGV":
	// searched from their 'g', a rarer first byte than ' ' or 's'.
	if i := bytes.Index(b, markSignal); i >= 3 && b[i-3] == ' ' && b[i-2] == 's' && b[i-1] == 'i' {
		return true
	}
	return false
}

var (
	markBtSym      = []byte("[0x")
	markSignal     = []byte("gnal ")
	markDoubleFree = []byte("double free or corruption")
)

// colonWord reports whether the word before the colon at b[c] is one that
// starts a report ("ERROR:", "BUG:", "panic:", "Call Trace:", ...).
func colonWord(b []byte, c int) bool {
	j := c
	for j > 0 && (isIdent(b[j-1])) {
		j--
	}
	w := b[j:c]
	switch string(w) {
	case "ERROR", "WARNING", "error", "libFuzzer", "failed", // sanitizers, UBSan's "runtime error:", CHECK failed
		"BUG", "UBSAN", "KFENCE", "Oops", "INFO", "ref_tracker", "Trace", "trace",
		"panic", "SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE", "SIGQUIT", "SIGTRAP",
		"backtrace", "Backtrace", "rs":
		return true
	case "":
		// glibc "*** Error in `prog': ..." and "free(): invalid pointer";
		// "goroutine 1 [running]:", "*** stack smashing detected ***:".
		return j > 0 && (b[j-1] == '\'' || b[j-1] == ')' || b[j-1] == ']' || b[j-1] == '*')
	}
	return bytes.HasSuffix(w, []byte("Sanitizer")) // "AddressSanitizer:", "LeakSanitizer:"
}

// detectDump recognises the first line of a dump report and returns its
// builder, or nil.
func (s *Scanner) detectDump(line []byte, no int) *builder {
	// Try the line without each candidate prefix, the longest first:
	// "panic: " and "WARNING: " look like a "name: " prefix themselves.
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
	prev := s.dumpTitle()
	for k := n - 1; k >= 0; k-- {
		if b := s.tryStarters(line, cuts[k], prev, no); b != nil {
			return b
		}
	}
	return nil
}

func (s *Scanner) tryStarters(line []byte, pfx int, prev string, no int) *builder {
	// A report indented as a whole (a markdown code block, a quote) keeps
	// its indentation off every line.
	ind := 0
	for pfx+ind < len(line) && line[pfx+ind] == ' ' {
		ind++
	}
	t := string(line[pfx+ind:])
	for _, st := range starters {
		g, r := st(t, prev)
		if g == nil {
			continue
		}
		b := &builder{kind: kindDump, pfx: newPrefix(string(line[:pfx])), rep: r, g: g, indent: ind}
		s.begin(b, line, no)
		if n := len(r.Stacks); n > 0 {
			b.stack = n - 1 // the starter read a frame on the first line
		}
		if w, ok := g.(withPrev); ok && w.includesPrev() && s.lastIdleNo == no-1 && no > 1 {
			// The ruler or "cut here" line before the headline is the
			// report's own.
			b.rep.Raw = append([]string{prev}, b.rep.Raw...)
			b.rep.Input.FirstLine = s.lastIdleNo
		}
		return b
	}
	return nil
}

// inGrammar continues a dump report.
func (s *Scanner) inGrammar(line []byte, no int) {
	b := s.cur
	if len(line) > 0 && (bytes.Contains(line, markSanitizer) || bytes.Contains(line, markUBSan) || bytes.Contains(line, markFuzzer)) &&
		sanitizerStart(line) != nil {
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
	switch b.g.line(b, str) {
	case vOwn:
		b.confirm(str, no)
	case vLast:
		b.confirm(str, no)
		b.ended = true
		s.finish(false, nil)
	case vNotMine:
		s.finish(false, &qline{text: string(line), no: no})
	case vUnknown:
		b.pend(str, no)
		if len(b.pending) > b.g.pendingLimit(b) || len(b.rep.Raw)+len(b.pending) > maxReportLines {
			s.finish(false, nil)
		}
	}
}

// openStack starts a new stack in the report and returns it.
func (b *builder) openStack(title, role, detail string) *report.Stack {
	b.closeStack()
	b.rep.Stacks = append(b.rep.Stacks, report.Stack{Title: title, Role: role, RoleDetail: detail})
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

// dropEmptyStacks removes stacks that got a title but no frame.
func dropEmptyStacks(r *report.Report) {
	out := r.Stacks[:0]
	for _, st := range r.Stacks {
		if len(st.Frames) > 0 {
			out = append(out, st)
		}
	}
	r.Stacks = out
}

// isSeparator reports whether t is a line of one repeated character
// ("=====...", "------...") at least 16 long: the rulers around kernel,
// TSan and Go race reports.
func isSeparator(t string, c byte) bool {
	t = strings.TrimSpace(t)
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
