package parse

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Android's native crash reports: the tombstone debuggerd (crash_dump)
// writes and logs, raw as in /data/tombstones or behind logcat's prefixes
// ("I/DEBUG   (  260): ", "F DEBUG   : ", threadtime's "08-11 11:07:17.481
// 1071  1071 F DEBUG   : ", Android Studio's "... 16540-16540/? A/DEBUG: ";
// logcatLen reads them).
//
//	*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
//	Build fingerprint: 'google/mantaray/manta:5.1.1/LMY49J/2640980:user/release-keys'
//	pid: 12857, tid: 12936, name: ibledit.android  >>> org.bibledit.android <<<
//	signal 6 (SIGABRT), code -6 (SI_TKILL), fault addr --------
//	    r0 00000000  r1 00003288  r2 00000006  r3 00000000
//	backtrace:
//	    #00 pc 0003d814  /system/lib/libc.so (tgkill+12)
//	    #05 pc 0004ee41  /data/app/.../libgnustl_shared.so (__gnu_cxx::__verbose_terminate_handler()+220)
//	    #00 pc 0000000000055c84  /apex/.../libc.so (__memset_aarch64+196) (BuildId: 1b9fecf8...)
//
// A report starts at the fingerprint (with the banner before it), or
// where a paste begins: the "pid: N, tid: N ... >>> proc <<<" line,
// "Abort message: '...'", or libc's "Fatal signal 11 (SIGSEGV), ..." that
// logcat shows before debuggerd's lines. The crashing thread's backtrace
// is its stack; a frame's pc is relative to its module (ndk-stack gives it
// to the symbolizer as is), so frames resolve by module and offset, or by
// the build id printed. The report ends at "Tombstone written to:", at the
// next thread's "--- --- ---", or at lines it does not know.

var androidFormat = format{
	producer: report.ProducerAndroid,
	start:    androidStart,
	frame:    ParseTombstoneFrame,
	telltale: anyFrame,
	lost:     lostTombstoneFrame,
	prefix:   logcatLen,
	wrapRest: tombstoneWrapRest,
	// "Build fingerprint: '...'", "pid: 1, tid: 1, name: x  >>> x <<<",
	// "Abort message: '...'", "Fatal signal 11 (SIGSEGV)" and "signal 6
	// (SIGABRT), code -1" (behind a logcat prefix), the frames' "#00 pc".
	// Not "pid:" or "message:", which many logs print on every line; the
	// pid line's "tid:" and texts searched only in lines that end as
	// these do (a mark searched in every line costs every line).
	cues: cues{
		words: []string{"fingerprint", "tid"},
		marks: []mark{{text: "#"}, {text: " signal ", from: 3}, {text: " >>> ", last: '<'}, {text: "Abort message: '", last: '\''}},
	},
}

// lostTombstoneFrame reads a tombstone's frame line outside a report
// ("#05 pc 0004f3b4  /system/lib64/libc.so"), after any prefix: Android
// Studio's logcat columns are none splitKnownPrefix knows.
func lostTombstoneFrame(line, _ []byte) (report.Frame, int, bool) {
	i := bytes.Index(line, []byte(" pc "))
	if i <= 0 {
		return report.Frame{}, 0, false
	}
	h := bytes.LastIndexByte(line[:i], '#')
	if h < 0 {
		return report.Frame{}, 0, false
	}
	f, ok := ParseTombstoneFrame(string(line[h:]))
	return f, 0, ok
}

type androidGrammar struct {
	banner  bool // the line before the start is the report's: the "*** *** ***" banner, a pid line
	signal  bool // the "signal N (SIGX)" line was read
	inTrace bool // after "backtrace:"
}

func androidStart(t, prev string) (grammar, *report.Report) {
	// Most lines shown are none of these: they cost no allocation.
	switch {
	case strings.HasPrefix(t, "Build fingerprint: "), strings.HasPrefix(t, "pid: "), strings.HasPrefix(t, "Abort message: "),
		strings.HasPrefix(t, "Fatal signal "), strings.HasPrefix(t, "signal "):
	default:
		return nil, nil
	}
	g := &androidGrammar{}
	r := &report.Report{Tool: report.ProducerAndroid.Tool()}
	switch {
	case strings.HasPrefix(t, "Build fingerprint: "):
		g.banner = isTombstoneBanner(prev)
		r.Headline = t
	case tombstonePid(t) > 0:
		r.PID = tombstonePid(t)
		r.Headline = t
	case strings.HasPrefix(t, "Abort message: "):
		g.abort(r, t)
	case strings.HasPrefix(t, "Fatal signal "):
		if !g.signalLine(r, strings.TrimPrefix(t, "Fatal ")) {
			return nil, nil
		}
		r.Headline, r.Message = t, t
	case strings.HasPrefix(t, "signal ") && strings.Contains(t, "), code "):
		// A paste that begins at the signal line ("signal 6 (SIGABRT),
		// code -1 (SI_QUEUE)"), or the pid line before it did (whose
		// " >>> proc <<<", the cue, a wrapper moved to the next line).
		if !g.signalLine(r, t) {
			return nil, nil
		}
		if pid := tombstonePid(strings.TrimSpace(prev)); pid > 0 {
			r.PID, g.banner = pid, true
		}
	default:
		return nil, nil
	}
	return g, r
}

func (g *androidGrammar) includesPrev() bool { return g.banner }

// isTombstoneBanner reports whether t is debuggerd's "*** *** ***" line.
func isTombstoneBanner(t string) bool {
	t = strings.TrimSpace(t)
	return len(t) >= 11 && strings.Trim(t, "* ") == "" && strings.HasPrefix(t, "*** *** ***")
}

// tombstonePid reads "pid: 351, tid: 351  >>> /data/local/crasher <<<"
// (and its newer form with ", name: x"); 0 when t is not one.
func tombstonePid(t string) int {
	rest, ok := strings.CutPrefix(t, "pid: ")
	if !ok {
		return 0
	}
	n, rest, _ := strings.Cut(rest, ",")
	// (A wrapped paste may carry " >>> proc <<<" on the next line.)
	if !strings.HasPrefix(rest, " tid: ") {
		return 0
	}
	pid, err := strconv.Atoi(n)
	if err != nil {
		return 0
	}
	return pid
}

// signalLine reads "signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr
// 0x2" into r's kind and address.
func (g *androidGrammar) signalLine(r *report.Report, t string) bool {
	rest, ok := strings.CutPrefix(t, "signal ")
	if !ok {
		return false
	}
	num, rest, ok := strings.Cut(rest, " (")
	if _, err := strconv.Atoi(num); err != nil || !ok {
		return false
	}
	name, rest, ok := strings.Cut(rest, ")")
	if !ok || !strings.HasPrefix(name, "SIG") {
		return false
	}
	g.signal = true
	r.Kind, r.Headline, r.Message = name, t, t
	if _, a, ok := strings.Cut(rest, "fault addr "); ok {
		a, _, _ = strings.Cut(a, " ")
		a = strings.TrimPrefix(a, "0x")
		if v, err := strconv.ParseUint(a, 16, 64); err == nil {
			r.Address, r.HasAddress = v, true
		}
	}
	return true
}

// abort reads "Abort message: '...'": the report's headline when no
// signal line says more.
func (g *androidGrammar) abort(r *report.Report, t string) {
	if g.signal || r.Kind != "" {
		return
	}
	r.Kind, r.Headline, r.Message = "abort", t, t
}

// tombstoneKeys start the lines of a tombstone's header.
var tombstoneKeys = []string{
	"Build fingerprint: ", "Revision: ", "ABI: ", "Timestamp: ", "Process uptime: ", "Cmdline: ",
	"uid: ", "tagged_addr_ctrl: ", "pac_enabled_keys: ", "Cause: ", "Abort message: ",
	"memory near ", "code around ", "stack:", "memory map", "open files:", "LOG ",
}

func (g *androidGrammar) line(b *builder, t string) verdict {
	s := strings.TrimLeft(t, " \t")
	r := b.rep
	switch {
	case s == "":
		return vUnknown
	case strings.HasPrefix(s, "#"):
		f, ok := ParseTombstoneFrame(s)
		if !ok {
			return vUnknown
		}
		if b.stack < 0 || !g.inTrace && b.lastFrame() == nil {
			g.inTrace = true
			b.openStack("", "access", "error")
		}
		b.appendFrame(f, "", "", "")
		return vOwn
	case s == "backtrace:":
		g.inTrace = true
		b.openStack(s, "access", "error")
		return vOwn
	case s == "...":
		return vOwn // an author's elision: no frame
	case strings.HasPrefix(s, "Tombstone written to: "):
		return vLast
	case strings.HasPrefix(s, "--- --- ---"):
		return vNotMine // the next thread's section: not the crash
	case strings.HasPrefix(s, "signal "):
		if g.signalLine(r, s) {
			return vOwn
		}
		return vUnknown
	case tombstonePid(s) > 0:
		if r.PID != 0 {
			return vNotMine // another tombstone
		}
		r.PID = tombstonePid(s)
		return vOwn
	case strings.HasSuffix(s, " total frames") || registerLine(s) || hexDumpLine(s):
		return vOwn
	}
	for _, k := range tombstoneKeys {
		if strings.HasPrefix(s, k) {
			if k == "Abort message: " {
				g.abort(r, s)
			}
			return vOwn
		}
	}
	return vUnknown
}

// tombstoneWrapRest reports whether n is the wrapped rest of l, a line
// of a tombstone that is no frame: behind logcat every line carries its
// prefix, so one without it right after one a wrapper may have broken is
// its rest; raw, a register row broken before a value ("x0
// 0000000600000000 ... x3" and its "000000005e688911").
func tombstoneWrapRest(l, n string, carries bool) bool {
	if !carries {
		return true
	}
	fs := strings.Fields(l)
	return len(fs)%2 == 1 && len(fs[len(fs)-1]) <= 6 && registerLine(l+" "+n)
}

// registerLine reports whether s is a line of the register dump: pairs of
// a register's name and its value in hex ("r0 00000000  r1 000018a2",
// "x0  0000006ddb4faa80", "cpsr 60070010", "pst 0000000020001000").
func registerLine(s string) bool {
	fs := strings.Fields(s)
	if len(fs) < 2 || len(fs)%2 != 0 {
		return false
	}
	for i := 0; i < len(fs); i += 2 {
		if len(fs[i]) > 6 || len(fs[i+1]) < 8 || len(fs[i+1]) > 16 || !allHex(fs[i+1]) {
			return false
		}
	}
	return true
}

// hexDumpLine reports whether s is a line of a memory dump ("stack:",
// "memory near x0:"): an address, then words.
func hexDumpLine(s string) bool {
	w, _, ok := strings.Cut(s, " ")
	w = strings.TrimPrefix(w, "0x")
	return ok && len(w) >= 8 && len(w) <= 16 && allHex(w)
}

func (g *androidGrammar) end(b *builder, eof bool) {}

// pendingLimit: a tombstone's sections this grammar does not read (a
// vendor's extra lines) may stand between the ones it does.
func (g *androidGrammar) pendingLimit(b *builder) int { return 4 }

// ParseTombstoneFrame parses one frame of a tombstone's backtrace:
//
//	#00 pc 000000000004f3b4  /system/lib64/libc.so (abort+164) (BuildId: 5d3f...)
//	#00  pc 0000841e  /data/local/ndk-tests/crasher
//	#95 pc 00000000001c8670  [anon_shmem:dalvik-jit-code-cache] (offset 0x2000000) (art_jni_trampoline+144)
//	#00 pc 000000000001b1b8  <unknown>
//
// The pc is the module-relative one: the frame's Offset into Module.
func ParseTombstoneFrame(line string) (report.Frame, bool) {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 8 || s[0] != '#' {
		return report.Frame{}, false
	}
	i := 1
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 1 {
		return report.Frame{}, false
	}
	idx, _ := strconv.Atoi(s[1:i])
	rest, ok := strings.CutPrefix(strings.TrimLeft(s[i:], " "), "pc ")
	if !ok {
		return report.Frame{}, false
	}
	rest = strings.TrimLeft(rest, " ")
	hex, rest, _ := strings.Cut(rest, " ")
	if len(hex) < 4 || len(hex) > 16 || !allHex(hex) {
		return report.Frame{}, false
	}
	f := report.Frame{Index: idx, Raw: s, Symbolized: report.SymbolizedNone}
	f.Offset, _ = strconv.ParseUint(hex, 16, 64)
	f.HasOffset = true
	rest = strings.TrimLeft(rest, " ")
	// The module: a path, "[anon:...]", or "<unknown>".
	switch {
	case strings.HasPrefix(rest, "<unknown>"):
		rest = rest[len("<unknown>"):]
		f.HasOffset = false
		f.PC, f.HasPC = f.Offset, true // no module: an absolute pc
		f.Offset = 0
	case strings.HasPrefix(rest, "["):
		e := strings.IndexByte(rest, ']')
		if e < 0 {
			f.Module, rest = rest, ""
		} else {
			f.Module, rest = rest[:e+1], rest[e+1:]
		}
	default:
		e := strings.Index(rest, " (")
		if e < 0 {
			e = len(rest)
		}
		f.Module, rest = strings.TrimRight(rest[:e], " "), rest[e:]
	}
	// Then groups in parentheses: "(offset 0x...)", "(BuildId: ...)",
	// the function "(f+164)", whose name may hold parentheses itself.
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" || rest[0] != '(' {
			break
		}
		e := closingParen(rest)
		if e < 0 {
			// A line cut inside its function: what there is of it.
			e = len(rest)
		}
		g := rest[1:min(e, len(rest))]
		rest = rest[min(e+1, len(rest)):]
		switch {
		case strings.HasPrefix(g, "BuildId: "):
			f.BuildID = strings.TrimPrefix(g, "BuildId: ")
		case strings.HasPrefix(g, "offset 0x"):
		default:
			fn := g
			if p := strings.LastIndexByte(fn, '+'); p > 0 {
				if n, err := strconv.ParseUint(fn[p+1:], 10, 64); err == nil {
					f.SymbolOffset, f.HasSymbolOffset = n, true
					fn = fn[:p]
				}
			}
			f.Function = fn
			f.Symbolized = report.SymbolizedReport
		}
	}
	return f, true
}

// closingParen is the index of the parenthesis that closes s[0]'s, or -1.
func closingParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// logcatLen matches the prefix logcat puts before every line of a
// tombstone it shows: brief's "I/DEBUG   (  260): ", tag's "F DEBUG   : ",
// threadtime's "08-11 11:07:17.481  1071  1071 F DEBUG   : " (the date
// and time, then "1071  1071 F DEBUG   : "), Android Studio's
// "16540-16540/? A/DEBUG: " after its timestamp. It returns the length of
// one such piece, 0 when s starts with none.
func logcatLen(s []byte) int {
	// "08-11 " before a time: the time is the next piece.
	if len(s) > 6 && isDigit(s[0]) && isDigit(s[1]) && s[2] == '-' && isDigit(s[3]) && isDigit(s[4]) && s[5] == ' ' &&
		timestampLen(s[6:]) > 0 {
		return 6
	}
	i := 0
	if len(s) > 0 && isDigit(s[0]) {
		// "1071  1071 F DEBUG   : " or "16540-16540/? A/DEBUG: "
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		switch {
		case i < len(s) && s[i] == '-':
			i++
			k := i
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			if i == k || i >= len(s) || s[i] != '/' {
				return 0
			}
			for i < len(s) && s[i] != ' ' {
				i++
			}
		case i < len(s) && s[i] == ' ':
			i += spaces(s[i:])
			k := i
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			if i == k {
				return 0
			}
		default:
			return 0
		}
		if i >= len(s) || s[i] != ' ' {
			return 0
		}
		i += spaces(s[i:])
	}
	if i+2 >= len(s) || strings.IndexByte("VDIWEFA", s[i]) < 0 || s[i+1] != '/' && s[i+1] != ' ' {
		return 0
	}
	slash := s[i+1] == '/'
	i += 2
	t := i
	for i < len(s) && s[i] != ':' && s[i] != '(' {
		if s[i] == ' ' && (i+1 >= len(s) || s[i+1] != ' ' && s[i+1] != ':' && s[i+1] != '(') {
			return 0 // a tag has no blank inside
		}
		i++
	}
	if i == t || strings.TrimSpace(string(s[t:i])) == "" || i >= len(s) {
		return 0
	}
	if s[i] == '(' {
		if !slash {
			return 0
		}
		// "(  260)"
		i++
		i += spaces(s[i:])
		k := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == k || i+1 >= len(s) || s[i] != ')' || s[i+1] != ':' {
			return 0
		}
		i++
	}
	// At the colon: ": " or the line's end (an empty logcat line).
	i++
	if i < len(s) && s[i] != ' ' {
		return 0
	}
	if i < len(s) {
		i++
	}
	return i
}
