package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// look is the frame layout of one producer. Sanitizer reports (and a
// report of no known producer) keep the sanitizer layout, "#N 0xPC in FUNC
// FILE:LINE:COL"; the others print their frames as the producer does, a
// frame sanitrace did not symbolize exactly as read, and a frame it did
// symbolize in the producer's own layout with what it found, marked
// " (sanitrace)" like a symbolized sanitizer frame.
type look int

const (
	lookSanitizer look = iota
	lookKernel         // " func+0x1c/0x60 [mod]"; symbolized as decode_stacktrace.sh: " func (file:line ...) mod"
	lookGoRace         // "  pkg.f()" / "      file.go:12 +0x1c"
	lookGoPanic        // "pkg.f(...)" / "\tfile.go:12 +0x1c"
	lookGDB            // "#1  0x... in f (args) at file:line"
	lookGlibc          // glibc: the line as read, completed by " in FUNC FILE:LINE:COL (sanitrace)"
	lookRust           // as read, re-indented: "   3: main::pick" / "             at main.rs:4:5"
	lookBoost          // as read, re-indented: " 1# query(int) at a.cc:19"
	lookChromium       // "#5 0x55f1c6d3e0a1 <unknown>"; symbolized as Chromium's own symbolizer: "#5 0x55f1c6d3e0a1 in f() a.cc:12:3"
	lookValgrind       // "==1234==    by 0x10919B: f (a.c:12)", "by 0x10919B: ??? (in /usr/bin/prog)"
	// lookAndroid: a tombstone as printed, a frame sanitrace symbolized
	// completed as glibc's are: "    #03 pc 000115dd  /system/lib/libc.so in f a.c:3 (sanitrace)"
	lookAndroid
)

// onePerAddress reports whether the look prints one line per address, an
// inline chain sanitrace found there included (the others print each
// inlined call as a frame of its own, as gdb, Go and Chromium do).
func (lk look) onePerAddress() bool {
	switch lk {
	case lookKernel, lookGlibc, lookRust, lookBoost, lookAndroid:
		return true
	}
	return false
}

// asPrinted reports whether a report of the look is written line for line
// as its producer printed it (rawReport): the kernel's and Go's reports,
// whose lines between the headline and the stacks (KASAN's access line,
// the CPU, hardware and register lines, Go's signal line) say what the
// typed parts do not. gdb's stop lines become numbered frames, and the
// other producers' own lines are all in their typed parts.
func (lk look) asPrinted() bool {
	switch lk {
	case lookKernel, lookGoPanic, lookGoRace, lookRust, lookValgrind, lookAndroid:
		return true
	}
	return false
}

// mark is what the look writes before every line of r written as printed:
// Valgrind's "==PID== ", which the model keeps apart (Report.PID).
func (lk look) mark(r *report.Report) string {
	if lk == lookValgrind && r.PID != 0 {
		return fmt.Sprintf("==%d== ", r.PID)
	}
	return ""
}

// looks is the look of each producer's reports; every producer has a row
// (TestLooks), so a new one cannot fall into the sanitizer layout unseen.
var looks = map[report.Producer]look{
	report.ProducerSanitizer: lookSanitizer,
	report.ProducerLibFuzzer: lookSanitizer,
	report.ProducerKernel:    lookKernel,
	report.ProducerGoRace:    lookGoRace,
	report.ProducerGoPanic:   lookGoPanic,
	report.ProducerRust:      lookRust,
	report.ProducerGDB:       lookGDB,
	report.ProducerGlibc:     lookGlibc,
	report.ProducerChromium:  lookChromium,
	report.ProducerBoost:     lookBoost,
	report.ProducerLWS:       lookSanitizer, // written by heapDump, not by the looks
	report.ProducerValgrind:  lookValgrind,
	report.ProducerAndroid:   lookAndroid,
}

// lookOf is the look of a report of producer p; a report of no known
// producer (a model built by hand) is written as a sanitizer's.
func lookOf(p report.Producer) look {
	if lk, ok := looks[p]; ok {
		return lk
	}
	return lookSanitizer
}

// rawLines is a frame's line(s) as read, each without its indent: the
// producer's indent is put back by the look (a pasted log's may be gone).
func rawLines(f report.Frame) []string {
	lines := strings.Split(f.Raw, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return lines
}

// asRead is a frame's lines as read with the producer's indent put back.
func asRead(lk look, raw []string) []string {
	out := make([]string, len(raw))
	for k, l := range raw {
		switch {
		case lk == lookKernel:
			l = " " + l // show_trace_log_lvl's " %s%pBb"
		case lk == lookGoRace && k == 0:
			l = "  " + l
		case lk == lookGoRace:
			l = "      " + l
		case lk == lookGoPanic && k > 0:
			l = "\t" + l
		case lk == lookRust && k == 0:
			// The index right-aligned in four columns: "   3: main::pick".
			if n := strings.IndexByte(l, ':'); n >= 0 && n < 4 {
				l = strings.Repeat(" ", 4-n) + l
			}
		case lk == lookRust:
			l = strings.Repeat(" ", 13) + l
		case lk == lookBoost:
			// The index right-aligned in two columns: " 1# query".
			if n := strings.IndexByte(l, '#'); n == 1 {
				l = " " + l
			}
		case lk == lookValgrind:
			l = "   " + l // after the "==PID== " mark
		case lk == lookAndroid:
			l = "    " + l // debuggerd's "    #00 pc ..."
		}
		out[k] = l
	}
	if lk != lookRust && lk != lookGoRace && lk != lookGoPanic && len(out) > 1 {
		// A one-line frame a paste wrapped: one line again.
		return []string{strings.Join(raw, " ")}
	}
	return out
}

// chainEnd is the index of the last frame of the inline chain starting
// at fs[i]: frames sanitrace found inlined at one address are printed
// together by the looks that print one line per address.
func chainEnd(fs []report.Frame, i int) int {
	j := i
	for j+1 < len(fs) && fs[j].Inlined && fs[j].Symbolized == report.SymbolizedSanitrace &&
		fs[j+1].Symbolized == report.SymbolizedSanitrace && fs[j+1].Raw == fs[j].Raw {
		j++
	}
	return j
}

// lookStack writes the frames of s in look lk.
func (t *Text) lookStack(s report.Stack, lk look) {
	shown := map[string]bool{}
	ctx := "" // the kernel's context marker currently open
	pad := ""
	if lk == lookKernel && strings.HasPrefix(s.Title, "-> #") {
		// lockdep prints a dependency's stack six blanks further in
		// (print_lock_trace(trace, 6)) than the kernel's other stacks.
		pad = "      "
	}
	fs := s.Frames
	for i := 0; i < len(fs); i++ {
		if lk == lookKernel && fs[i].Context != ctx {
			t.kernelContext(&ctx, fs[i].Context)
		}
		if n := t.collapseRun(fs, i); n > 0 {
			i += n - 1
			continue
		}
		j := i
		if lk.onePerAddress() {
			j = chainEnd(fs, i)
		}
		for _, l := range t.chainLines(lk, fs, i, j) {
			t.line(pad + l)
		}
		for k := i; k <= j; k++ {
			t.sourceContext(&fs[k], shown)
		}
		i = j
	}
	if lk == lookKernel && ctx != "" {
		t.kernelContext(&ctx, "")
	}
	t.stackEnd(s, len(s.Frames)-1)
}

// chainLines is the line(s) of the frames fs[i..j] (one frame, or an
// inline chain at one address) in look lk.
func (t *Text) chainLines(lk look, fs []report.Frame, i, j int) []string {
	// Of an inline chain gdb prints the pc on the innermost frame only.
	showPC := i == 0 || !fs[i-1].Inlined || fs[i-1].PC != fs[i].PC
	return t.lookFrame(lk, frameNumber(fs, i), fs[i:j+1], showPC)
}

// frameNumber is the number frame fs[i] is printed with, in every look
// that numbers frames: the number the log printed. Text output never
// renumbers: an inlined call sanitrace found at a frame's address is
// numbered after that frame as N.1, N.2, ... innermost first, and the
// frame itself keeps its N, as llvm-symbolizer's markup filter numbers a
// {{{bt}}} frame's inline chain. A stack whose frames carry no numbers
// (glibc, Valgrind, a model built by hand) is numbered by position.
func frameNumber(fs []report.Frame, i int) string {
	a, b := i, i // the chain sanitrace expanded fs[i]'s frame into
	for a > 0 && addedInline(fs[a-1], fs[a]) {
		a--
	}
	for b+1 < len(fs) && addedInline(fs[b], fs[b+1]) {
		b++
	}
	n := fs[b].Index
	if n < 0 || n == 0 && a > 0 { // no printed numbers: a repeated #0 starts a new stack
		n = a
	}
	if i < b {
		return strconv.Itoa(n) + "." + strconv.Itoa(i-a+1)
	}
	return strconv.Itoa(n)
}

// addedInline reports whether f is an inlined call sanitrace found at
// the address of the log's frame that next, the frame after it, stands
// for too (both made from the one frame line).
func addedInline(f, next report.Frame) bool {
	return f.Inlined && f.Symbolized == report.SymbolizedSanitrace && next.Symbolized == report.SymbolizedSanitrace &&
		f.Raw != "" && f.Raw == next.Raw
}

// kernelContext closes the open context marker and opens the next, as the
// kernel prints them around a stack's frames (" <IRQ>", " </IRQ>").
func (t *Text) kernelContext(open *string, next string) {
	if *open != "" {
		t.line(" " + t.pal.dim.Sprint("</"+*open+">"))
	}
	if next != "" {
		t.line(" " + t.pal.dim.Sprint("<"+next+">"))
	}
	*open = next
}

// lookFrame is the line(s) of the frames fs (one frame, or an inline chain
// at one address, innermost first), the first numbered num (frameNumber).
func (t *Text) lookFrame(lk look, num string, fs []report.Frame, showPC bool) []string {
	f := fs[0]
	p := t.pal
	paint := func(s string) string { return t.paintFrame(f, s) }
	marker := dimIf(p, t.marker(f))
	if f.Symbolized != report.SymbolizedSanitrace && f.Raw != "" {
		// Not sanitrace's work: the frame as the producer printed it.
		// (Its number as printed: never renumbered.)
		out := asRead(lk, rawLines(f))
		for k := range out {
			out[k] = paint(out[k])
		}
		if f.Unparsed {
			out[len(out)-1] += p.marker.Sprint(UnparsedMarker)
		}
		return out
	}
	if f.Symbolized != report.SymbolizedSanitrace {
		// A frame without its line (a model built by hand): the
		// sanitizer layout says what it holds.
		return []string{t.frame(num, &f)}
	}
	fn := func(f report.Frame) string {
		name := f.Function
		if name == "" {
			name = "??"
		}
		if t.class(&f) != report.User {
			return p.system.Sprint(name)
		}
		return p.function.Sprint(name)
	}
	file := func(s string) string {
		if t.class(&f) != report.User {
			return p.system.Sprint(s)
		}
		return p.file.Sprint(s)
	}
	switch lk {
	case lookKernel:
		// decode_stacktrace.sh: the printed name without its offset, the
		// file:line of each function of the inline chain (innermost
		// first) in one pair of parentheses, the module's name bare.
		last := fs[len(fs)-1]
		var locs []string
		for _, g := range fs {
			locs = append(locs, fileLine(g))
		}
		line := " "
		if f.Unreliable {
			line += "? "
		}
		line += fn(last) + " (" + file(strings.Join(locs, " ")) + ")"
		if f.Module != "" {
			line += " " + f.Module
		}
		return []string{line + marker}
	case lookGoRace, lookGoPanic:
		args := "()"
		if f.Inlined {
			args = "(...)" // Go's mark of an inlined call
		}
		loc := fileLine(f)
		if f.HasSymbolOffset {
			loc += fmt.Sprintf(" +0x%x", f.SymbolOffset)
		}
		if lk == lookGoRace {
			return []string{"  " + fn(f) + args, "      " + file(loc) + marker}
		}
		return []string{fn(f) + args, "\t" + file(loc) + marker}
	case lookChromium:
		// Chromium's in-process symbolizer prints the sanitizers' layout
		// (an inline chain as frames sharing a pc), at the left margin.
		return []string{strings.TrimPrefix(t.frame(num, &f), frameIndent)}
	case lookValgrind:
		// Valgrind's own layout: "at" for the innermost frame, "by" for
		// the others, the pc in capitals, "(file:line)" or "(in module)".
		at, _, _ := strings.Cut(strings.TrimSpace(f.Raw), " ")
		if at != "at" && at != "by" {
			at = "by"
			if num == "0" {
				at = "at"
			}
		}
		line := fmt.Sprintf("   %s 0x%X: %s", at, f.PC, fn(f))
		switch {
		case f.File != "":
			line += " (" + file(fileLine(f)) + ")"
		case f.Module != "":
			line += " (in " + f.Module + ")"
		}
		return []string{line + marker}
	case lookGDB:
		line := fmt.Sprintf("#%-2s ", num)
		if f.HasPC && showPC {
			line += fmt.Sprintf("0x%0*x in ", gdbPCWidth(f), f.PC)
		}
		line += fn(f) + " ()"
		if f.File != "" {
			line += " at " + file(fileLine(f))
		} else if f.Module != "" {
			line += " from " + f.Module
		}
		return []string{line + marker}
	}
	// lookGlibc and lookAndroid: the line as read, then where sanitrace found it, and
	// the callers it was inlined into as addr2line -i names them.
	var out []string
	if f.Raw == "" {
		// No line to complete (a model built by hand): the sanitizer
		// layout says it all.
		out = []string{strings.TrimPrefix(t.frame(num, &f), frameIndent)}
	} else {
		out = asRead(lk, rawLines(f))
		for k := range out {
			out[k] = paint(out[k])
		}
		out[len(out)-1] += " in " + fn(f) + lookLocation(f, file) + marker
	}
	for _, g := range fs[1:] {
		out = append(out, "    (inlined by) "+fn(g)+lookLocation(g, file)+dimIf(p, t.marker(g)))
	}
	return out
}

// lookLocation is " FILE:LINE:COL", or "" when f has no file.
func lookLocation(f report.Frame, paint func(string) string) string {
	if f.File == "" {
		return ""
	}
	return " " + paint(fileLineCol(f))
}

// gdbPCWidth is the number of hex digits gdb pads a pc to: the width of
// the frame's own printed pc, else 16 (a 64-bit inferior).
func gdbPCWidth(f report.Frame) int {
	if _, rest, ok := strings.Cut(f.Raw, " 0x"); ok {
		n := 0
		for n < len(rest) && isHexDigit(rest[n]) {
			n++
		}
		if n >= 8 {
			return n
		}
	}
	return 16
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ripLine writes a kernel stack that is only the faulting instruction's
// line ("RIP: 0010:func+0x1c/0x60 [mod]", arm64's "pc : func+..."; its frame read from it) as that
// line, resolved as decode_stacktrace.sh resolves it ("RIP:
// 0010:func (file:line) mod"); it reports false for any other stack.
func (t *Text) ripLine(s report.Stack) bool {
	if len(s.Frames) != 1 {
		return false
	}
	head, sym, ok := strings.Cut(s.Title, ":")
	raw := strings.TrimSpace(s.Frames[0].Raw)
	if !ok || (head != "RIP" && head != "EIP" && head != "pc ") || raw == "" || !strings.Contains(s.Title, raw) {
		return false
	}
	f := s.Frames[0]
	if f.Symbolized != report.SymbolizedSanitrace {
		t.line(s.Title)
		return true
	}
	// The segment ("0010:") stays before the name, as decode_stacktrace.sh
	// keeps it.
	seg := ""
	if i := strings.IndexByte(strings.TrimSpace(sym), ':'); i >= 0 && !strings.ContainsAny(strings.TrimSpace(sym)[:i], "+ ") {
		seg = strings.TrimSpace(sym)[:i+1]
	}
	line := strings.TrimLeft(t.lookFrame(lookKernel, "0", s.Frames, true)[0], " ")
	t.line(head + ": " + seg + line)
	return true
}

// rawAnchor is where a frame (or an inline chain sanitrace found at one
// address) stands in a report's own lines.
type rawAnchor struct {
	stack, first, last int // the frames s.Frames[first..last] of r.Stacks[stack]
	lines              int // how many of the report's lines they take
	register           bool
}

// anchorFrames finds every frame of r, in order, in r.Raw: the report's
// line index of each frame's first line. It reports false when a frame's
// line(s) are not there in order (a report assembled by hand, a frame
// without its line).
func anchorFrames(r *report.Report) (map[int]rawAnchor, bool) {
	anchors := map[int]rawAnchor{}
	at := 0
	for si, s := range r.Stacks {
		fs := s.Frames
		if s.FromRegisters() && len(fs) == 1 && strings.Contains(s.Title, strings.TrimSpace(fs[0].Raw)) {
			// (i386's "EIP: 0060:[<...>] EIP is at f+0x95/0x140" holds its
			// frame in another form: the typed layout writes that report.)
			// The frame was read from its stack's title ("RIP: ...").
			k := indexFrom(r.Raw, at, []string{strings.TrimSpace(s.Title)})
			if k < 0 {
				return nil, false
			}
			anchors[k] = rawAnchor{stack: si, lines: 1, register: true}
			at = k + 1
			continue
		}
		for i := 0; i < len(fs); i++ {
			want := rawLines(fs[i])
			if len(want) == 0 || want[0] == "" {
				return nil, false
			}
			k := indexFrom(r.Raw, at, want)
			if k < 0 {
				return nil, false
			}
			j := chainEnd(fs, i)
			anchors[k] = rawAnchor{stack: si, first: i, last: j, lines: len(want)}
			at = k + len(want)
			i = j
		}
	}
	return anchors, true
}

// indexFrom is the first index k >= from where lines[k:] starts with want,
// each line compared without its indent; -1 when there is none.
func indexFrom(lines []string, from int, want []string) int {
	for k := from; k+len(want) <= len(lines); k++ {
		ok := true
		for n, w := range want {
			if strings.TrimSpace(lines[k+n]) != w {
				ok = false
				break
			}
		}
		if ok {
			return k
		}
	}
	return -1
}

// rawReport writes r as its producer printed it, line for line (r.Raw),
// each frame's line(s) replaced by the look's rendering of the frame: a
// kernel report as decode_stacktrace.sh prints one, with its access line,
// CPU and hardware lines, register dump and memory state; a Go panic with
// its signal line and goroutine headers. It reports false, having written
// nothing, when r's frames cannot all be found in r.Raw in order; the
// caller then writes the report from its typed parts.
func (t *Text) rawReport(r *report.Report, lk look) bool {
	anchors, ok := anchorFrames(r)
	if !ok || indexFrom(r.Raw, 0, []string{strings.TrimSpace(r.Headline)}) < 0 {
		return false // the report's lines are not all in r.Raw
	}
	p := t.pal
	titles := map[string]bool{}
	for _, s := range r.Stacks {
		titles[strings.TrimSpace(s.Title)] = true
	}
	mark := lk.mark(r)
	shown := map[string]bool{} // file:line already given source context
	for k := 0; k < len(r.Raw); k++ {
		a, ok := anchors[k]
		if !ok {
			l := r.Raw[k]
			switch trimmed := strings.TrimSpace(l); {
			case trimmed == r.Headline:
				l = p.headline.Sprint(l)
			case trimmed != "" && titles[trimmed]:
				l = p.title.Sprint(l)
			}
			t.line(mark + l)
			continue
		}
		s := r.Stacks[a.stack]
		if a.register {
			if !t.ripLine(s) {
				t.line(r.Raw[k]) // a form ripLine does not resolve: as printed
			}
			continue
		}
		fs := s.Frames
		if n := t.collapseRun(fs, a.first); n > 0 {
			// The run's lines end with the last frame of its last anchor.
			end := k + a.lines
			for m := k + a.lines; m < len(r.Raw); m++ {
				b, ok := anchors[m]
				if !ok {
					continue
				}
				if b.register || b.stack != a.stack || b.first >= a.first+n {
					break
				}
				end = m + b.lines
			}
			k = end - 1
			t.stackEnd(s, a.first+n-1)
			continue
		}
		switch {
		case fs[a.first].Symbolized != report.SymbolizedSanitrace:
			// Not sanitrace's work: the line(s) as printed, indent and all
			// (lockdep's and ref_tracker's stacks stand further in).
			for _, l := range r.Raw[k : k+a.lines] {
				t.line(mark + t.paintFrame(fs[a.first], l))
			}
		case lk.onePerAddress():
			t.rawFrames(lk, fs, a.first, a.last, indentOf(r.Raw[k]), mark)
		default:
			for i := a.first; i <= a.last; i++ {
				t.rawFrames(lk, fs, i, i, "", mark)
			}
		}
		for n := a.first; n <= a.last; n++ {
			t.sourceContext(&fs[n], shown)
		}
		k += a.lines - 1
		t.stackEnd(s, a.last)
	}
	return true
}

// rawFrames writes the frames fs[i..j] (one frame, or an inline chain at
// one address) in look lk, each line after mark (lookValgrind's); a
// kernel frame's line at the indent its stack was printed with.
func (t *Text) rawFrames(lk look, fs []report.Frame, i, j int, indent, mark string) {
	for n, l := range t.chainLines(lk, fs, i, j) {
		if lk == lookKernel && n == 0 && indent != "" {
			l = indent + strings.TrimPrefix(l, " ") // the look's own one blank
		}
		t.line(mark + l)
	}
}

// paintFrame is a frame's line as printed, in the color of whose code
// the frame is.
func (t *Text) paintFrame(f report.Frame, l string) string {
	if t.class(&f) != report.User {
		return t.pal.system.Sprint(l)
	}
	return l
}

// indentOf is the blanks l starts with.
func indentOf(l string) string {
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

// stackEnd writes, after the frame fs[last] of s, the note that s was cut
// short when that frame is its last (every stack's writer ends with it).
func (t *Text) stackEnd(s report.Stack, last int) {
	if last == len(s.Frames)-1 && s.Truncated != "" {
		t.line("    " + t.pal.dim.Sprint("(stack possibly truncated: "+s.Truncated+")"))
	}
}
