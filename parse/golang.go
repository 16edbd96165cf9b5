package parse

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Go's own reports: the race detector's "WARNING: DATA RACE" and the
// runtime's goroutine dumps after "panic:", "fatal error:" or a signal
// ("SIGSEGV: segmentation violation" with "PC=", for a crash outside Go
// code). A frame is two lines: the function with its arguments, then a
// tab (six blanks in race reports) and "file.go:LINE +0xOFF", to which
// GOTRACEBACK=system and signal dumps add "fp=... sp=... pc=0x...".

var goFormat = format{
	producer: report.ProducerGoPanic, // a race report names ProducerGoRace itself
	start:    goStart,
	frame:    parseGoFunc,
	// the "=====" ruler before "WARNING: DATA RACE"
	lead:      func(_, t []byte) bool { return isSeparator(t, '=') },
	leadLines: 1,
	lost:      lostGoFrame,
	title:     goRaceTitle,
	cues: cues{
		// "WARNING: DATA RACE", "panic:", "fatal error:", "SIGSEGV: segmentation
		// violation", "goroutine 1 [running]:"
		words:  []string{"WARNING", "panic", "error", "SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE", "SIGQUIT", "SIGTRAP"},
		before: "]",
		// A frame's location line, "/src/main.go:12 +0x8f" (lostGoFrame):
		// "go" before a colon only with the " +0x" after the line number.
		// As a plain word it brought every line of a program logging with
		// log.Lshortfile ("main.go:12: ...") to the starters (10x slower
		// on such a log); as a mark " +0x" searched in every line it cost
		// 5-10% on dmesg- and Python-logging-shaped logs (6593a9d).
		located: []locatedWord{{"go", " +0x"}},
	},
}

type goGrammar struct {
	race       bool
	rulerPrev  bool
	title      string
	role       string
	detail     string
	goroutines int
	needLoc    bool // the last frame waits for its file line
}

func goStart(t, prev string) (grammar, *report.Report) {
	s := strings.TrimSpace(t)
	switch {
	case s == "WARNING: DATA RACE":
		r := &report.Report{Tool: report.ProducerGoRace.Tool(), Kind: "data race", Severity: "WARNING", Headline: s, Message: "DATA RACE"}
		return &goGrammar{race: true, rulerPrev: isSeparator(prev, '=')}, r
	case strings.HasPrefix(s, "panic: ") && t == s:
		msg := s[len("panic: "):]
		kind := "panic"
		if e, ok := strings.CutPrefix(msg, "runtime error: "); ok {
			kind, _, _ = strings.Cut(e, " [")
		}
		return &goGrammar{}, &report.Report{Kind: kind, Severity: "panic", Headline: s, Message: msg}
	case strings.HasPrefix(s, "fatal error: ") && t == s:
		msg := s[len("fatal error: "):]
		return &goGrammar{}, &report.Report{Kind: msg, Severity: "fatal error", Headline: s, Message: msg}
	case strings.HasPrefix(s, "SIG") && t == s:
		sig, msg, ok := strings.Cut(s, ": ")
		if !ok || strings.IndexByte(sig, ' ') >= 0 || len(sig) > 10 || !goSignalText(msg) {
			return nil, nil
		}
		return &goGrammar{}, &report.Report{Kind: sig, Severity: "signal", Headline: s, Message: msg}
	case strings.HasPrefix(s, "goroutine ") && strings.HasSuffix(s, "]:") && t == s:
		if _, ok := goroutineHeader(s); ok {
			g := &goGrammar{}
			g.header(s)
			return g, &report.Report{Kind: "goroutine dump", Headline: s, Message: s}
		}
	}
	return nil, nil
}

// goSignalText reports whether msg is the runtime's text for a signal
// ("segmentation violation", "abort", "quit", ...): lower-case words.
func goSignalText(msg string) bool {
	if msg == "" {
		return false
	}
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; !(c >= 'a' && c <= 'z' || c == ' ' || c == '-') {
			return false
		}
	}
	return true
}

// goroutineHeader reads "goroutine 1 [running]:" and the GOTRACEBACK=system
// form "goroutine 1 gp=0x... m=0 mp=0x... [syscall]:".
func goroutineHeader(s string) (int, bool) {
	rest := strings.TrimPrefix(s, "goroutine ")
	n, _, _ := strings.Cut(rest, " ")
	id, err := strconv.Atoi(n)
	return id, err == nil && strings.Contains(rest, " [")
}

func (g *goGrammar) header(s string) {
	g.title, g.role, g.detail = s, "other", "goroutine"
	if g.goroutines == 0 {
		g.role, g.detail = "access", "goroutine"
	}
	g.goroutines++
}

func (g *goGrammar) line(b *builder, t string) verdict {
	s := strings.TrimSpace(t)
	if s == "" {
		return vOwn
	}
	if g.race && isSeparator(s, '=') {
		return vLast
	}
	if strings.HasPrefix(s, "exit status ") {
		return vLast
	}
	// A Go program prints one crash; another one's first line after this
	// one's goroutines is another process's report (a nested panic's
	// "panic:" lines all come before the first goroutine).
	if g.goroutines > 0 && t == s && !strings.HasPrefix(s, "goroutine ") {
		if ng, _ := goStart(t, ""); ng != nil {
			return vNotMine
		}
	}
	if g.race && strings.HasSuffix(s, ":") && !strings.HasPrefix(t, " ") {
		if role, detail, ok := goRaceTitle(s); ok {
			b.closeStack()
			g.title, g.role, g.detail = s, role, detail
			if detail == "access" && b.rep.Access == nil {
				b.rep.Access = goRaceAccess(s)
			}
			return vOwn
		}
	}
	if strings.HasPrefix(s, "goroutine ") && strings.HasSuffix(s, ":") {
		if _, ok := goroutineHeader(s); ok {
			b.closeStack()
			g.header(s)
			return vOwn
		}
	}
	// (A location a paste's wrapper moved past the quote or bar the
	// report's lines carry has lost its indentation with it.)
	if lf := b.lastFrame(); lf != nil && g.needLoc && len(t) > 0 && (t[0] == '\t' || strings.HasPrefix(t, "      ") || !b.carried) {
		if goLocation(lf, s) {
			g.needLoc = false
			return vOwn
		}
	}
	if lf := b.lastFrame(); lf != nil && !g.needLoc && lf.File != "" && !lf.HasSymbolOffset && len(b.pending) == 0 &&
		strings.HasPrefix(s, "+0x") && allHex(strings.Fields(s)[0][3:]) {
		// A location line a paste's wrapper broke after its long path:
		// "+0x22f" (and "fp=... sp=... pc=...") is its rest.
		goLocationRest(lf, strings.Fields(s))
		lf.Raw += " " + s
		return vOwn
	}
	if g.title != "" || b.stack >= 0 {
		if f, ok := parseGoFunc(s); ok {
			if b.stack < 0 {
				b.openStack(g.title, g.role, g.detail)
				g.title = ""
			}
			if n := len(b.rep.Stacks[b.stack].Frames); n > 0 && !g.race {
				f.Adjust = 1
			}
			f.Index = len(b.rep.Stacks[b.stack].Frames)
			b.appendFrame(f, "", "", "")
			g.needLoc = true
			return vOwn
		}
	}
	if s == report.MarkerNoRestore {
		if g.title != "" && b.stack < 0 {
			b.openStack(g.title, g.role, g.detail).Marker = s
			b.closeStack()
			g.title = ""
		}
		return vOwn
	}
	if strings.HasPrefix(s, "[signal ") || strings.HasPrefix(s, "PC=") || strings.HasPrefix(s, "signal arrived during") ||
		strings.HasPrefix(s, "[recovered]") || strings.HasPrefix(s, "panic: ") || strings.HasPrefix(s, "[originating from goroutine") ||
		strings.HasPrefix(s, "...additional frames elided...") ||
		strings.HasPrefix(s, "Found ") && strings.HasSuffix(s, "data race(s)") || isGoRegister(s) {
		return vOwn
	}
	return vUnknown
}

// lostGoFrame reads a Go frame outside a report from its two lines: prev,
// the function ("popstellar/cli.TestOrganizerAndWitnessWithoutPK()",
// "created by main.main in goroutine 1"), and line, its indented
// location ("      /src/pop_test.go:77 +0x628"): a race report's stack
// whose headline is not in the paste.
func lostGoFrame(line, prev []byte) (report.Frame, int, bool) {
	if prev == nil {
		return report.Frame{}, 0, false
	}
	body := line[splitKnownPrefix(line):]
	if len(body) == 0 || body[0] != '\t' && body[0] != ' ' {
		return report.Frame{}, 0, false // a location is indented
	}
	f, ok := parseGoFunc(string(bytes.TrimSpace(prev[splitKnownPrefix(prev):])))
	if !ok || !goLocation(&f, string(bytes.TrimSpace(body))) {
		return report.Frame{}, 0, false
	}
	f.Index = -1
	return f, 1, true
}

// goRaceTitle recognises the race detector's stack titles.
func goRaceTitle(s string) (role, detail string, ok bool) {
	switch {
	case strings.HasPrefix(s, "Previous "):
		return "previous", "previous_access", true
	case strings.HasPrefix(s, "Read at "), strings.HasPrefix(s, "Write at "),
		// Go before 1.6: "Read by goroutine 13:", no address.
		strings.HasPrefix(s, "Read by "), strings.HasPrefix(s, "Write by "):
		return "access", "access", true
	case strings.HasPrefix(s, "Goroutine ") && strings.HasSuffix(s, " created at:"):
		return "thread", "thread_creation", true
	}
	return "", "", false
}

// goRaceAccess reads "Write at 0x00c000094028 by goroutine 8:".
// and before Go 1.6 "Read by goroutine 13:".
func goRaceAccess(s string) *report.Access {
	if op, who, ok := strings.Cut(strings.TrimSuffix(s, ":"), " by "); ok && !strings.Contains(op, " ") {
		return &report.Access{Op: op, Thread: who}
	}
	op, rest, _ := strings.Cut(s, " at ")
	addr, who, _ := strings.Cut(strings.TrimSuffix(rest, ":"), " by ")
	return &report.Access{Op: op, Address: addr, Thread: who}
}

// parseGoFunc reads a frame's function line: "main.(*T).f(0x1, {0x2, 0x3})",
// "main.walk(...)", "created by main.main in goroutine 1".
func parseGoFunc(s string) (report.Frame, bool) {
	f := report.Frame{Raw: s, Symbolized: report.SymbolizedReport}
	if rest, ok := strings.CutPrefix(s, "created by "); ok {
		name, _, _ := strings.Cut(rest, " in goroutine ")
		if name == "" || strings.IndexByte(name, ' ') >= 0 {
			return report.Frame{}, false
		}
		f.Function = name
		return f, true
	}
	k := openingParen(s)
	if k < 0 {
		return report.Frame{}, false
	}
	name := s[:k]
	if name == "" || strings.ContainsAny(name, " \t") || !strings.Contains(name, ".") && name != "panic" {
		return report.Frame{}, false
	}
	f.Function = name
	// "(...)": the arguments of an inlined call, which the runtime does
	// not have.
	f.Inlined = s[k:] == "(...)"
	return f, true
}

// goLocation fills a frame from its second line:
// "/src/main.go:12 +0x8f fp=0xc000 sp=0xc000 pc=0x4897b4".
func goLocation(f *report.Frame, s string) bool {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return false
	}
	file, ln, _ := parseLoc(fields[0])
	if ln == 0 || !strings.HasSuffix(file, ".go") && !strings.HasSuffix(file, ".s") && !strings.HasSuffix(file, ".c") {
		return false
	}
	f.File, f.Line = file, ln
	goLocationRest(f, fields[1:])
	f.Raw += "\n" + s
	return true
}

// goLocationRest reads the fields after a location's file and line:
// "+0x8f", "fp=0xc000", "sp=0xc000", "pc=0x4897b4".
func goLocationRest(f *report.Frame, fields []string) {
	for _, x := range fields {
		switch {
		case strings.HasPrefix(x, "+0x"):
			if v, err := strconv.ParseUint(x[3:], 16, 64); err == nil {
				f.SymbolOffset, f.HasSymbolOffset = v, true
			}
		case strings.HasPrefix(x, "pc=0x"):
			if v, err := strconv.ParseUint(x[5:], 16, 64); err == nil {
				f.PC, f.HasPC = v, true
			}
		}
	}
}

// isGoRegister matches the register dump after a signal: "rax    0x0".
func isGoRegister(s string) bool {
	name, val, ok := strings.Cut(s, " ")
	if !ok || len(name) > 6 {
		return false
	}
	val = strings.TrimLeft(val, " ")
	return strings.HasPrefix(val, "0x") && allHex(val[2:]) && len(val) > 2
}

func (g *goGrammar) end(b *builder, eof bool) {
	if g.race && eof && !b.ended {
		b.rep.Truncated = true
	}
}

func (g *goGrammar) pendingLimit(b *builder) int {
	if g.goroutines == 0 && !g.race {
		return 8 // a panic value printed over several lines
	}
	return 2
}

// includesPrev: the race detector's report opens with a ruler.
func (g *goGrammar) includesPrev() bool { return g.rulerPrev }
