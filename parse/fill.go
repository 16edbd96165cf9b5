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
	seen := map[string]bool{}
	for _, l := range r.Raw {
		t := strings.TrimSpace(l)
		if t == "" || seen[t] {
			continue
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
	// ASan heap: "0x... is located 4 bytes inside of 400-byte region [0x...,0x...)"
	heapRegionRE = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) (\d+)-byte region \[(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\)`)
	// ASan global: "... is located 0 bytes to the right of global variable 'g' defined in 'g.c:1:5' (0x...) of size 40"
	globalVarRE = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) global variable '(.*)' defined in '([^']*)' \((0x[0-9a-fA-F]+)\) of size (\d+)`)
	// TSan: "Location is global 'x' of size 8 at 0x... (mod+0x...)"
	tsanGlobalRE = regexp.MustCompile(`^Location is global '(.*)' of size (\d+) at (0x[0-9a-fA-F]+)(?: \(([^()]+)\+0x([0-9a-fA-F]+)\))?(.*)$`)
	// TSan, unsymbolized: it asks the symbolizer for the global's name and
	// start (a DATA query), and without one prints '<null>' and address 0.
	tsanNullGlobalRE = regexp.MustCompile(`^Location is global '<null>' at (0x0+) \(([^()]+)\+0x([0-9a-fA-F]+)\)(.*)$`)
	// ASan stack: "Address 0x... is located in stack of thread T0 at offset 56 in frame"
	stackFrameRE = regexp.MustCompile(`is located in stack of thread (\S+) at offset (\d+) in frame`)
	// TSan: "Location is heap block of size 16 at 0x... allocated by main thread:"
	tsanHeapRE = regexp.MustCompile(`Location is heap block of size (\d+) at (0x[0-9a-fA-F]+) allocated by (.+?):?\s*$`)

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
	if m := heapRegionRE.FindStringSubmatch(t); m != nil {
		off, err1 := strconv.ParseUint(m[1], 10, 64)
		size, err2 := strconv.ParseUint(m[3], 10, 64)
		begin, ok1 := addrOf(m[4])
		end, ok2 := addrOf(m[5])
		if err1 == nil && err2 == nil && ok1 && ok2 {
			l.Kind, l.Offset, l.Relation, l.Size, l.HasSize, l.Begin, l.End = report.HeapRegion, off, m[2], size, true, begin, end
		}
	} else if m := globalVarRE.FindStringSubmatch(t); m != nil {
		off, err1 := strconv.ParseUint(m[1], 10, 64)
		size, err2 := strconv.ParseUint(m[6], 10, 64)
		begin, ok := addrOf(m[5])
		if err1 == nil && err2 == nil && ok {
			l.Kind, l.Offset, l.Relation, l.Name, l.DefinedAt, l.Begin, l.Size, l.HasSize =
				report.GlobalVariable, off, m[2], m[3], m[4], begin, size, true
		}
	}
	return l
}

// titleLocation types a stack title that says where the accessed memory
// lies, or returns nil.
func titleLocation(title string) *report.Location {
	switch {
	case strings.Contains(title, "is located in stack of thread "):
		m := stackFrameRE.FindStringSubmatch(title)
		if m == nil {
			return nil
		}
		off, err := strconv.ParseUint(m[2], 10, 64)
		if err != nil {
			return nil
		}
		l := &report.Location{Kind: report.StackFrame, Text: title, Thread: m[1], Offset: off}
		if a, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(title), "Address "), " "); ok && strings.HasPrefix(rest, "is located") {
			l.Address, _ = addrOf(a)
		}
		return l
	case strings.Contains(title, "Location is heap block of size "):
		m := tsanHeapRE.FindStringSubmatch(title)
		if m == nil {
			return nil
		}
		size, err := strconv.ParseUint(m[1], 10, 64)
		begin, ok := addrOf(m[2])
		if err != nil || !ok {
			return nil
		}
		return &report.Location{Kind: report.HeapBlock, Text: title, Size: size, HasSize: true, Begin: begin, Thread: m[3]}
	}
	return nil
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

// summaryModuleRE is the location an unsymbolized SUMMARY line ends with:
// "(module+0xoff)", then " (BuildId: hex)" on clang runtimes, then the
// space that the empty function name leaves.
var summaryModuleRE = regexp.MustCompile(`^(.*?) ?\(([^()]+)\+0x([0-9a-fA-F]+)\)( \(BuildId: ([0-9a-fA-F]+)\))? ?$`)

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
	if m := summaryModuleRE.FindStringSubmatch(text); m != nil {
		if off, err := strconv.ParseUint(m[3], 16, 64); err == nil {
			s.Module, s.Offset, s.HasOffset, s.BuildID = m[2], off, true, m[5]
			head = m[1]
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
			end := strings.IndexByte(word, ')')
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
			w, after, _ := strings.Cut(word, " ")
			file, line, col := parseLoc(w)
			if line == 0 || file == "" {
				continue
			}
			if len(after) < len(word) {
				after = " " + after
			}
			fn, ok := summaryFunction(after)
			if !ok {
				continue
			}
			s.File, s.Line, s.Column, s.Function = file, line, col, fn
		}
		return strings.TrimSuffix(text[:i], " ")
	}
	return text
}

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
