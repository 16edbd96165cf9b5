package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// boost::stacktrace's operator<< (and libunwind-style printers with the
// same look): one " N# " line per frame, innermost first.
//
//	 0# store::Index::lookup(int) at /src/stacktrace.cc:11
//	 1# main in ./prog
//	 2# 0x00007F8BDA04524A in /lib/x86_64-linux-gnu/libc.so.6
//
// Its title is the line before it.

var boostFormat = format{
	producer: report.ProducerBoost,
	start:    boostStart,
	frame:    ParseBoostFrame,
	cues:     cues{marks: []mark{{text: "#"}}}, // " 0# main in ./prog"
}

type boostGrammar struct{}

func boostStart(t, prev string) (grammar, *report.Report) {
	f, ok := ParseBoostFrame(t)
	if !ok || f.Index != 0 {
		return nil, nil
	}
	return boostGrammar{}, backtraceReport(report.ProducerBoost, prev, f)
}

// backtraceReport starts the report of a bare backtrace of p whose first
// frame is f: its title is the line before it (prev), else p's name.
func backtraceReport(p report.Producer, prev string, f report.Frame) *report.Report {
	title := prev
	if title == "" {
		title = p.Tool()
	}
	r := &report.Report{Tool: p.Tool(), Kind: "backtrace", Headline: title, Message: title}
	r.Stacks = []report.Stack{{Title: title, Role: "other", RoleDetail: "other", Frames: []report.Frame{f}}}
	return r
}

func (boostGrammar) line(b *builder, t string) verdict {
	f, ok := ParseBoostFrame(t)
	if !ok {
		return vNotMine
	}
	if lf := b.lastFrame(); lf == nil || f.Index != lf.Index+1 {
		return vNotMine
	}
	b.appendFrame(f, "", "", "")
	return vOwn
}

// ParseBoostFrame parses one " N# ..." line.
func ParseBoostFrame(line string) (report.Frame, bool) {
	s := strings.TrimLeft(line, " ")
	n, rest, ok := strings.Cut(s, "# ")
	if !ok || n == "" || len(n) > 4 {
		return report.Frame{}, false
	}
	idx, err := strconv.Atoi(n)
	if err != nil || rest == "" {
		return report.Frame{}, false
	}
	f := report.Frame{Index: idx, Raw: s, Symbolized: report.SymbolizedNone}
	if idx > 0 {
		f.Adjust = 1
	}
	if i := strings.LastIndex(rest, " at "); i > 0 {
		file, ln, col := parseLoc(rest[i+len(" at "):])
		if ln > 0 {
			f.File, f.Line, f.Column = file, ln, col
			rest = rest[:i]
		}
	}
	if f.File == "" {
		if i := strings.LastIndex(rest, " in "); i > 0 {
			f.Module = rest[i+len(" in "):]
			rest = rest[:i]
		}
	}
	if strings.HasPrefix(rest, "0x") && allHex(rest[2:]) {
		v, err := strconv.ParseUint(rest[2:], 16, 64)
		if err != nil {
			return report.Frame{}, false
		}
		f.PC, f.HasPC = v, true
		rest = ""
	}
	f.Function = rest
	if f.Function != "" || f.File != "" {
		f.Symbolized = report.SymbolizedReport
	}
	if f.Function == "" && !f.HasPC {
		return report.Frame{}, false
	}
	return f, true
}

func (boostGrammar) end(b *builder, eof bool) {}

func (boostGrammar) pendingLimit(b *builder) int { return 0 }
