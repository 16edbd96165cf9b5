package parse

import (
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/markup"
	"github.com/sanitrace/sanitrace/report"
)

// Symbolizer markup in sanitizer reports. LLVM 18+ runtimes run with
// enable_symbolizer_markup=1 print a report's frames as {{{bt:N:0xPC}}}
// elements, after the contextual elements that describe the address space
// ({{{reset}}}, then a {{{module}}} with its {{{mmap}}} segments per
// loaded module), and name the SUMMARY's location with one too. Such a
// report is read into the same model as its classic twin: each bt is a
// frame with its pc, the module the segments map it to, the module's
// build-id and the offset in it, which the resolver symbolizes as it does
// a classic "(module+0xoff) (BuildId: ...)" frame.
//
// The context (package markup's Context) belongs to the Scanner, not to a
// report: a runtime prints the module table once per process, before the
// first stack it prints, and the later reports of the process refer to
// it. {{{reset}}} starts a new process's table, so several processes
// printed one after the other keep theirs. Bad markup costs one Damage
// (a warning on the decoder's stderr) naming the line; the line's other
// elements, and the log's other lines, are still read.

// markupReader is the Scanner's reading of markup: the parser's reused
// buffers and the address space declared since the last reset.
type markupReader struct {
	p   markup.Parser
	ctx markup.Context
	// The segments of modules no module element declared, warned about
	// once per module: a bt in them is not warned about again.
	undeclared map[uint64]bool
	dropped    []markup.MMap
}

// reset forgets the context ({{{reset}}}).
func (m *markupReader) reset() {
	m.ctx.Reset()
	m.undeclared, m.dropped = nil, nil
}

// inDropped reports whether a lies in a segment dropped for its module.
func (m *markupReader) inDropped(a uint64) bool {
	for i := range m.dropped {
		if m.dropped[i].Contains(a) {
			return true
		}
	}
	return false
}

// MarkupError is a Damage's description of bad markup.
type MarkupError struct {
	Col     int    // 1-based byte of the line (its report prefix removed) the problem is at
	Msg     string // what is wrong, in llvm-symbolizer's words where it has some
	Element string // the element or text it is about, abbreviated
}

// hasMarkup reports whether t, a trimmed line, may hold markup elements.
func hasMarkup(t string) bool { return strings.Contains(t, "{{{") }

// markupWarn reports a problem of the markup on line no.
func (s *Scanner) markupWarn(e *markup.Error, text string, no int) {
	if s.onDamage == nil || e == nil {
		return
	}
	el := text
	if e.Col >= 0 && e.Col < len(text) {
		el = text[e.Col:]
	}
	if i := strings.Index(el, "}}}"); i >= 0 {
		el = el[:i+3]
	}
	if j := strings.LastIndex(text[:min(max(e.Col, 0), len(text))], "{{{"); j >= 0 && !strings.HasPrefix(el, "{{{") {
		// A field's problem: show its whole element.
		if k := strings.Index(text[j:], "}}}"); k >= 0 {
			el = text[j : j+k+3]
		}
	}
	if len(el) > 80 {
		cut := 80
		for cut > 0 && !utf8.RuneStart(el[cut]) {
			cut--
		}
		el = el[:cut] + "…"
	}
	if e.Code == markup.ErrTruncated || e.Code == markup.ErrUnknownElement || e.Code == markup.ErrEmptyTag {
		el = "" // the message quotes it
	}
	s.onDamage(&Damage{Input: s.name, First: no, Last: no, Markup: &MarkupError{Col: e.Col + 1, Msg: e.Msg, Element: el}})
}

// idleMarkup takes in the contextual elements of a line outside reports
// (a runtime's module table printed before the report that uses it).
func (s *Scanner) idleMarkup(line []byte, no int) {
	t := strings.TrimSpace(string(line[splitKnownPrefix(line):]))
	if !strings.HasPrefix(t, "{{{") {
		return
	}
	if el, ok := soleElement(s.mk.p.Parse(t)); ok && markup.KindOf(el.Tag).Contextual() {
		s.markupContext(el, t, no)
	}
}

// soleElement returns the one element of a line that holds nothing else
// but blanks.
func soleElement(nodes []markup.Node) (*markup.Node, bool) {
	var el *markup.Node
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Kind == markup.Elem && el == nil:
			el = n
		case n.Kind == markup.Text && strings.TrimSpace(n.Text) == "":
		default:
			return nil, false
		}
	}
	return el, el != nil
}

// markupContext applies a contextual element (reset, module, mmap).
func (s *Scanner) markupContext(n *markup.Node, t string, no int) {
	e, err := markup.Decode(n, no)
	if err != nil {
		s.markupWarn(asMarkupError(err), t, no)
		return
	}
	var cerr error
	switch e.Kind {
	case markup.KindReset:
		s.mk.reset()
	case markup.KindModule:
		_, cerr = s.mk.ctx.Declare(&e)
	case markup.KindMMap:
		_, cerr = s.mk.ctx.Map(&e)
		var me *markup.Error
		if errors.As(cerr, &me) && me.Code == markup.ErrUndeclaredModule {
			if len(s.mk.dropped) < maxDropped {
				s.mk.dropped = append(s.mk.dropped, markup.MMap{Addr: e.Addr, Size: e.Size})
			}
			if s.mk.undeclared[e.ModuleID] {
				return
			}
			if s.mk.undeclared == nil {
				s.mk.undeclared = map[uint64]bool{}
			}
			s.mk.undeclared[e.ModuleID] = true
			cerr = &markup.Error{Code: me.Code, Line: me.Line, Col: me.Col,
				Msg: fmt.Sprintf("unknown module ID %#x: no {{{module}}} declared it, so its segments are ignored", e.ModuleID)}
		}
	}
	if cerr != nil {
		s.markupWarn(asMarkupError(cerr), t, no)
	}
}

func asMarkupError(err error) *markup.Error {
	if e, ok := err.(*markup.Error); ok {
		return e
	}
	return &markup.Error{Msg: err.Error()}
}

// maxDropped bounds the segments kept for inDropped.
const maxDropped = 64

// markupInReport reads a line of a sanitizer report that holds markup (t:
// the line trimmed, str: as the report keeps it). A contextual element
// alone on its line updates the context; a bt element alone on its line
// is a frame; both are the report's own lines, which no model field holds
// as text. In any other line the bt and pc elements are replaced by the
// location the classic runtime prints there, "(module+0xoff) (BuildId:
// ID)", and the line is read on as a classic one: a SUMMARY names its
// location, which resolve completes from the frames. It returns whether
// the line is taken, else the line to read on.
func (s *Scanner) markupInReport(b *builder, str, t string, no int) (taken bool, rest string) {
	nodes := s.mk.p.Parse(t)
	for _, e := range markup.Lint(nodes, no) {
		s.markupWarn(e, t, no)
	}
	if n, ok := soleElement(nodes); ok {
		switch k := markup.KindOf(n.Tag); {
		case k.Contextual():
			s.markupContext(n, t, no)
			b.confirm(str, no)
			return true, ""
		case k == markup.KindBT:
			if f, ok := s.markupFrame(b.rep, n, str, no); ok {
				b.rep.Markup = true
				b.confirm(str, no)
				b.addFrame(f)
				return true, ""
			}
			// An unreadable frame stays a line of the report (a
			// passthrough shows it after the rendering).
			b.confirm(str, no)
			b.keepUnshownLine(str, no)
			return true, ""
		case k == markup.KindUnknown || !markup.ValidTag(n.Tag):
			// Linted already: the report's line as it is.
			b.confirm(str, no)
			b.keepUnshownLine(str, no)
			return true, ""
		}
	}
	return false, s.markupInline(b.rep, nodes, str, t, no)
}

// markupFrame decodes a bt element into a frame.
func (s *Scanner) markupFrame(r *report.Report, n *markup.Node, line string, no int) (report.Frame, bool) {
	e, err := markup.Decode(n, no)
	if err != nil {
		s.markupWarn(asMarkupError(err), strings.TrimSpace(line), no)
		return report.Frame{}, false
	}
	f := report.Frame{Index: int(min(e.Frame, 1<<31-1)), Symbolized: report.SymbolizedNone, Raw: line}
	f.PC, f.HasPC = modelPC(r, &e), true
	if f.PC == 0 {
		return f, true // the runtime's "no pc"
	}
	m, ok := s.mk.ctx.Lookup(f.PC)
	if !ok {
		if !s.mk.inDropped(f.PC) {
			s.markupWarn(&markup.Error{Col: n.FieldPos(1), Msg: "no mmap covers address"}, strings.TrimSpace(line), no)
		}
		return f, true
	}
	f.Module, f.Offset, f.HasOffset = m.Module.Name, m.Offset(f.PC), true
	f.BuildID = hex.EncodeToString(m.Module.BuildID)
	if r.Tool == report.ToolTSan {
		// TSan's classic frames print no pc: "#0 f file:1:2 (mod+0xoff)".
		f.PC, f.HasPC = 0, false
	}
	return f, true
}

// modelPC is the pc a bt or pc element stands for as the classic report
// prints it. The runtimes print the pc they would have symbolized, the
// call's (a return address less one), as classic frames do; TSan prints
// the return address itself and symbolizes one byte before it. A ":ra"
// suffix marks a return address, ":pc" an exact one.
func modelPC(r *report.Report, e *markup.Element) uint64 {
	switch {
	case e.Addr == 0:
		return 0
	case e.PCType == markup.PCReturn, e.PCType == markup.PCDefault && r.Tool == report.ToolTSan:
		return e.Addr - 1
	}
	return e.Addr
}

// markupInline replaces the bt and pc elements of a line that holds more
// than one element with the classic text for them.
func (s *Scanner) markupInline(r *report.Report, nodes []markup.Node, str, t string, no int) string {
	var sb strings.Builder
	lead := str[:strings.Index(str, t)]
	sb.WriteString(lead)
	changed := false
	for i := range nodes {
		n := &nodes[i]
		k := markup.KindOf(n.Tag)
		if n.Kind != markup.Elem || (k != markup.KindBT && k != markup.KindPC) {
			sb.WriteString(n.Text)
			continue
		}
		e, err := markup.Decode(n, no)
		if err != nil {
			s.markupWarn(asMarkupError(err), t, no)
			sb.WriteString(n.Text)
			continue
		}
		changed = true
		pc := modelPC(r, &e)
		if pc == 0 {
			// UBSan's SUMMARY names "no pc": its classic SUMMARY names the
			// headline's source location, with the blank of an empty
			// function name after it.
			if where, ok := ubsanWhere(r); ok {
				sb.WriteString(where + " ")
			}
			continue
		}
		m, ok := s.mk.ctx.Lookup(pc)
		if !ok {
			if !s.mk.inDropped(pc) {
				s.markupWarn(&markup.Error{Col: n.FieldPos(1 - boolInt(k == markup.KindPC)), Msg: "no mmap covers address"}, t, no)
			}
			fmt.Fprintf(&sb, "0x%x", pc)
			continue
		}
		fmt.Fprintf(&sb, "(%s+0x%x)", m.Module.Name, m.Offset(pc))
		if len(m.Module.BuildID) > 0 {
			fmt.Fprintf(&sb, " (BuildId: %x)", m.Module.BuildID)
		}
	}
	if !changed {
		return str
	}
	return sb.String()
}

// ubsanWhere is the source location of a UBSan report's headline
// ("file.c:9:11" of "file.c:9:11: runtime error: ...").
func ubsanWhere(r *report.Report) (string, bool) {
	if r.Tool != report.ToolUBSan {
		return "", false
	}
	where, _, ok := strings.Cut(r.Headline, ": runtime error: ")
	return where, ok && where != ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// markupFinish completes what a markup report's runtime could not name
// without a symbolizer and the context can: TSan's global location,
// printed "Location is global '<null>' at 0xADDR (<null>+0x0)", is read as
// the classic runtime prints it unsymbolized, "Location is global '<null>'
// at 0x000000000000 (tsan+0x1490698)" (the module's base name and the
// address's offset in it), which resolve completes with the global's name.
func (s *Scanner) markupFinish(r *report.Report) {
	if !r.Markup || r.Tool != report.ToolTSan {
		return
	}
	const head, null = "Location is global '<null>' at ", " (<null>+0x0)"
	for i := range r.Location {
		l := &r.Location[i]
		rest, ok := strings.CutPrefix(l.Text, head)
		if !ok || l.Kind != report.LocationOther {
			continue
		}
		at, tail, ok := strings.Cut(rest, null)
		a, okAddr := addrOf(at)
		if !ok || !okAddr || a.Value == 0 {
			continue
		}
		m, ok := s.mk.ctx.Lookup(a.Value)
		if !ok {
			continue
		}
		t := fmt.Sprintf("%s0x000000000000 (%s+0x%x)%s", head, path.Base(m.Module.Name), m.Offset(a.Value), tail)
		if nl := locationOf(t); nl.Kind == report.Global {
			*l = nl
		}
	}
}
