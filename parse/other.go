package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Stack dumps that are not sanitizer reports but carry frames worth
// symbolizing: glibc backtrace_symbols(3) output and gdb's "bt".

// ParseBacktraceSymbol parses one line printed by glibc's backtrace_symbols
// (debug/backtracesyms.c): "./prog(func+0x1c) [0x55...]",
// "./prog(+0x1189) [0x55...]", "./prog() [0x...]" or "[0x...]" (older glibc
// prints no blank before "["). The addresses are return addresses, so
// Adjust is 1. The "+0x..." of "(+0x...)" is relative to the load bias: a
// module offset; the one of "(func+0x...)" is relative to the symbol.
func ParseBacktraceSymbol(line string) (report.Frame, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasSuffix(s, "]") {
		return report.Frame{}, false
	}
	open := strings.LastIndex(s, "[0x")
	if open < 0 {
		return report.Frame{}, false
	}
	hex := s[open+3 : len(s)-1]
	if hex == "" || len(hex) > 16 || !allHex(hex) {
		return report.Frame{}, false
	}
	pc, _ := strconv.ParseUint(hex, 16, 64)
	f := report.Frame{Index: -1, PC: pc, HasPC: true, Adjust: 1, Raw: s, Symbolized: report.SymbolizedNone}
	head := strings.TrimRight(s[:open], " ")
	if head == "" {
		return f, true
	}
	if !strings.HasSuffix(head, ")") {
		// "./prog[0x401199]": a frame backtrace_symbols found no symbol
		// for (dladdr knew the module only). A path, so that "buf[0x10]"
		// in a program's own output is no frame.
		if strings.ContainsAny(head, "()[] \t") || !strings.Contains(head, "/") {
			return report.Frame{}, false
		}
		f.Module = head
		return f, true
	}
	p := strings.LastIndexByte(head, '(')
	if p <= 0 {
		return report.Frame{}, false
	}
	f.Module = head[:p]
	if strings.ContainsAny(f.Module, "()[]") {
		return report.Frame{}, false
	}
	sym := head[p+1 : len(head)-1]
	if sym == "" {
		return f, true
	}
	sign := strings.LastIndexAny(sym, "+-")
	if sign < 0 || !strings.HasPrefix(sym[sign+1:], "0x") || !allHex(sym[sign+3:]) || len(sym) == sign+3 {
		return report.Frame{}, false
	}
	v, err := strconv.ParseUint(sym[sign+3:], 16, 64)
	if err != nil {
		return report.Frame{}, false
	}
	name := sym[:sign]
	switch {
	case name == "" && sym[sign] == '+':
		f.Offset, f.HasOffset = v, true
	case name != "":
		f.Function = name
		if sym[sign] == '+' {
			f.SymbolOffset, f.HasSymbolOffset = v, true
		}
		f.Symbolized = report.SymbolizedReport
	}
	return f, true
}

// ParseGDBFrame parses one frame line of gdb's backtrace:
//
//	#0  0x00005555555551a9 in crash (p=0x0) at crash.c:12
//	#1  main (argc=1, argv=0x7fffffffe3c8) at crash.c:20
//	#2  0x00007ffff7df0d90 in __libc_start_call_main () from /lib/x86_64-linux-gnu/libc.so.6
//	#3  0x0000000000401136 in ?? ()
//
// gdb prints the return address for the caller frames, so they get
// Adjust 1; frame 0 and the frame interrupted by a signal get 0 (the caller
// sets the latter).
func ParseGDBFrame(line string) (report.Frame, bool) {
	s := strings.TrimRight(line, " ")
	if len(s) < 4 || s[0] != '#' {
		return report.Frame{}, false
	}
	i := 1
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 1 || i > 6 || i >= len(s) || s[i] != ' ' {
		return report.Frame{}, false
	}
	idx, _ := strconv.Atoi(s[1:i])
	// gdb pads "#N" to three columns: "#0  0x..", "#10 0x..".
	if i < 3 && (i+1 >= len(s) || s[i+1] != ' ') {
		return report.Frame{}, false
	}
	rest := strings.TrimLeft(s[i:], " ")
	f := report.Frame{Index: idx, Raw: s, Symbolized: report.SymbolizedNone}
	if idx > 0 {
		f.Adjust = 1
	}
	if strings.HasPrefix(rest, "0x") {
		j := 2
		for j < len(rest) && isHex(rest[j]) {
			j++
		}
		pc, err := strconv.ParseUint(rest[2:j], 16, 64)
		if err != nil || !strings.HasPrefix(rest[j:], " in ") {
			return report.Frame{}, false
		}
		f.PC, f.HasPC = pc, true
		rest = rest[j+len(" in "):]
	}
	if rest == "" {
		return report.Frame{}, false
	}
	if rest[0] == '<' {
		// "<signal handler called>", "<function called from gdb>"
		return f, true
	}
	if p := strings.LastIndex(rest, " from "); p > 0 && strings.HasSuffix(rest[:p], ")") {
		f.Module = rest[p+len(" from "):]
		rest = rest[:p]
	} else if p := strings.LastIndex(rest, " at "); p > 0 && strings.HasSuffix(rest[:p], ")") {
		f.File, f.Line, f.Column = parseLoc(rest[p+len(" at "):])
		rest = rest[:p]
	}
	fn := rest
	if strings.HasSuffix(fn, ")") {
		if k := openingParen(fn); k >= 0 {
			fn = strings.TrimRight(fn[:k], " ")
		}
	} else if !f.HasPC || f.File != "" {
		// Not gdb's shape: a function always has its argument list.
		return report.Frame{}, false
	}
	if fn == "??" {
		fn = ""
	}
	f.Function = fn
	if f.Function != "" || f.File != "" {
		f.Symbolized = report.SymbolizedReport
	}
	return f, true
}
