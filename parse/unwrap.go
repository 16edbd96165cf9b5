package parse

import (
	"bytes"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Lines that a bug tracker or a mail client wrapped: a frame, a headline,
// a location or SUMMARY line broken at a blank into two or more lines, the
// rest without the report's prefix or indentation. Inside a report the
// scanner holds each line back until the next one is read; when the next
// line is nothing the report knows on its own and the two read as one line
// of the same kind that says more (a frame that gains its file, module or
// build id, a function whose argument list closes), they are joined. A
// wrapped headline is joined to the report's first line the same way. A
// SUMMARY line only takes what its end can be ("in FUNC", "(module+0x..)",
// "(BuildId: ..)"), and only when it lacks the blank the runtime prints
// after "in" for an unknown function: the program's own output often
// follows it.
//
// Only what a word wrapper at 72 to 80 columns can have made is joined: a
// line of at most wrapMax bytes whose next line's first word would have
// made it longer than wrapMin. Program output after a short report line
// is never taken for its rest.
const (
	wrapMin = 72
	wrapMax = 80
)

// mayWrapLen reports whether a wrapper of 72 to 80 columns could have
// broken a line of n bytes before next's first word (n < 0: the line was
// one word longer than the width).
func mayWrapLen[T string | []byte](n int, next T) bool {
	if n < 0 {
		return true // after a word longer than the width, which stood alone
	}
	if n > wrapMax {
		return false
	}
	w := 0
	for w < len(next) && next[w] != ' ' && next[w] != '\t' {
		w++
	}
	return n+1+w > wrapMin
}

// joinWrapped returns held and next as one line when next continues held.
// held is a raw line of the open report, next the raw line after it.
func (b *builder) joinWrapped(held string, seg int, next []byte) (string, bool) {
	carries := true
	if b.pfx.text != "" {
		if _, carries = b.pfx.strip(next); !carries && splitKnownPrefix(next) > 0 {
			return "", false // another writer's line ("db_1  | ..."), not a rest
		}
	}
	last := len(strings.TrimRight(held, " "))
	if seg != 0 {
		last = seg // the line is already joined: its last piece was wrapped
	}
	// Most lines fail on length: tested before next is copied to a string.
	nb := bytes.TrimSpace(b.bodyBytes(next))
	if len(nb) == 0 || !mayWrapLen(last, nb) {
		return "", false
	}
	n := string(nb)
	l := strings.TrimSpace(b.bodyOf([]byte(held)))
	if l == "" || b.standsAlone(n) {
		return "", false
	}
	if !carries && b.kind == kindDump && b.rep.Tool == ToolKernel {
		// Every line the kernel prints carries the log's dmesg or syslog
		// stamp: one without it, long enough to follow a wrap, is the rest.
		return strings.TrimRight(held, " \t") + " " + n, true
	}
	joined := l + " " + n
	if strings.HasPrefix(l, "SUMMARY: ") && strings.HasSuffix(held, " ") {
		return "", false // "... in " ends UBSan's line: not broken there
	}
	if !wrapExtends(b, l, joined) {
		return "", false
	}
	return strings.TrimRight(held, " \t") + " " + n, true
}

// bodyOf is a line without the report's prefix (when it carries it) and
// indentation.
func (b *builder) bodyOf(line []byte) string {
	return string(b.bodyBytes(line))
}

// bodyBytes is bodyOf without the copy: a part of line.
func (b *builder) bodyBytes(line []byte) []byte {
	body, ok := b.pfx.strip(line)
	if !ok {
		body = line
		if b.kind == kindDump {
			body = line[splitKnownPrefix(line):]
		}
	}
	return body
}

// standsAlone reports whether t is a line the open report knows by itself:
// then it is not the rest of the line before it.
func (b *builder) standsAlone(t string) bool {
	if t == "" || maybeReport([]byte(t)) && (sanitizerStart([]byte(t)) != nil) {
		return true
	}
	if len(t) > 2 && t[0] == '#' && (isDigit(t[1]) || t[1] == ' ') {
		return true // a numbered frame of any format starts a line
	}
	if _, ok := lineFrame(b, t); ok {
		return true
	}
	switch b.kind {
	case kindDump:
		if _, _, ok := kernelTitle(t); ok {
			return true
		}
		if _, ok := kernelHeadline(t); ok {
			return true
		}
		return strings.HasSuffix(t, ":") || (len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>') ||
			strings.HasPrefix(t, "goroutine ") || strings.HasPrefix(t, "at ") || isSeparator(t, '=') || isSeparator(t, '-')
	}
	if b.isGrammar(t) || isLocation(t) || strings.HasPrefix(t, "==") || t == "Exiting" || strings.Contains(t, ": note: ") {
		return true
	}
	if _, ok := parseShadowRow(t); ok && b.inShadow {
		return true
	}
	if _, ok := parseLegendHeader(t); ok {
		return true
	}
	if _, _, ok := parseLegendRow(t); ok && b.inLegend {
		return true
	}
	return false
}

// lineFrame parses t as a frame of the open report's format.
func lineFrame(b *builder, t string) (report.Frame, bool) {
	if b.kind != kindDump {
		return ParseFrame(t)
	}
	switch b.g.(type) {
	case *gdbGrammar:
		return ParseGDBFrame(t)
	case *kernelGrammar:
		return ParseKernelFrame(t)
	case chromiumGrammar:
		return ParseChromiumFrame(t)
	case boostGrammar:
		return ParseBoostFrame(t)
	case *glibcGrammar:
		return ParseBacktraceSymbol(t)
	case *rustGrammar:
		return parseRustFrame(t)
	case *goGrammar:
		return parseGoFunc(t)
	}
	return report.Frame{}, false
}

// wrapExtends reports whether joined reads as the same kind of line as l,
// saying more.
func wrapExtends(b *builder, l, joined string) bool {
	if l[0] == '#' && strings.HasSuffix(l, "(BuildId:") {
		_, ok := lineFrame(b, joined) // "... (BuildId:" and its id
		return ok
	}
	if lf, ok := lineFrame(b, l); ok {
		jf, ok := lineFrame(b, joined)
		return ok && frameGains(lf, jf)
	}
	if b.kind == kindDump && isDigit(l[0]) {
		// Rust's "  7: <T as" and boost's " 0# f(int," broken inside the name
		_, ok := lineFrame(b, joined)
		return ok
	}
	if len(l) > 1 && l[0] == '#' || l == "at" || l == "from" {
		// "#6 0x55ae1b341418 in" and its function on the next line;
		// Rust's and gdb's "at" before a path too long for the line.
		if l == "at" || l == "from" {
			return b.kind == kindDump
		}
		_, ok := lineFrame(b, joined)
		return ok
	}
	if !balanced(l) && !strings.HasPrefix(l, "SUMMARY: ") {
		// A function's argument list broken off: a frame once joined.
		_, ok := lineFrame(b, joined)
		return ok
	}
	if b.kind == kindDump {
		if _, ok := b.g.(*goGrammar); ok {
			// "file.go:12 +0x4b fp=0x... sp=0x... pc=0x..." broken before a field
			var f report.Frame
			return goLocation(&f, l) && goLocationTail(joined[len(l)+1:])
		}
		return false
	}
	if _, _, ok := classifyTitle(l); !ok && !isLocation(l) {
		if _, _, ok := classifyTitle(joined); ok {
			return true // "... at offset 36 in" + "frame"
		}
	}
	switch {
	case strings.HasPrefix(l, "SUMMARY: "):
		if strings.Contains(l+" ", " in ") {
			return !strings.Contains(joined[len(l):], ": ") // the function, blanks and all
		}
		return summaryTail(joined[len(l)+1:])
	case isLocation(l):
		// "... 32-byte region [0x..,0x..)" and "(module+0x..)" end the line.
		return !strings.HasSuffix(l, ")") && !strings.Contains(joined[len(l):], ": ") && isLocation(joined)
	}
	if role, _, ok := classifyTitle(l); ok && !strings.HasSuffix(l, ":") && !strings.Contains(joined[len(l):], ": ") {
		r2, _, ok2 := classifyTitle(joined)
		return ok2 && r2 == role
	}
	return false
}

// frameGains reports whether jf is lf with more of its parts.
func frameGains(lf, jf report.Frame) bool {
	// gdb's "f (args) at" reads as a function until its file comes.
	if jf.Index != lf.Index || jf.PC != lf.PC ||
		!strings.HasPrefix(jf.Function, lf.Function) && !strings.HasPrefix(lf.Function, jf.Function+" ") {
		return false
	}
	more := 0
	for _, p := range [][2]string{{lf.File, jf.File}, {lf.Module, jf.Module}, {lf.BuildID, jf.BuildID}} {
		switch {
		case p[0] == p[1]:
		case p[0] == "":
			more++
		default:
			return false // paths and ids have no blanks to be wrapped at
		}
	}
	if jf.Line > 0 && lf.Line == 0 || jf.HasOffset && !lf.HasOffset || len(jf.Function) > len(lf.Function) {
		more++
	}
	return more > 0
}

// joinHeadline appends t, a wrapped headline's rest, to the report's
// first line when the report has read nothing else yet; the headline's
// parts are read again from the whole line.
func (s *Scanner) joinHeadline(line []byte) bool {
	b := s.cur
	if b.kind == kindDump && len(b.rep.Raw) == 1 && len(b.rep.Stacks) == 1 && len(b.rep.Stacks[0].Frames) == 1 {
		return s.joinFirstFrame(line)
	}
	// The headline is the report's first line, or its second after the
	// line a kernel report takes along ("------------[ cut here ]---",
	// KASAN's "=====" ruler).
	hl := len(b.rep.Raw) - 1
	if w, ok := b.g.(withPrev); hl == 1 && ok && w.includesPrev() {
		// the headline follows the line taken along
	} else if hl != 0 {
		return false
	}
	if len(b.rep.Stacks) > 0 || len(b.pending) > 0 || b.stack >= 0 {
		return false
	}
	carries := true
	if b.pfx.text != "" {
		_, carries = b.pfx.strip(line)
		if !carries && splitKnownPrefix(line) > 0 {
			return false
		}
	}
	n := strings.TrimSpace(b.bodyOf(line))
	first := b.pfx.text + strings.TrimRight(b.rep.Raw[hl], " ")
	// A headline's rest is addresses and words ("0x7ffd... sp 0x7ffd...",
	// "for type 'int'", "malloc()-ed: 0x..."); nothing follows TSan's
	// "(pid=N)" or a sentence's end.
	last := len(first)
	if b.headSeg > 0 {
		last = b.headSeg
	}
	if b.kind == kindDump && b.rep.Tool == ToolKernel && strings.HasPrefix(b.rep.Headline, "WARNING: ") &&
		!strings.Contains(first, "+0x") && mayWrapLen(last, n) {
		if _, ok := ParseKernelFrame(n); ok {
			// "WARNING: CPU: 1 PID: 1 at lib/x.c:116" and its "func+0x1e1/0x230"
			b.rep.Headline += " " + n
			b.rep.Message = b.rep.Headline
			b.rep.Raw[hl] += " " + n
			b.headSeg = len(line)
			return true
		}
	}
	if n == "" || !mayWrapLen(last, n) || b.standsAlone(n) ||
		strings.HasSuffix(first, ")") && strings.Contains(first, "(pid=") ||
		strings.HasSuffix(first, ".") || strings.HasSuffix(first, "!") {
		return false
	}
	whole := first + " " + n
	switch b.kind {
	case kindDump:
		switch {
		case b.rep.Tool == ToolKernel && strings.HasPrefix(n, "[") && strings.HasSuffix(n, "]"):
			// "BUG: KASAN: ... in ring_pop+0x7e/0x130" and its "[ringbuf]"
		case b.rep.Tool == ToolKernel && (strings.HasSuffix(first, " at") || strings.HasSuffix(first, " in")) && !strings.Contains(n, ": "):
			// "WARNING: CPU: 3 PID: 1187 at" and its "file.c:412 func+0x1b4/0x1f0"
		case b.rep.Tool == ToolKernel && !carries && !strings.Contains(n, ": "):
			// A kernel headline's rest without the dmesg or syslog prefix
			// every kernel line carries: "INFO: task x:91 blocked for more
			// than 122" and its "seconds."
		case b.rep.Tool == ToolGoPanic && !strings.HasPrefix(n, "[") && !strings.Contains(n, ": "):
			// a panic value wrapped; "[signal SIGSEGV: ...]" is the next line
		case b.rep.Tool == ToolGlibc && strings.Contains(first, "*** Error in `") && !strings.HasSuffix(first, " ***") && strings.HasSuffix(n, "***"):
			// glibc <= 2.25's "*** Error in `prog': free(): invalid
			// pointer: 0x..." and its closing "***"
		default:
			return false // the other lines after a headline are the report's own
		}
		t := strings.TrimSpace(b.bodyOf([]byte(whole)))
		for _, st := range starters {
			if g, r := st(t, ""); g != nil && r.Tool == b.rep.Tool {
				b.rep.Headline, b.rep.Message, b.rep.Kind = r.Headline, r.Message, r.Kind
				b.rep.Raw[hl] += " " + n
				b.headSeg = len(line)
				return true
			}
		}
		return false
	default:
		if !sanitizerHeadTail(b.rep, n) {
			return false
		}
		nb := sanitizerStart([]byte(whole))
		if nb == nil || nb.rep.Tool != b.rep.Tool {
			return false
		}
		r := b.rep
		r.Headline, r.Message, r.Kind, r.PID = nb.rep.Headline, nb.rep.Message, nb.rep.Kind, nb.rep.PID
		r.Raw[hl] += " " + n
		b.headSeg = len(line)
		return true
	}
}

// summaryTail reports whether t can end a SUMMARY line: a function after
// "in", a file:line, "(module+0x...)" or "(BuildId: ...)".
func summaryTail(t string) bool {
	if strings.HasPrefix(t, "(BuildId: ") || strings.HasPrefix(t, "in ") {
		return true
	}
	if strings.Contains(t, ": ") {
		return false
	}
	if strings.HasPrefix(t, "(") && strings.Contains(t, "+0x") {
		return true
	}
	if f := strings.Fields(t); len(f) > 0 {
		if _, ln, _ := parseLoc(f[0]); ln > 0 {
			return true
		}
	}
	return !strings.ContainsAny(t, " =")
}

// goLocationTail reports whether t is the end of a Go frame's location
// line: "+0x4b", "fp=0x...", "sp=0x...", "pc=0x..." fields.
func goLocationTail(t string) bool {
	for _, f := range strings.Fields(t) {
		if !strings.HasPrefix(f, "+0x") && !strings.HasPrefix(f, "fp=0x") && !strings.HasPrefix(f, "sp=0x") && !strings.HasPrefix(f, "pc=0x") {
			return false
		}
	}
	return t != ""
}

// joinFirstFrame joins a wrapped rest to a dump whose first line is its
// first frame (boost::stacktrace, a pasted gdb bt, backtrace_symbols).
func (s *Scanner) joinFirstFrame(line []byte) bool {
	b := s.cur
	n := strings.TrimSpace(b.bodyOf(line))
	first := b.pfx.text + strings.TrimRight(b.rep.Raw[0], " ")
	last := len(first)
	if b.headSeg != 0 {
		last = b.headSeg
	}
	if n == "" || !mayWrapLen(last, n) || b.standsAlone(n) {
		return false
	}
	st := &b.rep.Stacks[0]
	lf := st.Frames[0]
	l := strings.TrimSpace(b.rep.Raw[0])
	jf, ok := lineFrame(b, l+" "+n)
	if !ok || !frameGains(lf, jf) {
		return false
	}
	jf.Adjust = lf.Adjust
	st.Frames[0] = jf
	b.rep.Raw[0] += " " + n
	b.headSeg = len(line)
	if t := strings.TrimSpace(string(line)); len(t) > wrapMax && strings.IndexByte(t, ' ') < 0 {
		b.headSeg = -1
	}
	return true
}

// sanitizerHeadTail reports whether n can be the wrapped rest of r's
// headline: UBSan's message goes on in words; ASan's headlines go on with
// addresses, registers and sizes ("0x7ffd... sp 0x7ffd...", "(pc 0x...
// T0)", "malloc()-ed: 0x... in thread T0", "size (4 * 8) cannot be",
// "... overlap"), never "a label: value"; LSan's "detected memory leaks"
// is whole.
func sanitizerHeadTail(r *report.Report, n string) bool {
	switch {
	case r.Tool == "UndefinedBehaviorSanitizer":
		// "overflow: 2147483647 + 1 cannot be ...", not "A label: value"
		i := strings.Index(n, ": ")
		return i < 0 || strings.IndexByte(n[:i], ' ') < 0
	case r.Kind == "detected memory leaks":
		return false
	}
	if i := strings.Index(n, ": "); i > 0 {
		// "worker 2: processed ..." is a label; "malloc()-ed: 0x..." is not.
		w := n[strings.LastIndexByte(n[:i], ' ')+1 : i]
		if strings.TrimLeft(w, "0123456789") == "" {
			return false
		}
	}
	return strings.ContainsAny(n, "(0123456789") || n == "overlap"
}
