package parse

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/report"
)

// Never silently clean. A log that holds lines that look like crash output
// (a frame line, a sanitizer, Go or kernel headline) but from which no
// report could be built is said, not passed as clean: at the end of such
// an input the Scanner names it with its first crash-looking line on the
// OnUnreported callback, and decode and batch treat that as a finding.
//
// What looks like a crash is judged only on the lines outside reports
// that the pre-filter (maybeReport) passes, so that ordinary lines pay
// nothing: a frame line that a format's telltale says is one (a
// sanitizer's "#3 0x... in f", a gdb frame, backtrace_symbols'
// "prog(f+0x1c)[0x...]", Valgrind's "at 0x...: f", a kernel frame with
// its address or "+0x1c/0x60"), or a headline: "==PID==ERROR:", "ERROR:"
// or "WARNING:" before a sanitizer's name, "panic: ", "fatal error: " or
// "BUG: " at the start of the line's text. A build log's "ERROR: cannot
// open x" is no crash.

// Unreported is an input that looked like a crash but yielded no report.
type Unreported struct {
	Input string // the input's name ("-" for stdin)
	Line  int    // 1-based: the first crash-looking line
	Text  string // that line, without its known prefix, cut to unreportedTextMax bytes
}

// unreportedTextMax is how much of the crash-looking line the message
// quotes: enough to recognise it.
const unreportedTextMax = 120

func (u *Unreported) Error() string {
	name := u.Input
	if name == "-" {
		name = "<stdin>"
	}
	return fmt.Sprintf("%s:%d: looks like a crash but no report could be read (first such line: %q)", name, u.Line, u.Text)
}

// OnUnreported sets the function told, at the end of the input, that the
// input held crash-looking lines but no report came out of it.
func (s *Scanner) OnUnreported(fn func(*Unreported)) { s.onUnreported = fn }

// noteCrashLooking remembers line as the first crash-looking one, while no
// report has come out of the input yet.
func (s *Scanner) noteCrashLooking(line []byte, no int) {
	if s.made > 0 || s.crashLine != 0 || s.onUnreported == nil {
		return
	}
	t := line[splitKnownPrefix(line):]
	t = bytes.TrimLeft(t, " \t")
	if !crashLooking(t) {
		return
	}
	s.crashLine = no
	if len(t) > unreportedTextMax {
		t = t[:unreportedTextMax]
		for len(t) > 0 && !utf8.Valid(t) {
			t = t[:len(t)-1]
		}
	}
	s.crashText = string(t)
}

// endUnreported tells OnUnreported about the input, at its end, when it
// looked like a crash and yielded nothing.
func (s *Scanner) endUnreported() {
	if s.made == 0 && s.crashLine != 0 && s.onUnreported != nil {
		s.onUnreported(&Unreported{Input: s.name, Line: s.crashLine, Text: s.crashText})
	}
	s.crashLine = 0
}

var (
	markVgSep      = []byte("==")
	headlineStarts = [][]byte{[]byte("panic: "), []byte("fatal error: "), []byte("BUG: ")}
)

// crashLooking reports whether t, a line's text without its known prefix
// and indentation, looks like crash output (see above).
func crashLooking(t []byte) bool {
	for _, h := range headlineStarts {
		if bytes.HasPrefix(t, h) {
			return true
		}
	}
	for _, sev := range []string{"ERROR:", "WARNING:"} {
		i := bytes.Index(t, []byte(sev))
		if i < 0 {
			continue
		}
		// "==12==ERROR: ..." whatever follows; else a tool's name must.
		if bytes.HasSuffix(bytes.TrimRight(t[:i], " "), markVgSep) {
			return true
		}
		w := bytes.TrimLeft(t[i+len(sev):], " ")
		if k := bytes.IndexAny(w, ": "); k > 0 {
			w = w[:k]
		}
		if bytes.HasSuffix(w, []byte("Sanitizer")) || string(w) == report.ToolLibFuzzer {
			return true
		}
	}
	// Every telltale frame has a hex number ("0x1c", "pc 0003d814", "[<ffffffff...>]"):
	// most lines are let go on that.
	if len(t) == 0 || !bytes.Contains(t, []byte("0x")) && !bytes.Contains(t, []byte(" pc ")) && !bytes.Contains(t, []byte("[<")) {
		return false
	}
	if telltaleFrame(string(t)) {
		return true
	}
	// A frame behind text no prefix rule knows (a log viewer's columns,
	// another writer's output glued in front): from its "#N".
	for i := 1; i+1 < len(t); i++ {
		if t[i] == '#' && isDigit(t[i+1]) && (t[i-1] == ' ' || t[i-1] == '\t') {
			return telltaleFrame(string(t[i:]))
		}
	}
	return false
}

// telltaleFrame reports whether st reads as a frame that looks like crash
// output on its own.
func telltaleFrame(st string) bool {
	if f, ok := ParseFrame(st); ok && printedFrame(f) {
		return true
	}
	for _, f := range formats {
		if f.telltale == nil {
			continue
		}
		if fr, ok := f.frame(st); ok && f.telltale(fr) {
			return true
		}
	}
	return false
}

// printedFrame reports whether f, read by ParseFrame, is one a runtime
// printed: with a pc, or TSan's with a location ("# 3 retries left", a
// comment, is none).
func printedFrame(f report.Frame) bool { return f.HasPC || f.File != "" || f.Module != "" }

// anyFrame is the telltale of a format whose frame lines are crash
// output wherever they stand.
func anyFrame(report.Frame) bool { return true }
