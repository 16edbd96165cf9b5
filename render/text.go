package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/report"
)

// Text renders reports for people, one at a time.
type Text struct {
	w    *bufio.Writer
	opts Options
	pal  *palette
	src  *sourceReader
	n    int // reports written so far (under the current input header)
	// wrote is set once anything was written: a header or the closing
	// line after it is set apart by a blank line.
	wrote bool
	// noMarker leaves out the "(sanitrace)" marker (FrameText: its
	// callers symbolize every frame themselves).
	noMarker bool
	// producer is the producer of the report being written: whose
	// frames are whose depends on it (report.Producer.Class).
	producer report.Producer
}

// NewText returns a renderer writing to w.
func NewText(w io.Writer, opts Options) *Text {
	return &Text{
		w:    bufio.NewWriter(w),
		opts: opts,
		pal:  newPalette(opts.Color),
		src:  newSourceReader(opts.SourcePath),
	}
}

// Close flushes what is buffered; the text has no closing part.
func (t *Text) Close() error { return t.flush() }

// Report writes one report and flushes it.
func (t *Text) Report(r *report.Report) error {
	if r == nil {
		return errors.New("render text: nil report")
	}
	r = safeReport(r) // every string of it came from an input
	if t.n > 0 && !t.opts.Passthrough {
		t.line("")
	}
	t.n++
	t.producer = r.Producer()
	if report.IsHeapDump(r) {
		return t.heapDump(r)
	}
	p := t.pal

	headline := r.Headline
	if headline == "" {
		headline = strings.TrimSpace(r.Tool + ": " + r.Kind)
	}
	lk := lookOf(t.producer)
	if lk.asPrinted() && t.rawReport(r, lk) {
		return t.reportEnd(r)
	}
	if lk == lookSanitizer && r.PID != 0 && (strings.HasPrefix(headline, "ERROR:") || strings.HasPrefix(headline, "WARNING:")) && !strings.Contains(headline, "(pid=") {
		// The runtimes print "==PID==ERROR: ..."; the model keeps the pid apart.
		headline = fmt.Sprintf("==%d==%s", r.PID, headline)
	}
	if lk == lookGoRace {
		t.line(goRaceRule) // the race detector frames each report so
	}
	t.line(p.headline.Sprint(headline))
	if lk == lookRust && r.Message != "" && r.Message != r.Headline {
		t.line(p.headline.Sprint(r.Message)) // since Rust 1.73 on a line of its own
	}
	if r.Tool == report.ToolLSan || lk == lookGoPanic {
		t.line("") // as LSan and Go print it, the stacks stand apart
	}

	// Location lines go where the runtimes print them: after the access
	// (and TSan's previous-access) stacks, before the history stacks;
	// ASan's stack objects after the stack of their frame, TSan's lock
	// cycle under the headline.
	var locs []string
	for _, l := range r.Location {
		locs = append(locs, l.Text)
	}
	frameObjs := r.StackObjects
	early := r.LockCycle
	// When a stack introduces the location ("Address ... is located in
	// stack ...", TSan's "Location is heap block ..."), the explanation of
	// the access follows that stack instead.
	access, anchor := DescribeAccess(r), -1
	for i, s := range r.Stacks {
		if s.Location != nil {
			anchor = i
			break
		}
	}
	locIndent := ""
	if r.Tool == report.ToolTSan {
		locIndent = "  "
	}
	if r.Access != nil && !accessIsTitle(r) {
		t.line(p.access.Sprint(accessLine(r.Access)))
	}
	for _, l := range early {
		t.line(locIndent + p.location.Sprint(l))
	}
	if len(early) > 0 {
		t.line("")
	}
	locDone := false
	printLocations := func() {
		if locDone {
			return
		}
		locDone = true
		for _, l := range locs {
			if !titledStack(r, l) {
				t.line(locIndent + p.location.Sprint(l))
			}
		}
		if anchor < 0 && access != "" {
			t.line(locIndent + p.location.Sprint("Access: "+access))
		}
		if len(locs) > 0 || (anchor < 0 && access != "") {
			t.line("")
		}
	}

	for i, s := range r.Stacks {
		if i > 0 && s.Role != "access" && s.Role != "previous" {
			printLocations()
		}
		indent := ""
		if r.Tool == report.ToolTSan || (r.Tool == report.ToolMSan && i > 0) {
			indent = "  "
		}
		if lk == lookKernel && t.ripLine(s) {
			t.line("")
			continue
		}
		if s.Title != "" && !(i == 0 && strings.Contains(r.Headline, s.Title)) {
			c := p.title
			if s.Role == "access" {
				c = p.access
			}
			t.line(indent + c.Sprint(s.Title))
		}
		if lk != lookSanitizer {
			t.lookStack(s, lk)
		} else {
			t.stack(s)
		}
		if s.Location != nil && s.Location.Kind == report.StackFrame {
			t.frameObjects(frameObjs)
			frameObjs = nil
		}
		if i == anchor && access != "" {
			t.line(indent + p.location.Sprint("Access: "+access))
		}
		if lk == lookGoRace && i == len(r.Stacks)-1 {
			t.line(goRaceRule) // right under the last frame
			continue
		}
		t.line("")
	}
	printLocations()
	t.frameObjects(frameObjs)

	if r.Summary.Text != "" {
		t.line(p.summary.Sprint("SUMMARY: " + r.Summary.Text))
	}
	if r.Shadow != nil {
		t.shadow(r)
	}
	t.fuzzerInput(r)
	return t.reportEnd(r)
}

// fuzzerInput writes libFuzzer's account of the failing input (MS:, the
// input's bytes, the artifact's path, Base64) as printed: the lines a user
// reproduces the crash with.
func (t *Text) fuzzerInput(r *report.Report) {
	if r.Fuzzer == nil {
		return
	}
	for _, l := range r.Fuzzer.Lines {
		t.line(l)
	}
}

// reportEnd ends a report: the note that it was cut short, said once, at
// the end, where the missing lines would be; then the flush.
func (t *Text) reportEnd(r *report.Report) error {
	if r.Truncated {
		t.line(t.pal.dim.Sprint(TruncatedNote))
	}
	return t.flush()
}

// goRaceRule opens and closes a Go race detector report.
const goRaceRule = "=================="

// frameObjects prints ASan's stack-object list indented as ASan does.
func (t *Text) frameObjects(o *report.StackObjects) {
	if o == nil {
		return
	}
	if o.Header != "" {
		t.line("  " + o.Header)
	}
	for _, v := range o.Objects {
		t.line("    " + v.Text)
	}
}

// accessIsTitle reports whether a stack title already is the access line.
func accessIsTitle(r *report.Report) bool {
	for _, s := range r.Stacks {
		if s.Role == "access" || (r.Access.Address != "" && strings.Contains(s.Title, r.Access.Address)) {
			return true
		}
	}
	return false
}

// titledStack reports whether l is also the title of a stack (TSan's
// "Location is heap block ... allocated by main thread:"), printed there.
func titledStack(r *report.Report, l string) bool {
	for _, s := range r.Stacks {
		if strings.TrimSpace(s.Title) == strings.TrimSpace(l) {
			return true
		}
	}
	return false
}

func accessLine(a *report.Access) string {
	s := a.Op
	if a.Size > 0 {
		s += fmt.Sprintf(" of size %d", a.Size)
	}
	if a.Address != "" {
		s += " at " + a.Address
	}
	if a.Thread != "" {
		s += " thread " + a.Thread
	}
	return strings.TrimSpace(s)
}

// stack writes the frames of s, innermost first, numbered by position: an
// inline chain is several frames sharing one pc, as the runtimes print it.
func (t *Text) stack(s report.Stack) {
	if s.Marker != "" {
		t.line(frameIndent + t.pal.dim.Sprint(s.Marker))
	}
	shown := map[string]bool{} // file:line already given source context
	for i := 0; i < len(s.Frames); i++ {
		f := &s.Frames[i]
		if n := t.collapseRun(s.Frames, i); n > 0 {
			i += n - 1
			continue
		}
		t.line(t.frame(frameNumber(s.Frames, i), f))
		t.sourceContext(f, shown)
	}
	t.stackEnd(s, len(s.Frames)-1)
}

// class says whose code f is in, in the report being written.
// With Options.InApp, its verdict decides what is the program's own.
func (t *Text) class(f *report.Frame) report.FrameClass {
	c := t.producer.Class(f)
	if t.opts.InApp == nil {
		return c
	}
	switch in := t.opts.InApp(t.producer, f); {
	case in:
		return report.User
	case c == report.User:
		return report.Excluded
	}
	return c
}

// collapseRun writes, with --frames user, the one line that stands for
// the run of frames from fs[i] on that are not the program's own code, and
// returns how many frames it stands for: 0 when fs[i] is the program's or
// every frame is shown.
func (t *Text) collapseRun(fs []report.Frame, i int) int {
	if !t.opts.UserFrames {
		return 0
	}
	n := 0
	// (A line the parser could not read is always shown.)
	for i+n < len(fs) && !fs[i+n].Unparsed && t.class(&fs[i+n]) != report.User {
		n++
	}
	if n > 0 {
		t.line(frameIndent + t.pal.dim.Sprint(t.collapsed(fs[i:i+n], frameNumber(fs, i), frameNumber(fs, i+n-1))))
	}
	return n
}

// collapsed is the line that stands for the frames fs, the first of them
// numbered first (--frames user): "#0-#2 (3 frames: interceptor, libc)",
// "#4 (1 frame: libc)".
// It does not start "#N 0x", so a tool that looks for frame lines skips it.
func (t *Text) collapsed(fs []report.Frame, first, last string) string {
	var classes []string
	seen := map[report.FrameClass]bool{}
	for i := range fs {
		c := t.class(&fs[i])
		if !seen[c] {
			seen[c] = true
			classes = append(classes, c.String())
		}
	}
	if len(fs) == 1 {
		return fmt.Sprintf("#%s (1 frame: %s)", first, classes[0])
	}
	return fmt.Sprintf("#%s-#%s (%d frames: %s)", first, last, len(fs), strings.Join(classes, ", "))
}

// plainText formats frames without colors, for FrameText; frame only
// reads it.
var plainText = &Text{pal: newPalette(false), noMarker: true}

// FrameText is frame f printed as the i'th frame of a stack, without
// colors or indent, as the text writer prints it: "#0 0x406651 in
// make_buf /build/app/buf.c:48:12", "#3 0x406c1b (/build/app/server+0x406c1b)".
// Every text output that lists frames (decode, lws decode, the heap map)
// prints them with it.
func FrameText(i int, f report.Frame) string {
	sf := safeFrame(f)
	return strings.TrimPrefix(plainText.frame(strconv.Itoa(i), &sf), frameIndent)
}

// frameIndent is how far the text writer indents a frame.
const frameIndent = "    "

func (t *Text) frame(num string, f *report.Frame) string {
	if f.Unparsed {
		return frameIndent + t.unparsed(*f)
	}
	if !f.HasPC && f.HasOffset && f.Module != "" {
		return t.tsanFrame(num, f)
	}
	p := t.pal
	// (Without colors the class is not asked: reading the frame's paths
	// for it was 6% of decode's CPU on a log dense with reports.)
	user := p.colored && t.class(f) == report.User
	in := " in "
	if !f.HasPC {
		in = " " // TSan prints "#0 func file:line"
	}
	// A runtime's frame is painted whole; the program's own frame has its
	// function, its file and its module painted each in its own color.
	whole, function, file, mod := p.system, p.function, p.file, p.dim
	if user {
		whole = ink{}
	} else {
		function, file, mod = ink{}, ink{}, ink{}
	}
	b := make([]byte, 0, 160) // one line's room: the copy is the one allocation
	b = append(append(b, frameIndent...), whole.on...)
	b = append(b, '#')
	b = append(b, num...)
	if f.HasPC {
		b = strconv.AppendUint(append(b, " 0x"...), f.PC, 16)
	}
	if f.Function != "" {
		b = append(append(append(b, in...), function.on...), f.Function...)
		if f.File == "" && f.HasSymbolOffset {
			b = strconv.AppendUint(append(b, "+0x"...), f.SymbolOffset, 16) // "in func+0x1c (module)"
		}
		b = append(b, function.off...)
	}
	if f.File != "" {
		b = append(append(b, ' '), file.on...)
		b = append(appendFileLineCol(b, f), file.off...)
	}
	if f.File == "" && f.Module != "" {
		b = append(append(b, mod.on...), " ("...)
		b = append(b, f.Module...)
		if f.HasOffset {
			b = strconv.AppendUint(append(b, "+0x"...), f.Offset, 16)
		}
		b = append(b, ')')
		if f.BuildID != "" {
			b = append(append(append(b, " (BuildId: "...), f.BuildID...), ')')
		}
		b = append(b, mod.off...)
	}
	if f.Function == "" && f.File == "" && f.Module == "" && !f.HasPC && f.Raw != "" {
		// Nothing parsed: the line as read is all we have.
		b = append(append(b, ' '), strings.TrimSpace(f.Raw)...)
	}
	b = append(b, whole.off...)
	if marker := t.marker(*f); marker != "" {
		b = append(append(append(b, p.dim.on...), marker...), p.dim.off...)
	}
	return string(b)
}

// tsanFrame renders a frame in ThreadSanitizer's format ("    #%n %f %S %M"):
// no pc, "<null>" for an unknown function or file, and always the module's
// base name and offset, as the runtime prints it when it symbolizes itself.
func (t *Text) tsanFrame(num string, f *report.Frame) string {
	p := t.pal
	fn, file := "<null>", "<null>"
	if f.Function != "" {
		fn = f.Function
	}
	if f.File != "" {
		file = fileLineCol(*f)
	}
	mod := fmt.Sprintf(" (%s+0x%x)", filepath.Base(f.Module), f.Offset)
	if f.BuildID != "" {
		mod += " (BuildId: " + f.BuildID + ")"
	}
	marker := t.marker(*f)
	head := "    #" + num + " "
	if !p.colored || t.class(f) != report.User {
		return head + p.system.Sprint(fn+" "+file+mod) + dimIf(p, marker)
	}
	if f.Function != "" {
		fn = p.function.Sprint(fn)
	}
	if f.File != "" {
		file = p.file.Sprint(file)
	}
	return head + fn + " " + file + dimIf(p, mod) + dimIf(p, marker)
}

// UnparsedMarker ends a frame line the parser could not read, in every
// text output: the line is shown as printed, in its place, so that what
// was not understood is not silently lost.
const UnparsedMarker = " (unparsed)"

// unparsed is a frame line the parser could not read, as printed (without
// its indent) and marked.
func (t *Text) unparsed(f report.Frame) string {
	return t.pal.system.Sprint(strings.TrimSpace(f.Raw)) + t.pal.marker.Sprint(UnparsedMarker)
}

// TruncatedNote ends a report that was cut short: the input ended (or
// the report ran on past any real one's length) before the closing line
// its runtime prints, so stacks or the summary may be missing.
const TruncatedNote = "(report truncated: the input ends before the report's closing line)"

// SymbolizedMarker ends a frame line that sanitrace symbolized, in every
// text output, colored or not: a last field in parentheses, like the
// runtime's own "(BuildId: ...)", so a tool that reads "#N 0xPC in FUNC
// FILE:LINE:COL" from the line still finds those fields where the runtime
// puts them.
const SymbolizedMarker = " (sanitrace)"

func (t *Text) marker(f report.Frame) string {
	if f.Symbolized != report.SymbolizedSanitrace || t.noMarker {
		return ""
	}
	return SymbolizedMarker
}

// dimIf dims s, and writes nothing at all for "" (no empty escape pairs).
func dimIf(p *palette, s string) string {
	if s == "" {
		return ""
	}
	return p.dim.Sprint(s)
}

func fileLineCol(f report.Frame) string {
	if f.Line <= 0 {
		return f.File
	}
	return string(appendFileLineCol(nil, &f))
}

// appendFileLineCol appends "file:line:col", without a zero line or column.
func appendFileLineCol(b []byte, f *report.Frame) []byte {
	b = append(b, f.File...)
	if f.Line > 0 {
		b = strconv.AppendInt(append(b, ':'), int64(f.Line), 10)
		if f.Column > 0 {
			b = strconv.AppendInt(append(b, ':'), int64(f.Column), 10)
		}
	}
	return b
}

// sourceContext prints the lines around f's line when f is the program's
// own code, its line known and not yet shown in this stack (shown holds
// the file:line given context). Unreadable files are skipped silently
// (the report is still complete without them).
func (t *Text) sourceContext(f *report.Frame, shown map[string]bool) {
	if t.opts.SourceContext <= 0 || f.File == "" || f.Line <= 0 || t.class(f) != report.User {
		return
	}
	key := fmt.Sprintf("%s:%d", f.File, f.Line)
	if shown[key] {
		return
	}
	shown[key] = true
	n := t.opts.SourceContext
	first := f.Line - n
	if first < 1 {
		first = 1
	}
	lines := t.src.lines(f.File, first, f.Line+n)
	if len(lines) == 0 {
		return
	}
	width := len(fmt.Sprint(f.Line + n))
	for i, text := range lines {
		text = termsafe.Text(text) // a source file is an input too
		no := first + i
		if no == f.Line {
			t.line(t.pal.function.Sprint(strings.TrimRight(fmt.Sprintf("      > %*d | %s", width, no, text), " ")))
		} else {
			t.line(t.pal.dim.Sprint(strings.TrimRight(fmt.Sprintf("        %*d | %s", width, no, text), " ")))
		}
	}
}

// shadow writes the shadow map with each row's application range, the
// marked byte explained and the legend reduced to the values that occur.
func (t *Text) shadow(r *report.Report) {
	p := t.pal
	e := ExplainShadow(r.Shadow, r)
	t.line("Shadow bytes around the buggy address:")
	for i, row := range r.Shadow.Rows {
		prefix := "  "
		if row.Current {
			prefix = "=>"
		}
		var b strings.Builder
		b.Grow(len(prefix) + len(row.Address) + 1 + 3*len(row.Bytes) + 1)
		b.WriteString(prefix)
		b.WriteString(row.Address)
		b.WriteByte(':')
		for j, code := range row.Bytes {
			code = strings.ToLower(code)
			c := p.shadowColor(code)
			text := code
			if c != nil {
				text = c.Sprint(code)
			}
			switch {
			case j == row.Marked:
				b.WriteByte('[')
				b.WriteString(p.marker.Sprint(code))
				b.WriteByte(']')
			case j == row.Marked+1 && row.Marked >= 0:
				b.WriteString(text) // ASan prints no space after "]"
			default:
				b.WriteByte(' ')
				b.WriteString(text)
			}
		}
		if sp := e.Rows[i]; sp.Known {
			// "   app [%#x,%#x)", dimmed, without fmt (a row of every
			// ASan report): strconv into the row's room.
			var num [16]byte
			b.WriteString(p.dim.on)
			b.WriteString("   app [0x")
			b.Write(strconv.AppendUint(num[:0], sp.AppBegin, 16))
			b.WriteString(",0x")
			b.Write(strconv.AppendUint(num[:0], sp.AppEnd, 16))
			b.WriteByte(')')
			b.WriteString(p.dim.off)
		}
		t.line(b.String())
	}
	if m := e.Marked; m != nil {
		t.line(p.marker.Sprint("Marked byte:") + " " + m.MarkedSentence())
	}
	if e.Note != "" {
		t.line(p.dim.Sprint("Note: " + e.Note))
	}
	t.line(fmt.Sprintf("Shadow byte legend (one shadow byte represents %d application bytes; values in this map):", e.Granularity))
	for _, c := range e.Codes {
		code := c.Code
		if col := p.shadowColor(code); col != nil {
			code = col.Sprint(code)
		}
		t.line(fmt.Sprintf("  %s  %s: %s", code, c.Name, c.Explain))
	}
}

func (t *Text) line(s string) {
	t.wrote = true
	t.w.WriteString(s)
	t.w.WriteByte('\n')
}

func (t *Text) flush() error {
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("render text: %w", err)
	}
	return nil
}
