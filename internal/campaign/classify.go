package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Class is what a finding is counted as.
type Class string

// The classes, in the order of the figures' columns.
const (
	// Panic: a Go panic or fatal error (exit status 2 with a goroutine
	// dump), or the process killed by a signal it did not ask for.
	Panic Class = "panic"
	// Recovered: a panic of sanitrace's own code caught at a command's or
	// worker's edge and reported as an error ("decoder panic: ...",
	// "internal error while decoding"): the run goes on, the bug is there.
	Recovered Class = "recovered"
	// Hang: still running at the time bound, twice.
	Hang Class = "hang"
	// Memory: a peak RSS over the memory bound, a Go "out of memory"
	// under the address-space cap, or more than 64 MiB of output.
	Memory Class = "memory"
	// BadJSON: in JSON mode, an output that is not one valid JSON text in
	// UTF-8, or an empty one from a run that did not fail.
	BadJSON Class = "invalid-json"
	// Lost: a report of the unmutated log that the mutation did not touch
	// and the mutant's decode does not have (touch.go).
	Lost Class = "lost-report"
	// Control: a raw control byte (C0 but tab and newline, DEL, C1, or an
	// escape that is not one of sanitrace's SGR color sequences) in a
	// human-facing output: text on stdout, any stderr line.
	Control Class = "raw-control"
	// Written: a file left in the run's working or temporary directory,
	// or beside its input (archives are read in place, never extracted).
	Written Class = "written"
)

// Classes lists the classes in table order.
var Classes = []Class{Panic, Recovered, Hang, Memory, BadJSON, Lost, Control, Written}

// Finding is one thing wrong with one run.
type Finding struct {
	Class  Class
	Detail string // one line
	// Sig groups findings that are the same bug: the class, the command
	// and the normalized message (a panic's message and first frame of
	// ours, a recovered panic's message).
	Sig string
}

var (
	goPanic   = regexp.MustCompile(`(?m)^(panic: |fatal error: ).*`)
	goDump    = regexp.MustCompile(`(?m)^goroutine \d+ .*\[|^runtime stack:`)
	ourFrame  = regexp.MustCompile(`(?m)^github\.com/sanitrace/sanitrace/\S+\(.*\)$`)
	recovered = regexp.MustCompile(`decoder panic: [^\n"]*|internal error while decoding[^\n"]*|(?:unit at 0x[0-9a-f]+|line table at 0x[0-9a-f]+|\.dwo|\.dwp): panic: [^\n"]*`)
	oomText   = regexp.MustCompile(`fatal error: runtime: out of memory|runtime: cannot allocate memory|std::bad_alloc|memory exhausted|[Oo]ut of memory`)
	hexNum    = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	decNum    = regexp.MustCompile(`\d+`)
)

// normalize keeps what names a bug in msg and drops what varies between
// mutants: numbers, long tails.
func normalize(msg string) string {
	msg = hexNum.ReplaceAllString(msg, "0x?")
	msg = decNum.ReplaceAllString(msg, "N")
	if len(msg) > 160 {
		msg = msg[:160]
	}
	return msg
}

// crashOf returns the Go panic or fatal error of a run's stderr, with the
// first frame of sanitrace's code under it, or "" when there is none.
func crashOf(stderr []byte) (msg, frame string) {
	m := goPanic.Find(stderr)
	if m == nil || !goDump.Match(stderr) {
		return "", ""
	}
	frame = funcOf(ourFrame.Find(stderr[bytes.Index(stderr, m):]))
	return strings.TrimSpace(string(m)), frame
}

// classify returns the findings of a run of sanitrace; tool names the
// command in signatures. JSON says the output must be JSON; human that it
// is read by people (text on a terminal).
func classify(res Result, tool string, jsonOut, human, batchOut bool, memBound int64) []Finding {
	var out []Finding
	add := func(c Class, detail, sig string) {
		out = append(out, Finding{Class: c, Detail: detail, Sig: string(c) + "|" + tool + "|" + sig})
	}
	msg, frame := crashOf(res.Stderr)
	oom := oomText.Match(res.Stderr)
	switch {
	case res.TimedOut:
		add(Hang, fmt.Sprintf("no exit within the time bound (ran %s)", res.Duration.Round(1e6)), goroutineTop(res.Stderr))
	case msg != "" && oom, res.Signal == syscall.SIGKILL && oom:
		add(Memory, msg, "out of memory")
	case msg != "":
		add(Panic, msg+" at "+frame, normalize(msg)+" at "+frame)
	case res.Signal != 0:
		add(Panic, "killed by "+res.Signal.String(), res.Signal.String())
	}
	if res.MaxRSS > memBound {
		add(Memory, fmt.Sprintf("peak RSS %d MiB", res.MaxRSS>>20), "rss")
	}
	if res.Truncated {
		add(Memory, "more than 64 MiB on stdout", "output")
	}
	if msg == "" {
		where := res.Stderr
		if batchOut {
			where = append(append([]byte(nil), res.Stderr...), res.Stdout...)
		}
		for _, m := range recovered.FindAll(where, 4) {
			add(Recovered, string(m), normalize(string(m)))
		}
	}
	if jsonOut && !res.TimedOut && msg == "" && res.Signal == 0 && !res.Truncated {
		if why := jsonProblem(res.Stdout, res.Exit); why != "" {
			add(BadJSON, why, normalize(why))
		}
	}
	if msg == "" && !res.TimedOut {
		if human {
			if what := rawControl(res.Stdout); what != "" {
				add(Control, "stdout: "+what, "stdout "+what)
			}
		}
		if what := rawControl(res.Stderr); what != "" {
			add(Control, "stderr: "+what, "stderr "+what)
		}
	}
	return out
}

// funcOf returns the function of a goroutine dump's frame line, without
// its arguments.
func funcOf(line []byte) string {
	if i := bytes.LastIndexByte(line, '('); i >= 0 {
		return string(line[:i])
	}
	return string(line)
}

// goroutineTop names a hang by the first frame of ours in the goroutine
// dump that SIGQUIT made the program print.
func goroutineTop(stderr []byte) string {
	if f := funcOf(ourFrame.Find(stderr)); f != "" {
		return f
	}
	return "no dump"
}

// jsonProblem says what is wrong with out as the output of a JSON-mode
// run that exited with code, or "" when nothing is.
func jsonProblem(out []byte, code int) string {
	if len(bytes.TrimSpace(out)) == 0 {
		if code == 2 {
			return "" // a refused input or a usage error: said on stderr
		}
		return fmt.Sprintf("empty output with exit status %d", code)
	}
	if !utf8.Valid(out) {
		i := 0
		for i < len(out) {
			r, n := utf8.DecodeRune(out[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Sprintf("not UTF-8 at byte %d", i)
	}
	if !json.Valid(out) {
		var v any
		err := json.Unmarshal(out, &v)
		return fmt.Sprintf("not JSON: %v", err)
	}
	return ""
}

// sgr matches one of sanitrace's color sequences, the only escape
// sequence its outputs may hold.
var sgr = regexp.MustCompile(`^\x1b\[[0-9;]*m`)

// rawControl describes the first raw control character of out, or
// returns "" when there is none: C0 controls but tab and newline, DEL, C1
// controls (in UTF-8, or as bare bytes 0x80-0x9f that an 8-bit terminal
// reads as C1), and ESC unless it starts an SGR sequence.
func rawControl(out []byte) string {
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b:
			if m := sgr.Find(out[i:]); m != nil {
				i += len(m)
				continue
			}
			return fmt.Sprintf("ESC at byte %d", i)
		case c < 0x20 && c != '\t' && c != '\n', c == 0x7f:
			return fmt.Sprintf("%q at byte %d", c, i)
		case c < 0x80:
			i++
			continue
		}
		r, n := utf8.DecodeRune(out[i:])
		switch {
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 U+%04X at byte %d", r, i)
		case r == utf8.RuneError && n == 1 && c >= 0x80 && c <= 0x9f:
			return fmt.Sprintf("bare byte 0x%02x at byte %d", c, i)
		}
		i += n
	}
	return ""
}

// refClass is what a run of a reference tool is counted as: "crash" (a
// signal it did not get from us), "hang", "memory" or "" for a run that
// ended by itself within the bounds (whatever its exit status: a tool
// that rejects bad input is doing its job).
func refClass(res Result, memBound int64) string {
	switch {
	case res.TimedOut:
		return "hang"
	case res.MaxRSS > memBound || res.Signal != 0 && oomText.Match(res.Stderr):
		return "memory"
	case res.Signal != 0:
		return "crash"
	}
	return ""
}
