package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// ParseFrame parses one sanitizer stack frame line, in any of the shapes the
// runtimes print (compiler-rt sanitizer_stacktrace_printer.cpp):
//
//	#0 0x55c266a82ed0 in inl(int*, int) /tmp/t.cpp:4:78       ASan/LSan/MSan/UBSan, symbolized
//	#5 0x55c2669c5300 in _start (/tmp/t+0x20300) (BuildId: f9) function from the symbol table only
//	#1 0x7f0697576b96 in __libc_start_main+0x80 (/lib/libc.so.6+0x21b96)
//	#0 0x55eff6476ed0  (/tmp/t+0xdded0) (BuildId: f918)        symbolize=0
//	#2 0x60600000005f  (<unknown module>)
//	#1 Thread2(void*) /src/a.cpp:12:3 (run+0xb42)              TSan: no pc, module basename
//	#0 <null> <null> (r+0xd0114) (BuildId: 4ba6)                TSan, symbolize=0
//
// Leading blanks are ignored. It reports false for anything else, including
// gdb's "#0  0x... in f () at a.c:3" (two blanks after the number).
func ParseFrame(line string) (report.Frame, bool) {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 3 || s[0] != '#' {
		return report.Frame{}, false
	}
	i, n0 := 1, 1
	if len(s) > 2 && s[1] == ' ' && isDigit(s[2]) {
		i, n0 = 2, 2 // "# 57 0x...": some runtimes pad the number
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == n0 || i >= len(s)-1 || s[i] != ' ' || s[i+1] == ' ' || i > 10 {
		return report.Frame{}, false
	}
	idx, _ := strconv.Atoi(s[n0:i])
	f := report.Frame{Index: idx, Raw: s}
	rest := s[i+1:]
	// A symbolizer's "-> f at file:line" after the frame (Chromium's
	// Android HWASan reports): the frame's function and location.
	arrow, hasArrow := "", false
	if k := strings.Index(rest, ") -> "); k > 0 {
		rest, arrow, hasArrow = rest[:k+1], rest[k+len(") -> "):], true
	}
	rest, f.BuildID = cutBuildID(rest)
	// A line wrapped after "(BuildId:": the id is on the next line.
	rest = strings.TrimSuffix(rest, " (BuildId:")

	if strings.HasPrefix(rest, "0x") {
		j := 2
		for j < len(rest) && isHex(rest[j]) {
			j++
		}
		if j == 2 || (j < len(rest) && rest[j] != ' ') {
			return report.Frame{}, false
		}
		f.PC, _ = parseHex(rest[2:j])
		f.HasPC = true
		rest = strings.TrimLeft(rest[j:], " ")
		if body, ok := strings.CutPrefix(rest, "in "); ok {
			if fn, mod, off, ok := cutAtosModule(body); ok {
				// macOS atos: "main (in a.out) + 44", "f (in My App) (f.c:5)"
				f.Function, f.Module = fn, mod
				if off >= 0 {
					f.SymbolOffset, f.HasSymbolOffset = uint64(off), true
				}
				if i := strings.LastIndex(body, ") ("); i > 0 && strings.HasSuffix(body, ")") {
					f.File, f.Line, f.Column = parseLoc(body[i+3 : len(body)-1])
				}
			} else if head, mod, off, hasOff, ok := cutModule(body); ok {
				f.Module, f.Offset, f.HasOffset = mod, off, hasOff
				f.Function, f.SymbolOffset, f.HasSymbolOffset = cutSymbolOffset(head)
			} else {
				fn, loc := splitFuncLoc(body)
				f.Function = fn
				f.File, f.Line, f.Column = parseLoc(loc)
			}
		} else if rest != "" {
			head, mod, off, hasOff, ok := cutModule(rest)
			switch {
			case ok && head == "":
				f.Module, f.Offset, f.HasOffset = mod, off, hasOff
			case ok:
				// Windows and old runtimes: "FUNC+0xOFF (MODULE+0xOFF)" without "in".
				f.Module, f.Offset, f.HasOffset = mod, off, hasOff
				f.Function, f.SymbolOffset, f.HasSymbolOffset = cutSymbolOffset(head)
			default:
				// "FUNC+0xOFF" or "FUNC FILE:LINE" without "in".
				fn, loc := splitFuncLoc(rest)
				file, ln, col := parseLoc(loc)
				if ln == 0 {
					fn, file = rest, ""
				}
				name, so, hasSO := cutSymbolOffset(fn)
				if !hasSO && file == "" || strings.ContainsAny(name, "\t") {
					return report.Frame{}, false
				}
				f.Function, f.SymbolOffset, f.HasSymbolOffset = name, so, hasSO
				f.File, f.Line, f.Column = file, ln, col
			}
		}
	} else {
		// TSan's "#n %f %S %M": function, location, (module+offset).
		head := rest
		if h, mod, off, hasOff, ok := cutModule(rest); ok {
			head = h
			f.Module, f.Offset, f.HasOffset = mod, off, hasOff
		}
		if head == "" {
			return report.Frame{}, false
		}
		fn, loc := splitFuncLoc(head)
		if fn == "<null>" {
			fn = ""
		}
		f.Function = fn
		f.File, f.Line, f.Column = parseLoc(loc)
	}
	if hasArrow && f.Function == "" && f.File == "" {
		f.Function, f.File, f.Line, f.Column = cutArrow(arrow)
	}
	f.Symbolized = report.SymbolizedNone
	if f.Function != "" || f.File != "" {
		f.Symbolized = report.SymbolizedReport
	}
	return f, true
}

// cutArrow reads what a symbolizer appended after "-> ": "f(int) const at
// ./a.cc:12 (discriminator 2)", or the function alone.
func cutArrow(s string) (fn, file string, line, col int) {
	if i := strings.Index(s, " (discriminator "); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	if i := strings.LastIndex(s, " at "); i > 0 {
		if file, line, col = parseLoc(s[i+len(" at "):]); line > 0 {
			return s[:i], file, line, col
		}
	}
	return s, "", 0, 0
}

// cutBuildID removes a trailing " (BuildId: hex)".
func cutBuildID(s string) (rest, id string) {
	body, ok := strings.CutSuffix(s, ")")
	if !ok {
		return s, ""
	}
	rest, id, ok = cutHexTail(body, " (BuildId: ")
	if !ok {
		return s, ""
	}
	return rest, id
}

// cutHexTail splits s that ends with tag and one or more hex digits into
// what is before tag and the digits. Where the last tag in s is, the
// digits start (tag ends in a byte that is not a hex digit), so it reads
// back over the digits rather than searching for tag from the end
// (strings.LastIndex hashes every byte: 3% of decode's CPU in frames).
func cutHexTail(s, tag string) (head, hex string, ok bool) {
	j := len(s)
	for j > 0 && isHex(s[j-1]) {
		j--
	}
	if j == len(s) || !strings.HasSuffix(s[:j], tag) {
		return s, "", false
	}
	return s[:j-len(tag)], s[j:], true
}

// cutModule splits "HEAD (MODULE+0xOFF)" or "HEAD (<unknown module>)".
func cutModule(s string) (head, module string, off uint64, hasOff, ok bool) {
	if !strings.HasSuffix(s, ")") {
		return "", "", 0, false, false
	}
	open := strings.LastIndexByte(s, '(')
	if open < 0 || (open > 0 && s[open-1] != ' ') {
		return "", "", 0, false, false
	}
	inner := s[open+1 : len(s)-1]
	head = strings.TrimRight(s[:open], " ")
	if inner == "<unknown module>" {
		return head, inner, 0, false, true
	}
	mod, hex, ok := cutHexTail(inner, "+0x")
	if !ok || mod == "" {
		return "", "", 0, false, false
	}
	off, err := parseHex(hex)
	if err != nil {
		return "", "", 0, false, false
	}
	return head, cutArch(mod), off, true, true
}

// cutAtosModule splits atos's "FUNC (in MODULE) + OFF" (OFF decimal) and
// "FUNC (in MODULE) (FILE:LINE)"; off is -1 when none is printed.
func cutAtosModule(s string) (fn, mod string, off int64, ok bool) {
	i := strings.Index(s, " (in ")
	if i <= 0 {
		return "", "", 0, false
	}
	rest := s[i+len(" (in "):]
	j := strings.IndexByte(rest, ')')
	if j <= 0 {
		return "", "", 0, false
	}
	fn, mod, tail := s[:i], rest[:j], rest[j+1:]
	switch {
	case tail == "":
		return fn, mod, -1, true
	case strings.HasPrefix(tail, " + "):
		n, err := strconv.ParseInt(tail[3:], 10, 64)
		if err != nil {
			return "", "", 0, false
		}
		return fn, mod, n, true
	case strings.HasPrefix(tail, " (") && strings.HasSuffix(tail, ")"):
		return fn, mod, -1, true
	}
	return "", "", 0, false
}

// cutSymbolOffset splits "func+0x1c" into "func" and 0x1c.
func cutSymbolOffset(s string) (string, uint64, bool) {
	name, hex, ok := cutHexTail(s, "+0x")
	if !ok || name == "" {
		return s, 0, false
	}
	v, err := parseHex(hex)
	if err != nil {
		return s, 0, false
	}
	return name, v, true
}

// openingParen returns the offset of the '(' that opens the parentheses
// closed at the end of s (an argument list: "f(int (*)(char))"), or -1
// when s does not end with ')' or it is not opened.
func openingParen(s string) int {
	if !strings.HasSuffix(s, ")") {
		return -1
	}
	depth := 0
	for k := len(s) - 1; k >= 0; k-- {
		switch s[k] {
		case ')':
			depth++
		case '(':
			depth--
		}
		if depth == 0 {
			return k
		}
	}
	return -1
}

// splitFuncLoc splits "FUNCTION LOCATION" where both may contain blanks
// ("operator new(unsigned long)", "/home/my dir/a.c:3:1"). The split is the
// first blank outside brackets and quotes, not after "operator" nor before
// a qualifier such as "const", whose right-hand side looks like a location.
func splitFuncLoc(s string) (fn, loc string) {
	depth := 0
	quote := false
	last := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			quote = !quote
		case quote:
		case c == 'o' && strings.HasPrefix(s[i:], "operator") && (i == 0 || !isIdent(s[i-1])):
			i += len("operator") - 1
			j := i + 1
			switch {
			case strings.HasPrefix(s[j:], "()"), strings.HasPrefix(s[j:], "[]"):
				i = j + 1
			case j < len(s) && s[j] == ' ':
				// "operator new", "operator delete[]", "operator bool"
				for j < len(s) && s[j] == ' ' {
					j++
				}
				for j < len(s) && isIdent(s[j]) {
					j++
				}
				if strings.HasPrefix(s[j:], "[]") {
					j += 2
				}
				i = j - 1
			default:
				for j < len(s) && strings.IndexByte("<>=!-+*/%^&|~,", s[j]) >= 0 {
					j++
				}
				i = j - 1
			}
		case c == '(' || c == '<' || c == '[' || c == '{':
			depth++
		case c == ')' || c == '>' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		case c == ' ' && depth == 0 && i > 0:
			rem := s[i+1:]
			if isQualifier(rem) {
				continue
			}
			last = i
			if rem == "<null>" || (strings.IndexByte(rem, '(') < 0 && hasLineSuffix(rem)) {
				return s[:i], rem
			}
		}
	}
	// No "file:line" found: accept a last word that looks like a file
	// ("tsan_interceptors_posix.cpp.o", a path without line).
	if last >= 0 {
		rem := s[last+1:]
		if strings.IndexByte(rem, '(') < 0 && strings.ContainsAny(rem, "/.") {
			return s[:last], rem
		}
	}
	return s, ""
}

func isQualifier(s string) bool {
	for _, q := range []string{"const", "volatile", "&", "noexcept", "[clone"} {
		if strings.HasPrefix(s, q) {
			return true
		}
	}
	return false
}

// hasLineSuffix reports whether s ends in ":LINE" or ":LINE:COL".
func hasLineSuffix(s string) bool {
	_, l, _ := parseLoc(s)
	return l > 0 || strings.HasSuffix(s, ":0")
}

// parseLoc splits "file:line:col", "file:line" or "file"; "<null>" and
// old runtimes' "??:0" are unknown.
func parseLoc(s string) (file string, line, col int) {
	if s == "" || s == "<null>" || s == "??:0" || s == "??" {
		return "", 0, 0
	}
	rest, n1, ok1 := cutNumSuffix(s)
	if !ok1 {
		return s, 0, 0
	}
	rest2, n2, ok2 := cutNumSuffix(rest)
	if ok2 && rest2 != "" {
		return rest2, n2, n1
	}
	if rest == "" {
		return s, 0, 0
	}
	return rest, n1, 0
}

// cutNumSuffix splits "x:123" into "x", 123.
func cutNumSuffix(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != ':' || len(s)-i > 9 {
		return s, 0, false
	}
	n, _ := strconv.Atoi(s[i:])
	return s[:i-1], n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
func isIdent(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
func allHex[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// cutArch removes the architecture Darwin runtimes add to a module
// ("a.out:x86_64", "libfoo.dylib:arm64e").
func cutArch(mod string) string {
	i := strings.LastIndexByte(mod, ':')
	if i <= 0 {
		return mod
	}
	switch mod[i+1:] {
	case "x86_64", "x86_64h", "i386", "arm64", "arm64e", "armv7", "armv7s", "arm64_32":
		return mod[:i]
	}
	return mod
}

// unparsedFrame takes t, a line inside an open stack of a sanitizer
// report that ParseFrame refused, as a frame line it could not read when
// it is one by its shape: "#N" and more ("#7 0x55d1" cut short, "#3 ???"),
// or a frame's body that lost its "#N" to the line before ("0x7ff96110a852
// in f", a paste that joined lines). The frame keeps its place, shown as
// printed; false for any other line.
func (b *builder) unparsedFrame(t string) bool {
	if b.stack < 0 && !b.titleKnown {
		return false
	}
	f := report.Frame{Index: -1, Raw: t, Symbolized: report.SymbolizedNone, Unparsed: true}
	switch {
	case t[0] == '#':
		n := 1
		for n < len(t) && isDigit(t[n]) {
			n++
		}
		if n == 1 || n > 7 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
			return false
		}
		f.Index, _ = strconv.Atoi(t[1:n])
	case strings.HasPrefix(t, "0x"):
		n := 2
		for n < len(t) && isHex(t[n]) {
			n++
		}
		if n == 2 || !strings.HasPrefix(t[n:], " in ") {
			return false
		}
	default:
		return false
	}
	b.addFrame(f)
	return true
}

// lastParsed is the last frame of fs that the grammar read.
func lastParsed(fs []report.Frame) (report.Frame, bool) {
	for i := len(fs) - 1; i >= 0; i-- {
		if !fs[i].Unparsed {
			return fs[i], true
		}
	}
	return report.Frame{}, false
}

// tsanUnnumbered reads a TSan stack's frame printed without its "#N", as a
// stack_trace_format without "#%n" prints it ("%f %S %M": "bump
// /src/t.c:9:9 (t+0xd018f)"): t is the line without its indent, which
// must be a frame's (four blanks, under a stack's title). It must name a
// module and offset, or a file and line, to be read as one: TSan's other
// lines under a title are not frames, and Index is -1 (none printed).
func tsanUnnumbered(t string) (report.Frame, bool) {
	f, ok := ParseFrame("#0 " + t)
	if !ok || f.Unparsed || !(f.Module != "" && f.HasOffset || f.File != "" && f.Line > 0) {
		return report.Frame{}, false
	}
	f.Index, f.Raw = -1, t
	return f, true
}

// parseHex is strconv.ParseUint(s, 16, 64): a frame line's pc and
// offsets are read with a plain loop when they have at most 16 digits (a
// 64-bit number cannot overflow), the general parser's bookkeeping being
// most of its cost there; anything else goes to strconv.
func parseHex(s string) (uint64, error) {
	if len(s) == 0 || len(s) > 16 {
		return strconv.ParseUint(s, 16, 64)
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return strconv.ParseUint(s, 16, 64)
		}
		v = v<<4 | uint64(hexVal(s[i]))
	}
	return v, nil
}
