package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Rust panics printed with RUST_BACKTRACE=1 (or =full):
//
//	thread 'main' (22157) panicked at src/main.rs:4:5:
//	index out of bounds: the len is 3 but the index is 3
//	stack backtrace:
//	   0: core::panicking::panic_fmt
//	             at /rustc/<hash>/library/core/src/panicking.rs:80:14
//	  13:     0x55f5c1b0a0c3 - main::main::h5d0f...      (=full)
//	note: Some details are omitted, run with `RUST_BACKTRACE=full` ...
//
// and the older "thread 'main' panicked at 'msg', src/main.rs:2:5".

var rustFormat = format{
	producer: report.ProducerRust,
	start:    rustStart,
	frame:    parseRustFrame,
	cues:     cues{words: []string{"rs"}}, // "panicked at src/main.rs:4:5"
}

type rustGrammar struct {
	inStack bool
}

func rustStart(t, prev string) (grammar, *report.Report) {
	s := strings.TrimSpace(t)
	if !strings.HasPrefix(s, "thread '") || !strings.Contains(s, " panicked at ") {
		return nil, nil
	}
	r := &report.Report{Kind: "panic", Headline: s, Message: s}
	return &rustGrammar{}, r
}

func (g *rustGrammar) line(b *builder, t string) verdict {
	s := strings.TrimSpace(t)
	switch {
	case s == "stack backtrace:":
		b.openStack(s, "access", "error")
		g.inStack = true
		return vOwn
	case strings.HasPrefix(s, "note: "):
		return vLast
	case !g.inStack:
		if b.rep.Message == b.rep.Headline && s != "" && strings.HasSuffix(b.rep.Headline, ":") {
			// The panic's message, on the line after "panicked at
			// FILE:LINE:COL:" since Rust 1.73: the report's own.
			b.rep.Message = s
			return vOwn
		}
		return vUnknown
	case strings.HasPrefix(s, "at "):
		if lf := b.lastFrame(); lf != nil && lf.File == "" {
			lf.File, lf.Line, lf.Column = parseLoc(s[len("at "):])
			lf.Symbolized = report.SymbolizedReport
			lf.Raw += "\n" + t
			return vOwn
		}
	case strings.HasPrefix(s, "[... omitting ") || strings.HasPrefix(s, "at ./"):
		return vOwn
	}
	if f, ok := parseRustFrame(s); ok {
		if lf := b.lastFrame(); lf != nil && lf.Index == f.Index && !f.HasPC {
			// An inlined function: "N: f" lines with the same number.
			f.Inlined = false
			lf.Inlined = true
		}
		b.appendFrame(f, "stack backtrace:", "access", "error")
		return vOwn
	}
	return vNotMine
}

// parseRustFrame reads "  3: main::pick" and "  3:     0x55f5c1b0a0c3 - main::pick::h1234".
func parseRustFrame(s string) (report.Frame, bool) {
	n, rest, ok := strings.Cut(s, ": ")
	if !ok || n == "" || len(n) > 4 {
		return report.Frame{}, false
	}
	idx, err := strconv.Atoi(n)
	if err != nil {
		return report.Frame{}, false
	}
	rest = strings.TrimLeft(rest, " ")
	f := report.Frame{Index: idx, Raw: s, Symbolized: report.SymbolizedNone}
	if idx > 0 {
		f.Adjust = 1
	}
	if strings.HasPrefix(rest, "0x") {
		pc, fn, ok := strings.Cut(rest, " - ")
		if !ok {
			pc, fn = rest, ""
		}
		v, err := strconv.ParseUint(pc[2:], 16, 64)
		if err != nil {
			return report.Frame{}, false
		}
		f.PC, f.HasPC = v, true
		rest = fn
	}
	if rest == "<unknown>" {
		rest = ""
	}
	if spaceOutsideBrackets(rest) {
		return report.Frame{}, false
	}
	f.Function = rest
	if f.Function != "" {
		f.Symbolized = report.SymbolizedReport
	}
	return f, f.Function != "" || f.HasPC
}

func (g *rustGrammar) end(b *builder, eof bool) {}

func (g *rustGrammar) pendingLimit(b *builder) int {
	if g.inStack {
		return 0
	}
	return 4
}

// spaceOutsideBrackets: a blank outside every <>, () and [] pair, which no
// Rust path has ("<T as Trait>::f", "f::<A, B>", "{closure#0}, !>" keep
// theirs inside), so that the line is prose that happens to start with a
// number and a colon.
func spaceOutsideBrackets(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			if depth > 0 && !(s[i] == '>' && i > 0 && s[i-1] == '-') {
				depth--
			}
		case ' ', '\t':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}
