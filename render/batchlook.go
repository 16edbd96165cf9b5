package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/wire"
)

// batchFrame is frame i of a stack of a batch document's report of tool,
// in the layout of the report's producer (its look), as the text writer
// prints a frame sanitrace completed, without the marker: the page, the
// Markdown summary and SARIF's frame messages show a kernel frame as the
// kernel does, a Go frame as a traceback does. Lines of one frame (Go's
// function and file lines, Rust's "at" line) are joined by "\n". The
// document keeps no frame's line as read, so a frame is always laid out
// from its fields.
func batchFrame(tool string, i int, f wire.Frame) string {
	lk := lookOf(report.ProducerOf(tool))
	rf := modelFrame(f)
	switch {
	case lk == lookSanitizer || lk == lookChromium || lk == lookValgrind:
		return frameLine(i, f)
	case lk == lookKernel && rf.File == "":
		// As the kernel prints it: " ? func+0x1c/0x60 [mod]".
		line := " "
		if rf.Unreliable {
			line += "? "
		}
		line += orUnknown(rf.Function)
		if rf.HasSymbolSize {
			line += fmt.Sprintf("+0x%x/0x%x", rf.SymbolOffset, rf.SymbolSize)
		}
		if rf.Module != "" {
			line += " [" + rf.Module + "]"
		}
		return line
	case lk == lookRust:
		// "   3: main::pick" / "             at src/main.rs:4:5".
		out := fmt.Sprintf("%4d: %s", i, orUnknown(rf.Function))
		if rf.File != "" {
			out += "\n" + strings.Repeat(" ", 13) + "at " + fileLineCol(rf)
		}
		return out
	case lk == lookBoost:
		// " 1# query(int) at a.cc:19".
		out := fmt.Sprintf("%2d# %s", i, orUnknown(rf.Function))
		if rf.File != "" {
			out += " at " + fileLine(rf)
		} else if rf.Module != "" {
			out += " in " + rf.Module
		}
		return out
	case lk == lookGlibc:
		// backtrace_symbols: "module(func+0x1c) [0xpc]", then where
		// the frame is, when known.
		out := rf.Module + "("
		if rf.Function != "" {
			out += rf.Function
			if rf.HasSymbolOffset {
				out += fmt.Sprintf("+0x%x", rf.SymbolOffset)
			}
		} else if rf.HasOffset {
			out += fmt.Sprintf("+0x%x", rf.Offset)
		}
		out += ")"
		if rf.HasPC {
			out += fmt.Sprintf(" [0x%x]", rf.PC)
		}
		if rf.File != "" {
			out += " " + fileLineCol(rf)
		}
		return out
	}
	rf.Symbolized = report.SymbolizedSanitrace // the look's own layout
	return strings.Join(plainText.lookFrame(lk, strconv.Itoa(i), []report.Frame{rf}, true), "\n")
}

func orUnknown(fn string) string {
	if fn == "" {
		return "??"
	}
	return fn
}

// modelFrame is a document's frame as the model holds it: what the looks
// lay out.
func modelFrame(f wire.Frame) report.Frame {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	num := func(p *string) (uint64, bool) {
		if p == nil {
			return 0, false
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(*p, "0x"), 16, 64)
		return v, err == nil
	}
	rf := report.Frame{Index: -1, Function: str(f.Function), File: str(f.File), Line: f.Line, Column: f.Column,
		Module: str(f.Module), BuildID: f.BuildID, Inlined: f.Inlined, Symbolized: f.Symbolized,
		Unreliable: f.Unreliable, Context: f.Context, Problem: f.Problem}
	rf.PC, rf.HasPC = num(f.PC)
	rf.Offset, rf.HasOffset = num(f.Offset)
	rf.SymbolOffset, rf.HasSymbolOffset = num(f.SymbolOffset)
	rf.SymbolSize, rf.HasSymbolSize = num(f.SymbolSize)
	return rf
}
