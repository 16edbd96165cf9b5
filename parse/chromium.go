package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Chromium's (and Electron's, and V8's) in-process crash dump
// (base/debug/stack_trace_posix.cc):
//
//	Received signal 11 SEGV_MAPERR 000000000000
//	#0 0x5626f1d3b0c2 base::debug::CollectStackTrace()
//	#1 0x7f3c0d23f520 (/usr/lib/x86_64-linux-gnu/libc.so.6+0x4251f)
//	#2 0x5626ef9d1fd5 <unknown>
//	  r8: 0000000000000000  r9: 00007ffd3d3c2b38 r10: 0000000000000000 r11: 0000000000000246
//	[end of stack trace]

var chromiumFormat = format{
	producer: report.ProducerChromium,
	start:    chromiumStart,
	frame:    ParseChromiumFrame,
	telltale: anyFrame,
	// Chromium's handler of SIGABRT after a sanitizer's report aborted
	// the process: the same event, printed again.
	echo: func(t string) bool { return t == "Received signal 6" },
	cues: cues{marks: []mark{{text: "#"}, {text: " signal ", from: 3}}}, // "Received signal 11", "#3 0x..."
}

type chromiumGrammar struct{}

func chromiumStart(t, prev string) (grammar, *report.Report) {
	s := strings.TrimSpace(t)
	rest, ok := strings.CutPrefix(s, "Received signal ")
	if !ok {
		return nil, nil
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return nil, nil
	}
	if _, err := strconv.Atoi(f[0]); err != nil {
		return nil, nil
	}
	kind := "signal " + f[0]
	if len(f) > 1 && strings.Contains(f[1], "_") {
		kind = f[1]
	}
	return chromiumGrammar{}, &report.Report{Kind: kind, Headline: s, Message: s}
}

func (chromiumGrammar) line(b *builder, t string) verdict {
	s := strings.TrimSpace(t)
	switch {
	case s == "[end of stack trace]":
		return vLast
	case strings.HasPrefix(s, "Calling _exit("):
		return vLast
	case s == "":
		return vUnknown
	}
	if f, ok := ParseChromiumFrame(s); ok {
		if lf := b.lastFrame(); lf != nil && f.Index <= lf.Index {
			b.closeStack()
		}
		b.appendFrame(f, b.rep.Headline, "access", "error")
		return vOwn
	}
	if isChromiumRegisters(s) {
		return vOwn
	}
	return vUnknown
}

// ParseChromiumFrame parses "#3 0x7f3c0d23f520 func()", "#4 0x1 <unknown>"
// and "#5 0x2 (/lib/x.so+0x4251f)".
func ParseChromiumFrame(s string) (report.Frame, bool) {
	s = strings.TrimLeft(s, " ")
	if len(s) < 4 || s[0] != '#' {
		return report.Frame{}, false
	}
	n, rest, ok := strings.Cut(s[1:], " ")
	idx, err := strconv.Atoi(n)
	if !ok || err != nil || !strings.HasPrefix(rest, "0x") {
		return report.Frame{}, false
	}
	pc, sym, _ := strings.Cut(rest, " ")
	v, err := strconv.ParseUint(pc[2:], 16, 64)
	if err != nil {
		return report.Frame{}, false
	}
	f := report.Frame{Index: idx, PC: v, HasPC: true, Raw: s, Symbolized: report.SymbolizedNone}
	if idx > 0 {
		f.Adjust = 1
	}
	sym = strings.TrimSpace(sym)
	if strings.HasPrefix(sym, "in ") {
		return report.Frame{}, false // a sanitizer frame
	}
	switch {
	case sym == "" || sym == "<unknown>":
	case strings.HasPrefix(sym, "("):
		_, mod, off, hasOff, ok := cutModule(" " + sym)
		if !ok {
			return report.Frame{}, false
		}
		f.Module, f.Offset, f.HasOffset = mod, off, hasOff
	default:
		f.Function = sym
		f.Symbolized = report.SymbolizedReport
	}
	return f, true
}

// isChromiumRegisters matches the register rows: "  r8: 0000000000000000  r9: ...".
func isChromiumRegisters(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || len(f)%2 != 0 {
		return false
	}
	for i := 0; i < len(f); i += 2 {
		if !strings.HasSuffix(f[i], ":") || len(f[i]) > 5 || !allHex(f[i+1]) {
			return false
		}
	}
	return true
}

func (chromiumGrammar) end(b *builder, eof bool) {}

func (chromiumGrammar) pendingLimit(b *builder) int { return 2 }
