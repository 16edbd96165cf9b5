package parse

import (
	"bytes"
	"strconv"
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
// wrapped headline is joined to the report's first line the same way, and
// outside reports a line that ends where no runtime ends a headline
// ("runtime error:", "ERROR: AddressSanitizer:", ...) waits for its rest
// too; the kernel's GPF headline, whose marker may fall on its second
// line, is found by that line looking one line back. A SUMMARY line only
// takes what its end can be ("in FUNC", "(module+0x..)", "(BuildId: ..)"),
// and only when it lacks the blank the runtime prints after "in" for an
// unknown function: the program's own output often follows it.
//
// Only what a word wrapper at 72 to 80 columns can have made is joined: a
// line of at most wrapMax bytes whose next line's first word would have
// made it longer than wrapMin, a paste's quote or indentation on both
// pieces not counted (pasteLen). Program output after a short report line
// is never taken for its rest.
//
// A line joined from pieces stops growing at wrapJoinMax bytes: no real
// line is that long, and each join copies the line so far.
const (
	wrapMin     = 72
	wrapMax     = 80
	wrapJoinMax = 8 << 10
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
func (b *builder) joinWrapped(held []byte, seg int, next []byte) (string, bool) {
	q := pasteLen(held, next)
	carries, bracketed := true, false
	if b.pfx.text != "" {
		// (After a lone "SUMMARY:", "UndefinedBehaviorSanitizer: ..." is
		// its rest, not a writer's "name: "; in a report that is not
		// quoted, "> >::f()" is the rest of a C++ name, not a quote.)
		if _, carries = b.pfx.strip(next); !carries && splitKnownPrefix(next[q:]) > 0 &&
			!bytes.HasSuffix(held, []byte(" SUMMARY:")) && quoteLen(next[q:]) == 0 && !addrRange(next[q:]) && !hwasanTags(next[q:]) {
			if bracketed = b.frameRest(held, next[q:]); !bracketed {
				return "", false // another writer's line ("db_1  | ..."), not a rest
			}
		}
	}
	// The wrapper counted the blanks before the one it broke at: a frame
	// without a function has two before its "(module+0x...)".
	last := len(held)
	if seg != 0 {
		last = seg // the line is already joined: its last piece was wrapped
	}
	if last > 0 {
		last -= q
	}
	// Most lines fail on length: tested before next is copied to a string.
	nb := bytes.TrimSpace(b.bodyBytes(next))
	if bracketed {
		nb = bytes.TrimSpace(next[q:]) // its "[module]" is no prefix
	}
	if len(nb) > 0 && b.kind == kindDump && b.f.unfinished != nil {
		if l := strings.TrimSpace(b.bodyOf(held)); b.f.unfinished(l) {
			if _, ok := b.f.frame(l + " " + string(nb)); ok {
				return string(bytes.TrimRight(held, " \t")) + " " + string(nb), true
			}
		}
	}
	if len(nb) > 0 && len(held)+1+len(nb) <= wrapJoinMax && b.arrowRest(held, nb) {
		return string(held) + " " + string(nb), true
	}
	if len(nb) == 0 || !mayWrapLen(last, nb) && !b.moduleRest(held, nb) || len(held)+1+len(nb) > wrapJoinMax {
		return "", false
	}
	if bytes.HasPrefix(nb, []byte("{{{")) {
		return "", false // symbolizer markup starts its own line (markup.go)
	}
	n := string(nb)
	lb := bytes.TrimSpace(b.bodyBytes(held))
	if len(lb) == 0 {
		// A quoted line of one word longer than the width, broken after
		// its quote: ">" alone, then the frame.
		if m := string(bytes.TrimSpace(held)); (m == ">" || m == "|") && !carries && strings.IndexByte(n, ' ') < 0 {
			if _, ok := lineFrame(b, n); ok {
				return m + " " + n, true
			}
		}
		return "", false
	}
	if !carries && b.is(report.ProducerKernel) && b.carries(held) {
		// Every line the kernel prints carries the log's dmesg or syslog
		// stamp: one without it after one with it, long enough to follow
		// a wrap, is the rest, even when it reads as a line of its own (a
		// lock's "at:" and its frame), unless a program's report starts
		// there.
		if userStart(n) || !kernelRestKeeps(b, string(lb), n) {
			return "", false
		}
		return string(bytes.TrimRight(held, " \t")) + " " + n, true
	}
	// backtrace_symbols' "[0x55...]" reads as a frame of its own, but not
	// after a "module(f+0x1c)" that lacks it.
	if b.standsAlone(n) && !(isGlibc(b) && bytes.HasSuffix(lb, []byte(")")) && strings.HasPrefix(n, "[0x")) {
		return "", false
	}
	l := string(lb) // most lines stand alone: made only past that test
	if l[0] != '#' {
		if k := gluedAt(l, 0, true); k > 0 {
			l = l[k:] // a frame behind another writer's text (gluedFrame)
		}
	}
	joined := l + " " + n
	if strings.HasPrefix(l, "SUMMARY: ") && bytes.HasSuffix(held, []byte(" ")) {
		return "", false // "... in " ends UBSan's line: not broken there
	}
	if b.kind == kindTSan && l[0] != '#' && bytes.HasPrefix(b.bodyBytes(held), []byte("    ")) {
		// A TSan frame printed without its number (a stack_trace_format
		// without "#%n"), at a frame's indent: joined when the rest adds
		// to it.
		// A frame that has its file and line or its module goes on only
		// with what TSan prints after them, "(module+0x...)" or
		// "(BuildId: ...)": the next frame line would read as more of it.
		lf, lok := tsanUnnumbered(l)
		if lok && (lf.Line > 0 || lf.HasOffset) && n[0] != '(' {
			return "", false
		}
		jf, jok := tsanUnnumbered(joined)
		if !jok || lok && !frameGains(lf, jf) {
			return "", false
		}
		return string(held) + " " + n, true
	}
	if !wrapExtends(b, l, joined, carries) {
		return "", false
	}
	// The wrapper dropped one blank at the break; blanks before it are
	// the line's own ("#7 0x7fd6318d44a2  (module+0x...)").
	return string(held) + " " + n, true
}

var markArrow = []byte("->")

// hwasanTags reports whether t is the rest of HWASan's access line broken
// before its tags ("tags: cd/10 (ptr/mem) in thread T0"), which reads as
// a writer's "name: " prefix.
func hwasanTags(t []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(t), []byte("tags: "))
	return ok && bytes.Contains(rest, []byte(" (ptr/mem)"))
}

// arrowRest reports whether n is the rest of held, a frame line of the
// report, in a symbolizer's "-> f at file:line" tail after the frame
// (Chromium's HWASan reports): the tail's start ("(BuildId: ...) ->",
// "->") after a frame without one, or any piece after a tail that has
// not reached its file and line. A wrapper breaks such a function's name,
// thousands of bytes of template arguments, into pieces of any length.
func (b *builder) arrowRest(held, n []byte) bool {
	if b.kind == kindDump || n[0] == '#' || !bytes.Contains(held, markArrow) && !bytes.Contains(n, markArrow) {
		return false // (every line of a report is asked: the cheap test first)
	}
	l := strings.TrimSpace(b.bodyOf(held))
	if !numbered(l) {
		return false
	}
	if k := strings.Index(l, ") -> "); k > 0 {
		_, _, line, _ := cutArrow(l[k+len(") -> "):])
		return line == 0
	}
	if strings.HasSuffix(l, ") ->") {
		return true
	}
	// The tail's start: "->" after the frame or its build id.
	rest := string(n)
	if head, ok := strings.CutSuffix(rest, " ->"); ok {
		rest = head
	} else if rest == "->" {
		rest = ""
	} else if i := strings.Index(rest, ") -> "); i > 0 {
		rest = rest[:i+1]
	} else {
		return false
	}
	if rest != "" {
		if _, id := cutBuildID(" " + rest); id == "" {
			return false
		}
	}
	f, ok := ParseFrame(strings.TrimSpace(l + " " + rest))
	return ok && f.Module != "" && f.Function == ""
}

// frameRest reports whether n, which reads as another writer's prefixed
// line, is the rest of held, a frame of the report: a tombstone frame
// broken before its "[anon_shmem:dalvik-jit-code-cache]" module.
func (b *builder) frameRest(held, n []byte) bool {
	l := strings.TrimSpace(b.bodyOf(held))
	lf, ok := lineFrame(b, l)
	if !ok {
		return false
	}
	jf, ok := lineFrame(b, l+" "+string(bytes.TrimSpace(n)))
	return ok && frameGains(lf, jf)
}

// kernelRestKeeps reports whether n, a stamp-less line after l, a kernel
// line, can be its rest as the frame l is: a frame stays a frame with its
// rest (a paste's closing "```" after the last frame is no rest of it).
func kernelRestKeeps(b *builder, l, n string) bool {
	lf, ok := lineFrame(b, l)
	if !ok || !lf.HasPC && !lf.HasSymbolSize {
		return true
	}
	j := l + " " + n
	if _, ok = lineFrame(b, j); ok {
		return true
	}
	// 2015 KASan's "[<  inlined  >] f+0x1/0x2" and its inlined function,
	// whose file is the next piece
	return b.f.unfinished != nil && b.f.unfinished(j)
}

// moduleRest reports whether n, a line that is only a sanitizer frame's
// "(module+0xoff)", is the rest of held, a frame of the report without its
// module: a wrapper wider than any mayWrapLen knows broke it there
// ("#0 f /long/path/file.cc:1246" and "(exe+0x20ac959)"), which no line
// on its own is.
//
// The same holds for a line that is only a source location
// ("v8/src/objects.cc:10993:5") after a frame with neither file nor
// module: no runtime prints one alone.
func (b *builder) moduleRest(held, n []byte) bool {
	if b.kind == kindDump || len(n) < 6 || bytes.IndexByte(n, ' ') >= 0 {
		return false
	}
	if n[0] == '(' && n[len(n)-1] == ')' {
		if _, _, _, hasOff, ok := cutModule(" " + string(n)); !ok || !hasOff {
			return false
		}
		f, ok := ParseFrame(strings.TrimSpace(b.bodyOf(held)))
		return ok && f.Module == "" && !f.HasOffset
	}
	if _, ln, _ := parseLoc(string(n)); ln == 0 {
		return false
	}
	f, ok := ParseFrame(strings.TrimSpace(b.bodyOf(held)))
	return ok && f.File == "" && f.Module == "" && !f.HasOffset
}

// carries reports whether line carries the report's prefix.
func (b *builder) carries(line []byte) bool {
	_, ok := b.pfx.strip(line)
	return ok
}

// userStart reports whether t starts a report of a program, not the
// kernel's: a sanitizer headline, a "==PID==" line, a Go panic, a gdb or
// backtrace dump.
func userStart(t string) bool {
	if strings.HasPrefix(t, "==") || sanitizerStart([]byte(t)) != nil {
		return true
	}
	for _, f := range formats {
		if g, _ := f.startLine(t, ""); g != nil && f.producer != report.ProducerKernel {
			return true
		}
	}
	return false
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
		} else if q := quoteLen(line); q > 0 && quoteLen(b.pfx.text) == q {
			body = line[q:] // a quoted piece of a quoted report's line
		}
	}
	return body
}

// wrapSeg is what a line joined from wrapped pieces keeps of its last
// piece, line: its raw length, or -1 when line is one word longer than
// the width (a paste's quote aside), after which the next piece starts a
// line of its own (see wrapLast).
func wrapSeg(line []byte) int {
	if t := bytes.TrimSpace(line[quoteLen(line):]); len(t) > wrapMax && bytes.IndexByte(t, ' ') < 0 {
		return -1
	}
	return len(line)
}

// wrapLast is the length a wrapper saw of a report's first line (n bytes
// with its prefix; seg, the last wrapped piece's raw length, or -1 after a
// word longer than the width) when a paste put q bytes before every piece
// (pasteLen).
func wrapLast(n, seg, q int) int {
	switch {
	case seg < 0:
		return seg
	case seg > 0:
		return seg - q
	}
	return n - q
}

// pasteLen is the length of what a paste put before both pieces of a line
// a wrapper broke, held and next, and the wrapper did not count: the quote
// of a wrapped log quoted in a reply ("> " on every piece), or the
// indentation of one pasted as a code block (a rest has none of its own).
func pasteLen[T string | []byte](held T, next []byte) int {
	if q := quoteLen(next); q > 0 {
		if quoteLen(held) == q {
			return q
		}
		return 0
	}
	ind := spaces(next)
	if ind > len(held) {
		return 0
	}
	for i := range ind {
		if held[i] != ' ' {
			return 0
		}
	}
	return ind
}

// quoteLen is the length of the mail quote ("> ", "> > ", ">> ") or the
// quote bar of a tracker or a log viewer's gutter ("| ") that starts s. A
// '>' before anything else is text: C++'s ">::f" starts the rest of a
// name broken after "<T>".
func quoteLen[T string | []byte](s T) int {
	i := 0
	for i < len(s) && (s[i] == '>' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '>') ||
		s[i] == '|' && (i+1 == len(s) || s[i+1] == ' ')) {
		i++
		if i < len(s) && s[i] == ' ' {
			i++
		}
	}
	return i
}

// standsAlone reports whether t is a line the open report knows by itself:
// then it is not the rest of the line before it.
func (b *builder) standsAlone(t string) bool {
	// (The cheapest tests first: each is enough.)
	if t == "" || len(t) > 2 && t[0] == '#' && (isDigit(t[1]) || t[1] == ' ') {
		return true // a numbered frame of any format starts a line
	}
	if b.inShadow && b.kind != kindDump {
		// A shadow row after a row: most lines of a sanitizer's shadow
		// dump, which miss every test below (asked first only to cost
		// less; a dump grammar's report never reaches this test).
		if _, ok := shadowRowLen(t); ok {
			return true
		}
	}
	if maybeReport([]byte(t)) && sanitizerStart([]byte(t)) != nil {
		return true
	}
	if strings.HasPrefix(t, "(gdb)") {
		return true // gdb's prompt, not a function's argument list
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
		// (A frame's piece broken after "(BuildId:" is no title.)
		return strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "(BuildId:") || (len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>') ||
			strings.HasPrefix(t, "goroutine ") || strings.HasPrefix(t, "at ") && !isGDB(b) || isSeparator(t, '=') || isSeparator(t, '-')
	}
	if strings.HasPrefix(t, "'") && strings.Contains(t, "' is ascii string '") {
		return true // ASan's line after a global's location, not its rest
	}
	if strings.HasPrefix(t, "Invalid access starting at offset ") {
		return true // HWASan's line after the access, not its rest
	}
	if strings.HasPrefix(t, "READ of size ") || strings.HasPrefix(t, "WRITE of size ") {
		return true // the access line after a headline, even broken itself
	}
	if b.isGrammar(t) || isLocation(t) || strings.HasPrefix(t, "==") || t == "Exiting" || strings.Contains(t, ": note: ") {
		return true
	}
	if _, ok := parseLegendHeader(t); ok {
		return true
	}
	if b.inLegend {
		if _, _, ok := parseLegendRow(t); ok {
			return true
		}
	}
	return false
}

// is reports whether the open report is one of p's other formats (not a
// sanitizer's): the wrapping quirks of a few producers' lines.
func (b *builder) is(p report.Producer) bool {
	return b.kind == kindDump && b.f.producer == p
}

// isGDB reports whether the open report is a gdb session or bt, whose
// frames end in "at FILE:LINE" (a wrapped frame's rest), never a line of
// their own that starts so.
func isGDB(b *builder) bool { return b.is(report.ProducerGDB) }

// isGlibc reports whether the open report is glibc's backtrace.
func isGlibc(b *builder) bool { return b.is(report.ProducerGlibc) }

// lineFrame parses t as a frame of the open report's format.
func lineFrame(b *builder, t string) (report.Frame, bool) {
	if b.kind != kindDump {
		return ParseFrame(t)
	}
	return b.f.frame(t)
}

// wrapExtends reports whether joined reads as the same kind of line as l,
// saying more (carries: the rest carries the report's prefix).
func wrapExtends(b *builder, l, joined string, carries bool) bool {
	n := joined[len(l)+1:]
	if l[0] == '#' && strings.HasSuffix(l, "(BuildId:") {
		_, ok := lineFrame(b, joined) // "... (BuildId:" and its id
		return ok
	}
	if numbered(l) {
		switch {
		case !balanced(l) && !balanced(joined), startsArgs(n):
			// An argument list or a module path broken more than once,
			// or gdb's "#2 0x... in f" and its "(a=1, b=2,": the frame
			// waits for the rest that closes it.
			return true
		case !balanced(l):
			// ... and the rest that closes it: a frame once joined.
			lf, lok := lineFrame(b, l)
			j := joined
			if isGDB(b) {
				// gdb's "...) at" or "...) from", whose file or module
				// is the next piece
				j = strings.TrimSuffix(strings.TrimSuffix(j, " at"), " from")
			}
			jf, ok := lineFrame(b, j)
			return ok && (!lok || jf.Index == lf.Index && jf.PC == lf.PC)
		}
	}
	if (b.kind == kindDump && isDigit(l[0]) || numbered(l)) && openAngles(l) && openAngles(joined) {
		// Rust's "8: core::iter::range::<impl" or "#1 Cache<std::string,"
		// broken more than once inside the name: it waits for the piece
		// that closes it.
		return true
	}
	if isGlibc(b) && strings.HasPrefix(n, "[0x") && strings.HasSuffix(n, "]") && strings.IndexByte(n, ' ') < 0 {
		// backtrace_symbols' "./prog(f+0x1c)" and its "[0x55...]"
		_, ok := lineFrame(b, joined)
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
	if b.kind != kindDump && strings.HasPrefix(l, "0x") && strings.HasSuffix(l, " in") && strings.IndexByte(n, ' ') < 0 {
		// A frame line that lost its "#N" (msan_joined_frame_lines_public):
		// "0x7ff96110a852 in" and its function
		return strings.Count(l, " ") == 1
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
	if strings.HasPrefix(l, "Shadow byte legend (") {
		// "... (one shadow byte represents" and its "8 application bytes):"
		_, ok := parseLegendHeader(joined)
		return ok && strings.HasSuffix(joined, "bytes):")
	}
	if joined == shadowHeader {
		return true // "Shadow bytes around the buggy" and its "address:"
	}
	if b.inShadow {
		// a shadow row and the rest of its bytes
		if n, ok := shadowRowLen(l); ok {
			jn, ok := shadowRowLen(joined)
			return ok && jn > n
		}
	}
	if b.inLegend {
		// "Partially addressable: 01 02 03 04 05" and its "06 07"
		if _, _, ok := parseLegendRow(l); ok {
			_, _, ok = parseLegendRow(joined)
			return ok
		}
	}
	if !balanced(l) && !strings.HasPrefix(l, "SUMMARY: ") {
		// A function's argument list broken off: a frame once joined
		// (or, as the format knows, a piece still open: a decoded kernel
		// frame's location list broken more than once).
		_, ok := lineFrame(b, joined)
		if !ok && b.kind == kindDump && b.f.wrapRest != nil {
			return b.f.wrapRest(l, n, carries)
		}
		return ok
	}
	if b.kind == kindDump {
		if strings.LastIndexByte(l, '[') > strings.LastIndexByte(l, ']') {
			// a kernel frame's "[module" and its "buildid]"
			_, ok := lineFrame(b, joined)
			return ok
		}
		if b.f == &goFormat {
			// "file.go:12 +0x4b fp=0x... sp=0x... pc=0x..." broken before a field
			var f report.Frame
			return goLocation(&f, l) && goLocationTail(joined[len(l)+1:])
		}
		return b.f.wrapRest != nil && b.f.wrapRest(l, joined[len(l)+1:], carries)
	}
	if _, _, ok := classifyTitle(l); !ok && !isLocation(l) {
		if _, _, ok := classifyTitle(joined); ok {
			return true // "... at offset 36 in" + "frame"
		}
	}
	if strings.HasPrefix(l, "0x") && !isLocation(l) && isLocation(joined) {
		return true // "0x... is" and its "located 32 bytes inside ..."
	}
	switch {
	case l == "SUMMARY:":
		// "SUMMARY:" and its "UndefinedBehaviorSanitizer: ..."
		tool, _, ok := strings.Cut(joined[len(l)+1:], " ")
		return ok && strings.HasSuffix(tool, "Sanitizer:")
	case strings.HasPrefix(l, "SUMMARY: "):
		if strings.HasSuffix(l, " (BuildId:") {
			return buildIDTail(joined[len(l)+1:]) // "(BuildId:" and its id
		}
		if tool, ok := strings.CutPrefix(l, "SUMMARY: "); ok && strings.HasSuffix(tool, "Sanitizer:") && !strings.Contains(tool, " ") {
			// "SUMMARY: UndefinedBehaviorSanitizer:" and its kind: a runtime
			// never ends the line after the tool.
			return true
		}
		if strings.Contains(l+" ", " in ") {
			return !strings.Contains(joined[len(l):], ": ") // the function, blanks and all
		}
		return summaryTail(joined[len(l)+1:])
	case isLocation(l):
		// "... 32-byte region [0x..,0x..)" and "(module+0x..)" end the line.
		return !strings.HasSuffix(l, ")") && !strings.Contains(joined[len(l):], ": ") && isLocation(joined)
	}
	if role, _, ok := classifyTitle(l); ok && !strings.HasSuffix(l, ":") && (!strings.Contains(joined[len(l):], ": ") || hwasanTags([]byte(n))) {
		r2, _, ok2 := classifyTitle(joined)
		return ok2 && r2 == role
	}
	return false
}

// openAngles reports whether t opens more "<" than it closes: a Rust or
// C++ name broken inside its generic arguments.
func openAngles(t string) bool {
	return strings.Count(t, "<") > strings.Count(t, ">")
}

// numbered reports whether t starts as a numbered frame does: "#12 ",
// "# 3 " (a space after "#" in old runtimes).
func numbered(t string) bool {
	if len(t) < 2 || t[0] != '#' {
		return false // (an empty t: a lost frame's line that is only a prefix)
	}
	i := 1
	if len(t) > 2 && t[1] == ' ' {
		i = 2
	}
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	return j > i && j < len(t) && t[j] == ' '
}

// startsArgs reports whether n opens an argument list it does not close:
// gdb's "(a=1, b=2," after a function name that ended a wrapped line.
func startsArgs(n string) bool {
	return len(n) > 1 && n[0] == '(' && isIdent(n[1]) && !balanced(n)
}

// frameGains reports whether jf is lf with more of its parts.
func frameGains(lf, jf report.Frame) bool {
	// gdb's "f (args) at" reads as a function until its file comes.
	// macOS's "f+0x8d" is a function until its "(module:arch+0x..)" comes.
	if jf.Index != lf.Index || jf.PC != lf.PC ||
		!strings.HasPrefix(jf.Function, lf.Function) && !strings.HasPrefix(lf.Function, jf.Function+" ") &&
			(!jf.HasSymbolOffset || lf.Function != jf.Function+"+0x"+strconv.FormatUint(jf.SymbolOffset, 16)) {
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
	// A longer function is more only when the line did not end with the
	// argument list: gdb's "f ()" takes no "[0x...]" after it.
	longer := len(jf.Function) > len(lf.Function) && !strings.HasSuffix(strings.TrimSpace(lf.Raw), ")")
	// A function where there was none is more: a tombstone frame's
	// "(art_jni_trampoline+144)" after its "(offset 0x2000000)".
	if jf.Line > 0 && lf.Line == 0 || jf.HasOffset && !lf.HasOffset || longer || lf.Function == "" && jf.Function != "" ||
		!balanced(lf.Function) && balanced(jf.Function) {
		more++
	}
	return more > 0
}

// brokenHead reports whether an idle line (lp: its probes, or nil) ends where a wrapper can have
// broken a headline that no runtime prints whole that way: before UBSan's
// "runtime error:", its "error:" or its message, after "ERROR: AddressSanitizer:" or
// "AddressSanitizer CHECK failed:" (a message always follows them), or
// boost::stacktrace's first frame broken after its " 0#".
func brokenHead(line []byte, lp *lineProbes) bool {
	n := len(line)
	if n == 0 {
		return false
	}
	// Every idle line of 80 columns or fewer comes here: its last byte
	// picks the one or two suffixes worth testing.
	switch line[n-1] {
	case 'e':
		if bytes.HasSuffix(line, markRuntime) {
			return true
		}
	case ' ':
		// A wrapper that kept the blank it broke at.
		return pidErrorCut(line)
	case ':':
		switch {
		case bytes.HasSuffix(line, markUBSanEnd), bytes.HasSuffix(line, markCheckEnd):
			return true
		case bytes.HasSuffix(line, markPIDError):
			return pidErrorCut(line)
		case bytes.HasSuffix(line, markSanitizerEnd), bytes.HasSuffix(line, markFuzzerEnd):
			return bytes.Contains(line, []byte("ERROR: ")) || bytes.Contains(line, []byte("WARNING: "))
		}
		// UBSan's "file.c:5:50:" before its "runtime error: ..."
		w := line[bytes.LastIndexByte(line, ' ')+1 : n-1]
		if _, ln, col := parseLoc(string(w)); ln > 0 && col > 0 {
			return true
		}
	case 't', 'm':
		// gdb's first frame broken after its "at" or "from": "#0  f () at"
		if (bytes.HasSuffix(line, markGDBAt) || bytes.HasSuffix(line, markGDBFrom)) && firstFrameGoesOn(string(line)) {
			return true
		}
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// libc's "Fatal signal 11" before its "(SIGSEGV), code 1 ..."
		// behind a long logcat prefix
		if fatalSignalCut(line) {
			return true
		}
	case '#':
		// boost::stacktrace's " 0#" before a name longer than the width
		if bytes.HasSuffix(line, markBoostFirst) && string(bytes.TrimSpace(line[splitKnownPrefix(line):])) == "0#" {
			return true
		}
	}
	return !lp.lacks(probeHash, line) && bytes.IndexByte(line, '#') >= 0 && openFirstFrame(line)
}

// addrRange reports whether t is only an address range, "[0x10,0x20)":
// the end of a location line ("... 120-byte region [0x..,0x..)") that a
// wrapper moved to a line of its own, not a writer's "[name]" prefix.
func addrRange(t []byte) bool {
	t = bytes.TrimSpace(t)
	if len(t) < 9 || t[0] != '[' || t[len(t)-1] != ')' {
		return false
	}
	lo, hi, ok := bytes.Cut(t[1:len(t)-1], []byte(","))
	return ok && isHexAddr(lo) && isHexAddr(hi)
}

// isHexAddr reports whether t is "0x" and hex digits.
func isHexAddr(t []byte) bool {
	return len(t) > 2 && t[0] == '0' && t[1] == 'x' && allHex(t[2:])
}

// pidErrorCut reports whether line ends in a sanitizer's "==PID==ERROR:",
// which the runtime never prints without its "AddressSanitizer: ..." (a
// long logcat prefix pushes the tool's name past 80 columns).
func pidErrorCut(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	if !bytes.HasSuffix(t, markPIDError) {
		return false
	}
	i := len(t) - len(markPIDError)
	j := i
	for j > 0 && isDigit(t[j-1]) {
		j--
	}
	return j < i && j >= 2 && t[j-1] == '=' && t[j-2] == '='
}

// fatalSignalCut reports whether line ends in libc's "Fatal signal N",
// which the runtime never prints without its "(SIGSEGV), code ...".
func fatalSignalCut(line []byte) bool {
	i := len(line)
	for i > 0 && isDigit(line[i-1]) {
		i--
	}
	return i < len(line) && bytes.HasSuffix(line[:i], markFatalSignal)
}

var (
	markFatalSignal  = []byte("Fatal signal ")
	markPIDError     = []byte("==ERROR:")
	markRuntime      = []byte(" runtime")
	markUBSanEnd     = []byte(": runtime error:")
	markSanitizerEnd = []byte("Sanitizer:")
	markFuzzerEnd    = []byte(" libFuzzer:")
	markCheckEnd     = []byte("Sanitizer CHECK failed:")
	markBoostFirst   = []byte("0#")
	markGDBAt        = []byte(") at")
	markGDBFrom      = []byte(") from")
)

// detectBrokenStart starts a report whose headline a wrapper broke before
// the part that marks it: the kernel's "general protection fault, probably
// for" and its "non-canonical address 0x...: 0000 [#1] ...", whose first
// piece alone is not tried (maybeReport looks for the "[#"). line is the
// line after the last idle one; only that one line back is looked at.
func (s *Scanner) detectBrokenStart(line []byte, no int) *builder {
	p := s.lastIdle
	if s.lastIdleNo != no-1 || !gpfStart(p) {
		return nil // most calls: tested before the last idle line is copied
	}
	q := pasteLen(string(p), line)
	if splitKnownPrefix(line[q:]) > 0 {
		return nil
	}
	t := bytes.TrimSpace(line[q:])
	if len(t) == 0 || !mayWrapLen(len(bytes.TrimRight(p, " "))-q, t) {
		return nil
	}
	joined := string(bytes.TrimRight(p, " ")) + " " + string(t)
	b := s.detectStart([]byte(joined), s.lastIdleNo)
	if b != nil {
		b.headSeg = len(line)
	}
	return b
}

// gpfStart reports whether an idle line of at most 80 columns is the
// first piece of the kernel's "general protection fault, probably for
// non-canonical address ...: 0000 [#1]" headline, without its marker.
func gpfStart(p []byte) bool {
	if len(p)-quoteLen(p)-spaces(p) > wrapMax || bytes.Contains(p, []byte("[#")) {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(p[splitKnownPrefix(p):], " "), []byte("general protection fault"))
}

// openFirstFrame reports whether p is a backtrace's first frame whose
// argument list a wrapper broke: gdb's "#0  f (a=1, b=2,".
func openFirstFrame(p []byte) bool {
	t := bytes.TrimLeft(p[splitKnownPrefix(p):], " ")
	return bytes.HasPrefix(t, []byte("#0 ")) && bytes.IndexByte(t, '(') >= 0 && !balanced(string(t))
}

// firstFrameGoesOn reports whether j, a first frame joined from wrapped
// pieces, waits for more: its argument list is open, or it ends in gdb's
// "at" or "from" before the file or module.
func firstFrameGoesOn(j string) bool {
	t := strings.TrimLeft(j[splitKnownPrefix([]byte(j)):], " ")
	return strings.HasPrefix(t, "#0 ") && (openFirstFrame([]byte(t)) || strings.HasSuffix(t, ") at") || strings.HasSuffix(t, ") from"))
}

// joinIdleHead returns h, a line brokenHead accepted, and line as one
// headline when line is its rest.
func joinIdleHead(h *qline, line []byte) (string, bool) {
	held := strings.TrimRight(h.text, " \t") // a wrapper may keep the blank it broke at
	q := pasteLen(held, line)
	t := bytes.TrimLeft(line[q:], " ")
	if strings.HasSuffix(held, " runtime") {
		// UBSan's "file:3:5: runtime" and its "error: ...".
		return held + " " + string(t), bytes.HasPrefix(t, []byte("error: "))
	}
	last := len(held) - q
	if h.seg != 0 {
		last = h.seg - q // joined already: the last piece's length
	}
	if len(bytes.TrimSpace(t)) == 0 || !mayWrapLen(last, t) || len(held)+1+len(t) > wrapJoinMax {
		return "", false
	}
	j := held + " " + string(t)
	if firstFrameGoesOn(held) {
		// the argument list goes on, or closes in a gdb frame
		if !balanced(j) {
			return j, splitKnownPrefix(t) == 0 && !strings.HasPrefix(string(t), "#")
		}
		body := strings.TrimSpace(j[splitKnownPrefix([]byte(j)):])
		_, ok := ParseGDBFrame(strings.TrimSuffix(strings.TrimSuffix(body, " at"), " from"))
		return j, ok
	}
	if strings.HasSuffix(held, "0#") {
		f, ok := ParseBoostFrame(strings.TrimSpace(j[splitKnownPrefix([]byte(j)):]))
		return j, ok && f.Index == 0
	}
	if fatalSignalCut([]byte(held)) {
		st, ok := dumpStart([]byte(j), "")
		return j, ok && st.f == &androidFormat
	}
	return j, sanitizerStart([]byte(j)) != nil
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
	q := pasteLen(b.pfx.text+b.rep.Raw[len(b.rep.Raw)-1], line)
	if b.kind == kindDump && b.f.headRest != nil {
		// The format judges its headline's rests itself.
		_, carries := b.pfx.strip(line)
		first := b.pfx.text + strings.TrimRight(b.rep.Raw[hl], " ")
		n, ok := b.f.headRest(b, line[q:], wrapLast(len(first), b.headSeg, q), carries)
		if !ok || len(first)+1+len(n) > wrapJoinMax {
			return false
		}
		b.rep.Raw[hl] += " " + n
		b.headSeg = len(line)
		return true
	}
	n := strings.TrimSpace(b.bodyOf(line))
	carries := true
	if b.pfx.text != "" {
		_, carries = b.pfx.strip(line)
		if m := strings.TrimSpace(string(line[q:])); !carries && kernelModuleRest(b, b.rep.Raw[hl], m) {
			n = m // "[test_kasan] at addr ...": no writer's "[name] "
		} else if !carries && splitKnownPrefix(line[q:]) > 0 && !ubsanCompletes(b.rep, n) {
			return false // another writer's "name: " line
		}
	}
	first := b.pfx.text + strings.TrimRight(b.rep.Raw[hl], " ")
	// A headline's rest is addresses and words ("0x7ffd... sp 0x7ffd...",
	// "for type 'int'", "malloc()-ed: 0x..."); nothing follows TSan's
	// "(pid=N)" or a sentence's end.
	last := wrapLast(len(first), b.headSeg, q)
	if len(first)+1+len(n) > wrapJoinMax {
		return false
	}
	if b.is(report.ProducerKernel) && strings.HasPrefix(b.rep.Headline, "WARNING: ") &&
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
	// A kernel headline's stamp-less rest may read as a line of its own
	// ("... slab-use-after-free in" and its "ring_pop+0x7e/0x130 [ringbuf]").
	stampless := b.is(report.ProducerKernel) && !carries
	if n == "" || !mayWrapLen(last, n) || stampless && userStart(n) || !stampless && b.standsAlone(n) ||
		strings.HasSuffix(first, ")") && strings.Contains(first, "(pid=") ||
		strings.HasSuffix(first, ".") || strings.HasSuffix(first, "!") {
		return false
	}
	whole := first + " " + n
	switch b.kind {
	case kindDump:
		switch {
		case b.is(report.ProducerKernel) && strings.HasPrefix(n, "[") && strings.HasSuffix(n, "]"):
			// "BUG: KASAN: ... in ring_pop+0x7e/0x130" and its "[ringbuf]"
		case b.is(report.ProducerKernel) && (strings.HasSuffix(first, " at") || strings.HasSuffix(first, " in")) && !strings.Contains(n, ": "):
			// "WARNING: CPU: 3 PID: 1187 at" and its "file.c:412 func+0x1b4/0x1f0"
		case b.is(report.ProducerKernel) && !balanced(first) && balanced(whole), b.is(report.ProducerKernel) && decodedLoc(n):
			// decode_stacktrace.sh's "WARNING: ... at f.c:12 f (f.c:12" and
			// its "(discriminator 2))", or "... at f.c:12 f" and its
			// "(f.c:12 (discriminator 2))"
		case b.is(report.ProducerKernel) && !carries && !strings.Contains(n, ": "):
			// A kernel headline's rest without the dmesg or syslog prefix
			// every kernel line carries: "INFO: task x:91 blocked for more
			// than 122" and its "seconds."
		case b.is(report.ProducerAndroid) && !carries && b.pfx.text != "" && !strings.Contains(n, ": "):
			// Behind logcat every line carries its prefix: "Fatal signal
			// 11 (SIGSEGV)," and its "code 1 (SEGV_MAPERR), fault addr ..."
		case b.is(report.ProducerGDB) && isGDBStop(first) && strings.HasSuffix(n, ".") && !strings.Contains(n, ": "):
			// gdb's stop line ends in its signal's description and a
			// full stop: "..., Segmentation" and its "fault."
		case b.rep.Producer() == report.ProducerGoPanic && (!strings.HasPrefix(n, "[") || strings.HasPrefix(n, "[recovered")) && !strings.Contains(n, ": "):
			// a panic value wrapped, or its "[recovered]" mark;
			// "[signal SIGSEGV: ...]" is the next line
		case b.is(report.ProducerGlibc) && strings.Contains(first, "*** Error in `") && !strings.HasSuffix(first, " ***") && strings.HasSuffix(n, "***"):
			// glibc <= 2.25's "*** Error in `prog': free(): invalid
			// pointer: 0x..." and its closing "***"
		default:
			return false // the other lines after a headline are the report's own
		}
		t := strings.TrimSpace(b.bodyOf([]byte(whole)))
		for _, f := range formats {
			if f.producer != b.f.producer {
				continue
			}
			if g, r := f.startLine(t, ""); g != nil && r.Tool == b.rep.Tool {
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

// kernelModuleRest reports whether n, which reads as a writer's "[name]"
// prefix, is the rest of a kernel headline broken after its function:
// "... in kasan_stack_oob+0xbf/0xe8" and its "[test_kasan] at addr ...".
func kernelModuleRest(b *builder, first, n string) bool {
	if !b.is(report.ProducerKernel) || !strings.HasPrefix(n, "[") {
		return false
	}
	mod, _, ok := strings.Cut(n[1:], "]")
	last := first[strings.LastIndexByte(first, ' ')+1:]
	return ok && kernelIdent(mod) && strings.Contains(last, "+0x") && strings.Contains(last, "/0x")
}

// decodedLoc reports whether n is a location decode_stacktrace.sh appends
// to a kernel frame: "(mm/percpu.c:1766 (discriminator 2))".
func decodedLoc(n string) bool {
	if !strings.HasPrefix(n, "(") {
		return false
	}
	f, ok := ParseKernelFrame("f " + n)
	return ok && f.File != ""
}

// ubsanCompletes reports whether n, read as the rest of r's headline,
// makes it a message UBSan prints: "signed integer" and its "overflow: 1
// * 2 cannot be represented ...", whose "overflow: " also reads as a
// writer's prefix or a label.
func ubsanCompletes(r *report.Report, n string) bool {
	return r.Tool == report.ToolUBSan && r.Kind == "undefined-behavior" &&
		ubsanCheck(r.Message+" "+n) != "undefined-behavior"
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

// buildIDTail reports whether t is the rest of a line broken after
// "(BuildId:": the id in hex, its ")", and a SUMMARY's " in FUNC".
func buildIDTail(t string) bool {
	i := 0
	for i < len(t) && isHex(t[i]) {
		i++
	}
	if i < 8 || i >= len(t) || t[i] != ')' {
		return false
	}
	return i+1 == len(t) || strings.HasPrefix(t[i+1:], " in ")
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
	last := wrapLast(len(first), b.headSeg, pasteLen(first, line))
	if n == "" || !mayWrapLen(last, n) || len(first)+1+len(n) > wrapJoinMax || b.standsAlone(n) {
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
	b.headSeg = wrapSeg(line)
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
	case r.Tool == report.ToolUBSan:
		// "overflow: 2147483647 + 1 cannot be ...", not "A label: value",
		// unless the whole is a message the runtime prints ("signed" and
		// its "integer overflow: 1 * 2 cannot be ...")
		i := strings.Index(n, ": ")
		if i < 0 || strings.IndexByte(n[:i], ' ') < 0 {
			return true
		}
		return ubsanCompletes(r, n)
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
