package parse

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// The typed parts of a report's lines (locations, summary, stack titles,
// ASan's stack-object list, TSan's lock cycle) are read here, once per
// report when it is complete, so that no consumer reads the wording again.
// These lines are a handful per report, so regexps are affordable here,
// unlike in the scanner's per-line path.

// Fill sets the typed fields of r from its text: the parts of its Summary
// and Location lines, the roles (when not set), locations and threads its
// stack titles name,
// the stack objects and lock cycle among its Raw lines, and the faulting
// Address. The Scanner fills every report it returns; a producer that
// assembles a report from a log's lines itself calls Fill when done.
func Fill(r *report.Report) {
	r.Summary = summaryOf(r.Summary.Text)
	fillDerived(r)
}

// DeferFill makes Next return each report before its derived fields are
// set (those Fill sets but the summary, which the Scanner types as it
// reads it): a caller that hands reports to another goroutine completes
// them there with Complete, off the parser's path. A decode run's parser
// is the one busy goroutine of the run and its writer's core is idle a
// third of the time (docs/performance.md). Symbolizer markup reports,
// whose completion reads the Scanner's markup context, are still filled
// by the Scanner.
func (s *Scanner) DeferFill() { s.deferFill = true }

// Complete sets the derived fields of r, a report a Scanner returned
// after DeferFill; for a report already filled it does again what was
// done.
func Complete(r *report.Report) {
	if !filledByScanner(r) {
		fillDerived(r)
	}
}

// filledByScanner reports whether the Scanner fills r even after
// DeferFill: a markup report's completion (markupFinish) reads the
// Scanner's markup context.
func filledByScanner(r *report.Report) bool { return r.Markup }

// fillDerived is Fill without the summary, which the scanner types as it
// reads the SUMMARY line.
func fillDerived(r *report.Report) {
	for i := range r.Location {
		r.Location[i] = locationOf(r.Location[i].Text)
	}
	for i := range r.Stacks {
		s := &r.Stacks[i]
		if s.RoleDetail == "" {
			if role, detail, ok := classifyTitle(strings.TrimSpace(s.Title)); ok {
				s.RoleDetail = detail
				if s.Role == "" {
					s.Role = role
				}
			}
		}
		s.Location = titleLocation(s.Title)
		s.Thread = historyThread(s.Title)
	}
	r.StackObjects, r.LockCycle = nil, nil
	var seen map[string]bool // the lines taken, made on the first
	for _, l := range r.Raw {
		// Most lines are frames: look at the first non-blank byte first.
		i := 0
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		if i == len(l) || (l[i] != 'T' && l[i] != '[' && l[i] != 'C') {
			continue
		}
		t := strings.TrimSpace(l)
		if seen[t] {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		switch {
		case strings.HasPrefix(t, "This frame has "):
			if frameHeaderRE.MatchString(t) {
				seen[t] = true
				if r.StackObjects == nil {
					r.StackObjects = &report.StackObjects{}
				}
				if r.StackObjects.Header == "" {
					r.StackObjects.Header = t
				}
			}
		case t[0] == '[':
			if o, ok := stackObjectOf(t); ok {
				seen[t] = true
				if r.StackObjects == nil {
					r.StackObjects = &report.StackObjects{}
				}
				r.StackObjects.Objects = append(r.StackObjects.Objects, o)
			}
		case strings.HasPrefix(t, "Cycle in lock order graph"):
			seen[t] = true
			r.LockCycle = append(r.LockCycle, t)
		}
	}
	if r.Shadow != nil {
		for i := range r.Shadow.Rows {
			row := &r.Shadow.Rows[i]
			a, ok := addrOf(row.Address)
			row.Base, row.HasBase = a.Value, ok
		}
	}
	r.Address, r.HasAddress = faultAddress(r)
}

var (
	// TSan: "Location is global 'x' of size 8 at 0x... (mod+0x...)"
	tsanGlobalRE = regexp.MustCompile(`^Location is global '(.*)' of size (\d+) at (0x[0-9a-fA-F]+)(?: \(([^()]+)\+0x([0-9a-fA-F]+)\))?(.*)$`)
	// TSan, unsymbolized: it asks the symbolizer for the global's name and
	// start (a DATA query), and without one prints '<null>' and address 0.
	tsanNullGlobalRE = regexp.MustCompile(`^Location is global '<null>' at (0x0+) \(([^()]+)\+0x([0-9a-fA-F]+)\)(.*)$`)

	frameHeaderRE = regexp.MustCompile(`^This frame has \d+ object`)
	// "[32, 40) 'a' (line 3)", then, for the variable the access is
	// blamed on, " <== Memory access at offset 56 overflows this variable".
	stackObjectRE  = regexp.MustCompile(`^\[(\d+), (\d+)\) '(.*?)'(?: \(line (\d+)\))?`)
	blamedObjectRE = regexp.MustCompile(`^\[(\d+), (\d+)\) '(.*?)'(?: \(line (\d+)\))? <== Memory access at offset \d+ (.+?) this variable`)
)

// locationOf types a location line (blanks trimmed): ASan's "0x... is
// located ..." or TSan's "Location is ...".
func locationOf(t string) report.Location {
	l := report.Location{Text: t}
	if strings.HasPrefix(t, "Location is ") {
		if m := tsanGlobalRE.FindStringSubmatch(t); m != nil {
			size, err1 := strconv.ParseUint(m[2], 10, 64)
			begin, ok := addrOf(m[3])
			if err1 == nil && ok {
				l.Kind, l.Name, l.Size, l.HasSize, l.Begin = report.Global, m[1], size, true, begin
				if m[4] != "" {
					if off, err := strconv.ParseUint(m[5], 16, 64); err == nil {
						l.Module, l.ModuleOffset, l.HasModuleOffset = m[4], off, true
					}
				}
				l.Tail = m[6]
			}
		} else if m := tsanNullGlobalRE.FindStringSubmatch(t); m != nil {
			if off, err := strconv.ParseUint(m[3], 16, 64); err == nil {
				l.Kind, l.Name, l.Begin = report.Global, "<null>", report.Addr{Text: m[1]}
				l.Module, l.ModuleOffset, l.HasModuleOffset, l.Tail = m[2], off, true, m[4]
			}
		}
		return l
	}
	if a, rest, ok := strings.Cut(t, " "); ok && strings.HasPrefix(rest, "is located") {
		l.Address, _ = addrOf(a)
	}
	if r, ok := asanRegion(t); ok {
		l.Kind, l.Offset, l.Relation, l.Size, l.HasSize, l.Begin, l.End = report.HeapRegion, r.off, r.rel, r.size, true, r.begin, r.end
	} else if r, ok := asanGlobal(t); ok {
		l.Kind, l.Offset, l.Relation, l.Name, l.DefinedAt, l.Begin, l.Size, l.HasSize =
			report.GlobalVariable, r.off, r.rel, r.name, r.defined, r.begin, r.size, true
	}
	return l
}

// asanLocation is what ASan's "is located" lines say of a heap region or a
// global variable.
type asanLocation struct {
	off, size     uint64
	rel           string
	begin, end    report.Addr
	name, defined string
}

// relations are the ways ASan places an address against its memory.
var relations = []string{"inside of", "to the right of", "to the left of"}

// asanLocated reads "is located N bytes REL " at the start of s and returns
// the rest. (The ASan location lines are read by hand: one per report,
// they cost more through regexps than the rest of the report's typing.)
func asanLocated(s string) (off uint64, rel, rest string, ok bool) {
	s, ok = strings.CutPrefix(s, "is located ")
	if !ok {
		return 0, "", "", false
	}
	n, s, ok := cutNumber(s)
	if !ok {
		return 0, "", "", false
	}
	if s, ok = strings.CutPrefix(s, " bytes "); !ok {
		return 0, "", "", false
	}
	for _, r := range relations {
		if rest, ok := strings.CutPrefix(s, r+" "); ok {
			return n, r, rest, true
		}
	}
	return 0, "", "", false
}

// cutNumber reads the decimal number at the start of s.
func cutNumber(s string) (uint64, string, bool) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	return n, s[i:], err == nil
}

// cutHexAddr reads "0x" and hex digits at the start of s.
func cutHexAddr(s string) (report.Addr, string, bool) {
	if !strings.HasPrefix(s, "0x") {
		return report.Addr{}, s, false
	}
	i := 2
	for i < len(s) && isHex(s[i]) {
		i++
	}
	a, ok := addrOf(s[:i])
	return a, s[i:], ok
}

// asanRegion reads "is located 4 bytes inside of 400-byte region
// [0x...,0x...)" anywhere in t.
func asanRegion(t string) (asanLocation, bool) { return asanLocatedIn(t, asanRegionAt) }

// asanLocatedIn tries at on every "is located " of t, first to last, and
// returns the first location it reads.
func asanLocatedIn(t string, at func(string) (asanLocation, bool)) (asanLocation, bool) {
	for i := strings.Index(t, "is located "); i >= 0; {
		if r, ok := at(t[i:]); ok {
			return r, true
		}
		j := strings.Index(t[i+1:], "is located ")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return asanLocation{}, false
}

func asanRegionAt(s string) (asanLocation, bool) {
	var r asanLocation
	var ok bool
	if r.off, r.rel, s, ok = asanLocated(s); !ok {
		return r, false
	}
	if r.size, s, ok = cutNumber(s); !ok {
		return r, false
	}
	if s, ok = strings.CutPrefix(s, "-byte region ["); !ok {
		return r, false
	}
	if r.begin, s, ok = cutHexAddr(s); !ok {
		return r, false
	}
	if s, ok = strings.CutPrefix(s, ","); !ok {
		return r, false
	}
	s = strings.TrimLeft(s, " \t\n\f\r")
	if r.end, s, ok = cutHexAddr(s); !ok {
		return r, false
	}
	return r, strings.HasPrefix(s, ")")
}

// asanGlobal reads "is located 0 bytes to the right of global variable
// 'g' defined in 'g.c:1:5' (0x...) of size 40" anywhere in t. The name may
// hold quotes: it ends at the last "' defined in '" that the rest follows.
func asanGlobal(t string) (asanLocation, bool) { return asanLocatedIn(t, asanGlobalAt) }

func asanGlobalAt(s string) (asanLocation, bool) {
	var r asanLocation
	var ok bool
	if r.off, r.rel, s, ok = asanLocated(s); !ok {
		return r, false
	}
	if s, ok = strings.CutPrefix(s, "global variable '"); !ok {
		return r, false
	}
	const defined = "' defined in '"
	for end := len(s); ; {
		k := strings.LastIndex(s[:end], defined)
		if k < 0 {
			return r, false
		}
		end = k
		rest := s[k+len(defined):]
		q := strings.IndexByte(rest, '\'')
		if q < 0 {
			continue
		}
		d := rest[:q]
		rest, ok := strings.CutPrefix(rest[q:], "' (")
		if !ok {
			continue
		}
		begin, rest, ok := cutHexAddr(rest)
		if !ok {
			continue
		}
		if rest, ok = strings.CutPrefix(rest, ") of size "); !ok {
			continue
		}
		size, _, ok := cutNumber(rest)
		if !ok {
			continue
		}
		r.name, r.defined, r.begin, r.size = s[:k], d, begin, size
		return r, true
	}
}

// titleLocation types a stack title that says where the accessed memory
// lies, or returns nil.
func titleLocation(title string) *report.Location {
	if i := strings.Index(title, "is located in stack of thread "); i >= 0 {
		// "Address 0x... is located in stack of thread T0 at offset 56 in frame"
		for j := i; j >= 0; {
			if th, off, ok := stackFrameAt(title[j:]); ok {
				l := &report.Location{Kind: report.StackFrame, Text: title, Thread: th, Offset: off}
				if a, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(title), "Address "), " "); ok && strings.HasPrefix(rest, "is located") {
					l.Address, _ = addrOf(a)
				}
				return l
			}
			k := strings.Index(title[j+1:], "is located in stack of thread ")
			if k < 0 {
				break
			}
			j += 1 + k
		}
		return nil
	}
	if i := strings.Index(title, "Location is heap block of size "); i >= 0 {
		// "Location is heap block of size 16 at 0x... allocated by main thread:"
		s := title[i+len("Location is heap block of size "):]
		size, s, ok := cutNumber(s)
		if !ok {
			return nil
		}
		if s, ok = strings.CutPrefix(s, " at "); !ok {
			return nil
		}
		begin, s, ok := cutHexAddr(s)
		if !ok {
			return nil
		}
		if s, ok = strings.CutPrefix(s, " allocated by "); !ok {
			return nil
		}
		// The thread runs to the end, less blanks and one colon (but is
		// never empty: "by  " names the thread " ").
		who := strings.TrimRight(s, " \t\n\f\r")
		switch {
		case who == "" && s != "":
			who = s[:1]
		case len(who) > 1:
			who = strings.TrimSuffix(who, ":")
		}
		if who == "" {
			return nil
		}
		return &report.Location{Kind: report.HeapBlock, Text: title, Size: size, HasSize: true, Begin: begin, Thread: who}
	}
	return nil
}

// stackFrameAt reads "is located in stack of thread T at offset N in frame"
// at the start of s.
func stackFrameAt(s string) (thread string, off uint64, ok bool) {
	s = strings.TrimPrefix(s, "is located in stack of thread ")
	sp := strings.IndexAny(s, " \t\n\f\r")
	if sp <= 0 {
		return "", 0, false
	}
	thread, s = s[:sp], s[sp:]
	if s, ok = strings.CutPrefix(s, " at offset "); !ok {
		return "", 0, false
	}
	if off, s, ok = cutNumber(s); !ok {
		return "", 0, false
	}
	return thread, off, strings.HasPrefix(s, " in frame")
}

// historyThread is the thread of ASan's "freed by thread T1 here:" and
// "(previously )allocated by thread T0 here:" titles.
func historyThread(title string) string {
	t := strings.TrimSpace(title)
	var rest string
	var ok bool
	switch t[:min(len(t), 1)] {
	case "f":
		rest, ok = strings.CutPrefix(t, "freed by thread ")
	case "p":
		rest, ok = strings.CutPrefix(t, "previously allocated by thread ")
	case "a":
		rest, ok = strings.CutPrefix(t, "allocated by thread ")
	}
	if !ok {
		return ""
	}
	rest = strings.TrimSuffix(rest, ":")
	th, ok := strings.CutSuffix(rest, " here")
	if !ok || th == "" {
		return ""
	}
	return th
}

// stackObjectOf types one line of ASan's stack-object list.
func stackObjectOf(t string) (report.StackObject, bool) {
	o := report.StackObject{Text: t}
	m := blamedObjectRE.FindStringSubmatch(t)
	if m != nil {
		o.Access = m[5]
	} else if m = stackObjectRE.FindStringSubmatch(t); m == nil {
		return o, false
	}
	b, err1 := strconv.ParseUint(m[1], 10, 64)
	e, err2 := strconv.ParseUint(m[2], 10, 64)
	if err1 != nil || err2 != nil {
		return o, false
	}
	o.Begin, o.End, o.Name = b, e, m[3]
	if m[4] != "" {
		o.Line, _ = strconv.Atoi(m[4])
	}
	return o, true
}

// faultAddress finds the faulting address of r: the access line's, else
// the headline's ("on address 0x...", "on 0x..."), else the first location
// line's.
func faultAddress(r *report.Report) (uint64, bool) {
	if r.Access != nil {
		if a, ok := addrOf(r.Access.Address); ok {
			return a.Value, true
		}
	}
	if a, ok := headlineAddress(r.Headline); ok {
		return a, true
	}
	for _, l := range r.Location {
		if l.Address.Text != "" {
			return l.Address.Value, true
		}
	}
	return 0, false
}

// headlineAddress finds "on 0x...", "on address 0x..." or "on unknown
// address 0x..." in a headline, "on" starting a word.
func headlineAddress(h string) (uint64, bool) {
	for i := 0; ; {
		j := strings.Index(h[i:], "on ")
		if j < 0 {
			return 0, false
		}
		j += i
		i = j + 1
		if j > 0 && isIdent(h[j-1]) {
			continue
		}
		rest := h[j+3:]
		rest = strings.TrimPrefix(rest, "unknown ")
		rest = strings.TrimPrefix(rest, "address ")
		if !strings.HasPrefix(rest, "0x") {
			continue
		}
		k := 2
		for k < len(rest) && isHex(rest[k]) {
			k++
		}
		if a, ok := addrOf(rest[:k]); ok {
			return a.Value, true
		}
	}
}

// addrOf reads "0x..." (blanks around it allowed, as the access line's
// address may carry them).
func addrOf(s string) (report.Addr, bool) {
	t := strings.TrimSpace(s)
	h := strings.TrimPrefix(strings.TrimPrefix(t, "0x"), "0X")
	if h == "" {
		return report.Addr{}, false
	}
	v, err := strconv.ParseUint(h, 16, 64)
	if err != nil {
		return report.Addr{}, false
	}
	return report.Addr{Text: t, Value: v}, true
}

// summaryOf types a SUMMARY line's text (without "SUMMARY: "): the tool,
// the bug type and the location, which compiler-rt prints as "%L %F":
// "file:line[:col] in function" or "(module+0xoff) in function" when
// symbolized, "(module+0xoff) " when not.
func summaryOf(text string) report.Summary {
	s := report.Summary{Text: text}
	if text == "" {
		return s
	}
	head := text
	if h, mod, off, id, ok := summaryModule(text); ok {
		if v, err := strconv.ParseUint(off, 16, 64); err == nil {
			s.Module, s.Offset, s.HasOffset, s.BuildID = mod, v, true, id
			head = h
		}
	} else {
		head = cutSummaryLocation(text, &s)
	}
	if tool, kind, ok := strings.Cut(head, ": "); ok && tool != "" && !strings.Contains(tool, " ") {
		s.Tool, s.Kind = tool, kind
	} else {
		s.Kind = head
	}
	return s
}

// summaryModule splits the location an unsymbolized SUMMARY line ends
// with: "HEAD (module+0xOFF)", then " (BuildId: ID)" on clang runtimes,
// then the blank that the empty function name leaves. The module holds no
// parenthesis; OFF and ID are hex. (Every report has one SUMMARY line, so
// this is written out rather than a regexp, which cost as much as the rest
// of the report's typing.)
func summaryModule(text string) (head, module, off, id string, ok bool) {
	t := strings.TrimSuffix(text, " ")
	if b, ok := strings.CutSuffix(t, ")"); ok {
		if j := strings.LastIndex(b, " (BuildId: "); j >= 0 && allHex(b[j+len(" (BuildId: "):]) && len(b) > j+len(" (BuildId: ") {
			id, t = b[j+len(" (BuildId: "):], b[:j]
		}
	}
	body, ok := strings.CutSuffix(t, ")")
	if !ok {
		return "", "", "", "", false
	}
	open := strings.LastIndexByte(body, '(')
	if open < 0 {
		return "", "", "", "", false
	}
	inner := body[open+1:]
	k := strings.LastIndex(inner, "+0x")
	if k <= 0 || strings.IndexByte(inner, ')') >= 0 || !allHex(inner[k+3:]) || k+3 == len(inner) {
		return "", "", "", "", false
	}
	return strings.TrimSuffix(body[:open], " "), inner[:k], inner[k+3:], id, true
}

// cutSummaryLocation finds a symbolized location in a SUMMARY text: the
// first word that is "file:line[:col]" or "(module+0xoff)" followed by
// " in function" (or nothing). It fills s and returns the text before it.
func cutSummaryLocation(text string, s *report.Summary) string {
	start := strings.Index(text, ": ") + 2 // 1 when there is no tool: from the start
	if start < 2 {
		start = 0
	}
	for i := start; i < len(text); i++ {
		if i > 0 && text[i-1] != ' ' || text[i] == ' ' {
			continue
		}
		word := text[i:]
		var rest string
		if word[0] == '(' {
			// A module's path is no longer than PATH_MAX: looking no
			// further keeps a line of many "(" linear.
			end := strings.IndexByte(word[:min(len(word), summaryModuleMax)], ')')
			if end < 0 {
				continue
			}
			mod, off, ok := strings.Cut(word[1:end], "+0x")
			if !ok || mod == "" || strings.ContainsAny(mod, "()") {
				continue
			}
			v, err := strconv.ParseUint(off, 16, 64)
			if err != nil {
				continue
			}
			rest = word[end+1:]
			var id string
			if r, ok := strings.CutPrefix(rest, " (BuildId: "); ok {
				if j := strings.IndexByte(r, ')'); j > 0 {
					id, rest = r[:j], r[j+1:]
				}
			}
			fn, ok := summaryFunction(rest)
			if !ok {
				continue
			}
			s.Module, s.Offset, s.HasOffset, s.BuildID, s.Function = mod, v, true, id, fn
		} else {
			w, _, _ := strings.Cut(word, " ")
			file, line, col := parseLoc(w)
			if line == 0 || file == "" {
				continue
			}
			// What follows the location, its blank included (a slice:
			// a copy per location word made a long line quadratic).
			fn, ok := summaryFunction(word[len(w):])
			if !ok {
				continue
			}
			s.File, s.Line, s.Column, s.Function = file, line, col, fn
		}
		return strings.TrimSuffix(text[:i], " ")
	}
	return text
}

// summaryModuleMax bounds the "(module+0xoff)" a SUMMARY location is
// looked for in: PATH_MAX and the offset.
const summaryModuleMax = 4096 + 32

// summaryFunction reads what follows a SUMMARY location: " in function",
// " in " (an unknown function), or nothing.
func summaryFunction(rest string) (string, bool) {
	switch {
	case rest == "" || rest == " " || rest == " in":
		return "", true
	case strings.HasPrefix(rest, " in "):
		return rest[len(" in "):], true
	}
	return "", false
}
