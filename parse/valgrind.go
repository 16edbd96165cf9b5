package parse

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Valgrind's error reports: Memcheck's, Helgrind's and DRD's. Every line
// Valgrind writes carries its mark, "==PID== " (noise prefix before it), and
// a report is a block of such lines: the error's message at the margin,
// its lines one blank further in, its frames three blanks in, a blank line
// after it (Helgrind's blocks have blank lines inside too).
//
//	==3795== Invalid read of size 4
//	==3795==    at 0x1091A9: overflow_read (memcheck.c:21)
//	==3795==    by 0x1093A7: main (memcheck.c:84)
//	==3795==  Address 0x4a42048 is 0 bytes after a block of size 8 alloc'd
//	==3795==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
//	==3795==    by 0x10918A: overflow_read (memcheck.c:19)
//	==3795==
//
// A report is each error, each loss record of the leak check ("... bytes
// in 1 blocks are definitely lost in loss record 2 of 3" with its stack)
// and the fatal signal ("Process terminating with default action of signal
// 11 (SIGSEGV)"); the preamble, the thread announcements and the HEAP,
// LEAK and ERROR SUMMARY blocks are not. The message has no word the
// per-line pre-filter could look for, so a report is found from its first
// frame (whose "at 0x...:" it does look for): the lines before it are read
// back to the message (valgrindBack). Every line's mark is the report's
// prefix: Raw and the frames hold the lines without it, Report.PID its
// pid.

var valgrindFormat = format{
	producer: report.ProducerValgrind,
	cues:     cues{words: []string{"0x*"}}, // "   at 0x1091A9: f (a.c:3)"
	back:     valgrindBack,
	frame:    ParseValgrindFrame,
	telltale: anyFrame,
	headRest: valgrindHeadRest,
	// Every line of a report carries the mark: one without it right after
	// one a wrapper may have broken is its rest.
	wrapRest: func(_, _ string, carries bool) bool { return !carries },
	// The lines back to a report's message (valgrindBack).
	lead:      valgrindLead,
	leadLines: valgrindBackMax,
}

// valgrindBackMax is how many lines before its first frame a report's
// message may stand: Helgrind's lock-order message, a blank line and the
// first stack's title; a wrapped message's pieces.
const valgrindBackMax = 6

// valgrindMark finds Valgrind's "==PID==" in line: the bytes before it
// (the noise prefix) and after it, and the pid. Only a mark followed by a
// blank or the line's end counts.
func valgrindMark[T string | []byte](line T) (start, end, pid int, ok bool) {
	for i := 0; i+5 <= len(line); i++ {
		if line[i] != '=' || line[i+1] != '=' {
			continue
		}
		j := i + 2
		for j < len(line) && isDigit(line[j]) {
			j++
		}
		if j == i+2 || j-(i+2) > 9 || j+2 > len(line) || line[j] != '=' || line[j+1] != '=' {
			i = j - 1
			continue
		}
		end := j + 2
		if end < len(line) && line[end] != ' ' {
			return 0, 0, 0, false
		}
		n, _ := strconv.Atoi(string(line[i+2 : j]))
		return i, end, n, true
	}
	return 0, 0, 0, false
}

// valgrindLead reports whether line carries Valgrind's mark and text: it
// may be the message of a report found at a frame a few lines later.
func valgrindLead(line, _ []byte) bool {
	_, end, _, ok := valgrindMark(line)
	return ok && len(strings.TrimSpace(string(line[end:]))) > 0
}

// valgrindBack finds the report whose first frame is line (a line the
// pre-filter passed): it reads the lines before it back to the report's
// message. It returns how many lines back the message stands, the length
// of the prefix every line of the report carries (noise and mark), the
// grammar and the report; k 0 when line is not the first frame of one.
func valgrindBack(line []byte, before func(k int) ([]byte, bool)) (k, pfx int, g grammar, r *report.Report) {
	start, end, pid, ok := valgrindMark(line)
	if !ok {
		return 0, 0, nil, nil
	}
	if _, ok := ParseValgrindFrame(strings.TrimSpace(string(line[end:]))); !ok {
		return 0, 0, nil, nil
	}
	mark := string(line[start:end])
	gap := false // a blank line between here and the frame
	for k := 1; k <= valgrindBackMax; k++ {
		b, ok := before(k)
		if !ok {
			break
		}
		s, e, _, marked := valgrindMark(b)
		if !marked {
			if len(strings.TrimSpace(string(b))) == 0 {
				break
			}
			// A wrapped message's or title's rest, or another writer's
			// line: read on.
			continue
		}
		if string(b[s:e]) != mark {
			break
		}
		body := strings.TrimRight(string(b[e:]), " \t")
		body = strings.TrimPrefix(body, " ")
		switch {
		case strings.TrimSpace(body) == "":
			// Only Helgrind's lock-order message stands a blank line
			// before its first stack's title.
			if gap {
				return 0, 0, nil, nil
			}
			gap = true
			continue
		case body[0] == ' ' || valgrindAside(body):
			continue // a line of the report after its message
		}
		g, r, ok := valgrindStart(body)
		if !ok || gap && !strings.Contains(body, " lock order ") {
			return 0, 0, nil, nil
		}
		r.PID = pid
		return k, e + 1, g, r
	}
	return 0, 0, nil, nil
}

// valgrindMessage reports whether line is a Valgrind report's message:
// the mark, then, at the margin, a message of a kind only Valgrind prints
// (valgrindKind reads any line at the margin before a frame as one; here
// no frame has been seen yet, so the kind must be one of Valgrind's own).
func valgrindMessage(line []byte) bool {
	if bytes.IndexByte(line, '=') < 0 {
		return false
	}
	_, end, _, ok := valgrindMark(line)
	if !ok || end+1 >= len(line) || line[end+1] == ' ' {
		return false // no text, or not at the margin (a frame, a detail)
	}
	t := strings.TrimRight(string(line[end+1:]), " \t")
	kind, _, ok := valgrindKind(t)
	if !ok {
		return false
	}
	if strings.HasPrefix(t, "Thread #") || strings.HasSuffix(kind, " lost") || kind == "lost" {
		return true // Helgrind's thread messages, a loss record
	}
	for _, p := range valgrindMessageKinds {
		if strings.HasPrefix(kind, p) {
			return true
		}
	}
	return false
}

// valgrindMessageKinds begin the kinds of Memcheck's, Helgrind's and DRD's
// messages (docs/json.md).
var valgrindMessageKinds = []string{"Invalid ", "Mismatched ", "Conditional jump ", "Use of uninitialised ",
	"Syscall param ", "Source and destination overlap", "Argument '", "Process terminating ",
	"Jump to the invalid address", "Possible data race", "Conflicting ", "Mutex ", "Illegal memory pool"}

// valgrindAside reports whether t, a line at the margin, is one of the
// lines of a report after its message that the margin holds: Helgrind's
// "Locks held:" and stack titles, DRD's allocation context and segments.
func valgrindAside(t string) bool {
	for _, p := range []string{"Locks held:", "This conflicts with ", "Observed (incorrect) order ",
		"Required order was established ", "Allocation context:", "Other segment start",
		"Other segment end"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.HasSuffix(t, "Allocation context:")
}

// valgrindStart reads a report's message (t: its line without the mark),
// found before its first frame.
func valgrindStart(t string) (grammar, *report.Report, bool) {
	kind, access, ok := valgrindKind(t)
	if !ok {
		return nil, nil, false
	}
	r := &report.Report{Kind: kind, Headline: t, Message: t, Access: access}
	g := &valgrindGrammar{}
	g.title, g.role, g.detail = valgrindFirstStack(t, kind)
	return g, r, true
}

// valgrindFirstStack is the title and role of the stack right after a
// report's message.
func valgrindFirstStack(msg, kind string) (title, role, detail string) {
	if kind == "lost" || strings.HasSuffix(kind, " lost") {
		return msg, "leak", "leak"
	}
	return msg, "access", "error"
}

// valgrindKind is the kind of report a message at the margin starts
// (ok false: not a report's message), as Valgrind words it without what
// differs from one run to the next (sizes, addresses, threads, loss record
// numbers): "Invalid read", "Conditional jump or move depends on
// uninitialised value(s)", "definitely lost", "Possible data race",
// "lock order violated", "Conflicting load", ..., and the access the
// message describes.
func valgrindKind(t string) (string, *report.Access, bool) {
	if t == "" || t[0] == ' ' || valgrindAside(t) || strings.HasPrefix(t, "Address 0x") {
		return "", nil, false
	}
	if strings.HasPrefix(t, "Thread #") {
		return valgrindThreadKind(t)
	}
	for _, p := range []string{"Thread ", "Open file descriptor ", "Open AF_", "HEAP SUMMARY", "LEAK SUMMARY",
		"ERROR SUMMARY", "Memcheck, ", "Helgrind, ", "drd, ", "Copyright ", "Using Valgrind", "Command: ",
		"Parent PID: ", "For lists of ", "For counts of ", "Use --", "Rerun with ", "Warning: ", "---",
		"Block was alloc'd", "Uninitialised value was created", "Lock at 0x", "followed by "} {
		if strings.HasPrefix(t, p) {
			return "", nil, false
		}
	}
	// A loss record: "32 (16 direct, 16 indirect) bytes in 1 blocks are
	// definitely lost in loss record 2 of 3"; a wrapped one's first piece
	// reads as one too until its rest comes.
	if isDigit(t[0]) && strings.Contains(t, " bytes in ") {
		for _, k := range []string{"definitely lost", "indirectly lost", "possibly lost"} {
			if strings.Contains(t, " are "+k) {
				return k, nil, true
			}
		}
		if strings.Contains(t, " are still reachable") {
			return "", nil, false // not an error unless asked for
		}
		if _, rest, ok := strings.Cut(t, " blocks are"); ok && !strings.Contains(rest, " in loss record ") {
			return "lost", nil, true // the rest of a wrapped record's message is to come
		}
		return "", nil, false
	}
	var access *report.Access
	if op, rest, ok := strings.Cut(t, " of size "); ok {
		// "Invalid read of size 4", "Use of uninitialised value of size 8"
		n, _, _ := strings.Cut(rest, " ")
		if size, err := strconv.Atoi(n); err == nil {
			access = &report.Access{Size: size}
			switch op {
			case "Invalid read":
				access.Op = "read"
			case "Invalid write":
				access.Op = "write"
			default:
				access = nil
			}
		}
	}
	if rest, ok := strings.CutPrefix(t, "Possible data race during "); ok {
		access = helgrindAccess(rest)
	}
	if rest, ok := strings.CutPrefix(t, "Conflicting "); ok {
		access = drdAccess(rest)
	}
	return valgrindCut(t), access, true
}

// valgrindThreadKind is the kind of a Helgrind message about a thread
// ("Thread #1: lock order \"0x10C080 before 0x10C0C0\" violated", "Thread
// #1 unlocked a not-locked lock at 0x...", "Thread #2's call to
// pthread_mutex_unlock failed"); its announcements ("Thread #3 was
// created") and the other lines at the margin are no report's message.
func valgrindThreadKind(t string) (string, *report.Access, bool) {
	rest, ok := strings.CutPrefix(t, "Thread #")
	if !ok {
		return "", nil, false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	if i == 0 {
		return "", nil, false
	}
	rest = rest[i:]
	switch {
	case strings.HasPrefix(rest, ": "):
		rest = rest[2:]
	case strings.HasPrefix(rest, "'s "):
		rest = rest[3:]
	case strings.HasPrefix(rest, " "):
		rest = rest[1:]
	default:
		return "", nil, false
	}
	if rest == "" || strings.HasPrefix(rest, "was created") || strings.HasPrefix(rest, "is the program's root thread") {
		return "", nil, false
	}
	return valgrindCut(rest), nil, true
}

// valgrindCut is a message without what differs between runs: the quoted
// addresses of "lock order \"0x.. before 0x..\" violated", and everything
// from the first size, address, thread or value it names.
func valgrindCut(t string) string {
	for {
		i := strings.Index(t, "\"0x")
		if i < 0 {
			break
		}
		j := strings.IndexByte(t[i+1:], '"')
		if j < 0 {
			break
		}
		t = strings.TrimRight(t[:i], " ") + " " + strings.TrimLeft(t[i+1+j+1:], " ")
	}
	cut := len(t)
	for _, m := range []string{": ", " of size ", " during ", " at 0x", " by thread ", "(0x", " 0x", " size "} {
		if i := strings.Index(t, m); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimRight(t[:cut], " .,")
}

// helgrindAccess reads "read of size 4 at 0x10C060 by thread #3" as
// TSan's access lines are read, the thread "#3".
func helgrindAccess(s string) *report.Access {
	a := parseAccess(s)
	if a != nil {
		a.Thread = strings.TrimPrefix(a.Thread, "thread ")
	}
	return a
}

// drdAccess reads "load by thread 3 at 0x0010c060 size 4".
func drdAccess(s string) *report.Access {
	f := strings.Fields(s)
	if len(f) != 8 || f[1] != "by" || f[2] != "thread" || f[4] != "at" || f[6] != "size" {
		return nil
	}
	size, err := strconv.Atoi(f[7])
	if err != nil {
		return nil
	}
	return &report.Access{Op: f[0], Size: size, Address: f[5], Thread: f[3]}
}

// valgrindHeadRest joins a report's message with its wrapped rest (a
// line without the mark right after it, which may read as a "name: " line:
// "... a fishy (possibly negative)" and its "value: -1") when the whole
// still reads as a message.
func valgrindHeadRest(b *builder, rest []byte, last int, carries bool) (string, bool) {
	if carries {
		return "", false
	}
	// Any noise the log puts before the mark is on the rest too; another
	// writer's line behind its own prefix is no rest, but a "name: " may
	// be one.
	if s, _, _, ok := valgrindMark(b.pfx.text); ok && s > 0 {
		if body, ok := newPrefix(b.pfx.text[:s]).strip(rest); ok {
			rest = body
		}
	}
	if m := knownPrefixAt(rest); m > 0 && !nameColon(rest[:m]) {
		return "", false
	}
	n := strings.TrimSpace(string(rest))
	if n == "" || !mayWrapLen(last, n) {
		return "", false
	}
	if _, ok := ParseValgrindFrame(n); ok {
		return "", false
	}
	whole := b.rep.Headline + " " + n
	kind, access, ok := valgrindKind(whole)
	if !ok {
		return "", false
	}
	r := b.rep
	r.Headline, r.Message, r.Kind, r.Access = whole, whole, kind, access
	if g := b.g.(*valgrindGrammar); g.stacks == 0 {
		g.title, g.role, g.detail = valgrindFirstStack(whole, kind)
	}
	return n, true
}

// ParseValgrindFrame parses one of Valgrind's frame lines without its
// mark: "at 0x1091A9: overflow_read (memcheck.c:21)", "by 0x48417B4:
// malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
// "by 0x401183: ??? (in /build/prog)", "by 0x526C6BF: ???". The pc is the
// frame's (a caller's return address less one), so Adjust is 0.
func ParseValgrindFrame(t string) (report.Frame, bool) {
	s := strings.TrimSpace(t)
	rest, ok := strings.CutPrefix(s, "at 0x")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "by 0x"); !ok {
			return report.Frame{}, false
		}
	}
	i := 0
	for i < len(rest) && isHex(rest[i]) {
		i++
	}
	if i == 0 || i > 16 || !strings.HasPrefix(rest[i:], ": ") {
		return report.Frame{}, false
	}
	pc, _ := strconv.ParseUint(rest[:i], 16, 64)
	f := report.Frame{Index: -1, PC: pc, HasPC: true, Raw: s, Symbolized: report.SymbolizedNone}
	fn := strings.TrimSpace(rest[i+2:])
	if fn == "" {
		return report.Frame{}, false
	}
	// The location is the last parenthesised group: "(file.c:12)" or
	// "(in module)". A name may hold groups of its own ("operator
	// new(unsigned long)", "(below main)").
	if i := strings.LastIndex(fn, " ("); i > 0 && !strings.Contains(fn[i:], ")") {
		// A location a wrapper broke off ("malloc (in" and then the
		// module on the next line): the frame is read without it until
		// its rest is joined.
		fn = fn[:i]
	} else if strings.HasSuffix(fn, ")") {
		if k := openingParen(fn); k > 0 && fn[k-1] == ' ' {
			loc := fn[k+1 : len(fn)-1]
			if mod, ok := strings.CutPrefix(loc, "in "); ok {
				f.Module, fn = mod, strings.TrimRight(fn[:k], " ")
			} else if file, line, col := parseLoc(loc); line > 0 {
				f.File, f.Line, f.Column, fn = file, line, col, strings.TrimRight(fn[:k], " ")
			}
		}
	}
	if fn != "???" {
		f.Function = fn
	}
	if f.Function != "" || f.File != "" {
		f.Symbolized = report.SymbolizedReport
	}
	return f, true
}

// valgrindGrammar reads a report's lines after its message.
type valgrindGrammar struct {
	// title, role and detail are those of the stack the next frame opens
	// when none is open: the message, then the last line before a frame.
	title, role, detail string
	gap                 bool // a blank line since the report's last line
	stacks              int  // stacks opened
}

func (g *valgrindGrammar) line(b *builder, t string) verdict {
	if !b.carried {
		// Not Valgrind's line of this process: after the block's blank
		// line the report has ended; inside it, another writer's output.
		if g.gap {
			return vNotMine
		}
		return vForeign
	}
	s := strings.TrimSpace(t)
	if s == "" {
		b.closeStack()
		g.gap = true
		return vUnknown
	}
	if f, ok := ParseValgrindFrame(s); ok {
		if b.stack < 0 {
			b.openStack(g.title, g.role, g.detail)
			g.stacks++
			g.title, g.role, g.detail = "", "other", "other"
		}
		b.appendFrame(f, "", "", "")
		g.gap = false
		return vOwn
	}
	if t[0] != ' ' {
		// At the margin: another report's message, or a block that is
		// no report (an announcement, a summary), ends this one; after
		// the blank line only Helgrind's stack titles go on with it.
		if valgrindStop(s) || g.gap && !valgrindAside(s) && !strings.HasPrefix(s, "Address 0x") {
			return vNotMine
		}
	} else if g.gap && !strings.HasPrefix(s, "Address 0x") && !strings.HasPrefix(s, "followed by ") && !strings.HasPrefix(s, "Lock at 0x") {
		return vNotMine
	}
	g.gap = false
	g.note(b, s)
	return vOwn
}

// valgrindStop reports whether t, a line at the margin, starts a block
// that is not this report's: another report's message, a thread
// announcement, a ruler, a summary.
func valgrindStop(t string) bool {
	if _, _, ok := valgrindKind(t); ok {
		return true
	}
	for _, p := range []string{"---", "Thread ", "HEAP SUMMARY", "LEAK SUMMARY", "ERROR SUMMARY", "For lists of ",
		"For counts of "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// note takes a line of the report that is no frame: where the accessed
// memory lies, the title of the stack that follows, or neither.
func (g *valgrindGrammar) note(b *builder, s string) {
	b.closeStack()
	role, detail := "", ""
	switch {
	case strings.HasPrefix(s, "Locks held:"), strings.HasPrefix(s, "("):
		return // Helgrind's locks; DRD's "(thread finished, call stack no longer available)"
	case strings.HasPrefix(s, "Address 0x"):
		b.rep.Location = append(b.rep.Location, report.Location{Text: s})
		if a := b.rep.Access; a != nil && a.Address == "" {
			a.Address, _, _ = strings.Cut(strings.TrimPrefix(s, "Address "), " ")
		}
		switch {
		case !strings.Contains(s, " a block of size "):
			role, detail = "other", "location" // "is not stack'd, malloc'd or (recently) free'd"
		case strings.HasSuffix(s, " alloc'd"):
			role, detail = "alloc", "alloc"
		case strings.HasSuffix(s, " free'd"):
			role, detail = "free", "free"
		default:
			role, detail = "other", "location"
		}
	case strings.HasPrefix(s, "Access not within mapped region"), strings.HasPrefix(s, "Bad permissions for mapped region"),
		strings.HasPrefix(s, "Allocation context: "):
		b.rep.Location = append(b.rep.Location, report.Location{Text: s})
		return
	case strings.HasPrefix(s, "Block was alloc'd"), strings.HasSuffix(s, "Allocation context:"):
		role, detail = "alloc", "alloc"
	case strings.HasPrefix(s, "Uninitialised value was created by a heap allocation"):
		role, detail = "origin", "origin_heap"
	case strings.HasPrefix(s, "Uninitialised value was created by a stack allocation"):
		role, detail = "origin", "origin_stack"
	case strings.HasPrefix(s, "Uninitialised value was created"):
		role, detail = "origin", "origin_unknown"
	case strings.HasPrefix(s, "This conflicts with a previous "):
		role, detail = "previous", "previous_access"
	case strings.HasPrefix(s, "Other segment "):
		role, detail = "previous", "other_segment"
	case strings.HasPrefix(s, "Observed (incorrect) order "), strings.HasPrefix(s, "followed by a later acquisition "):
		role, detail = "mutex", "mutex_acquire"
	case strings.HasPrefix(s, "Required order was established "):
		role, detail = "mutex", "mutex_previous_acquire"
	case strings.HasPrefix(s, "Lock at 0x") && strings.HasSuffix(s, " was first observed"):
		role, detail = "mutex", "mutex_creation"
	default:
		if g.stacks == 0 {
			return // the message's own lines ("If you believe this happened ...")
		}
		role, detail = "other", "other"
	}
	g.title, g.role, g.detail = s, role, detail
}

func (g *valgrindGrammar) end(b *builder, eof bool) {
	// The block ends with a blank line; the end of the input before it
	// may have cut it short.
	b.rep.Truncated = eof && !g.gap
}

func (g *valgrindGrammar) pendingLimit(b *builder) int { return 3 }
