package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/internal/editdist"
	"github.com/sanitrace/sanitrace/report"
)

// Damaged report headers. A torn write, a NUL from a crashed writer or a
// flipped byte in a header word ("ER\x00OR:", "Address\xffSanitizer",
// "runtime e\xe5ror") hides a report from the detectors, and its stacks
// would be dropped as noise without a word. Sanitizer frame lines
// ("    #3 0x... in f file.c:4") outside any report are what gives such a
// report away: at the first one, the few lines before it that carry damage
// (a NUL the line was read without, or bytes that are not UTF-8) are read
// again with each header word allowed up to two damaged bytes; a line that
// then reads as a sanitizer headline starts the report, and the lines after
// it are read again inside it. Where no such line is found, the run of
// frames is named on the Damage callback instead of silently lost.

// recentMax is how many lines outside reports are kept for that look back:
// a UBSan headline stands four lines before its first frame (the pointer
// note and its hex dump), an ASan one two.
const recentMax = 12

// A repair tries every header word at every place of the line, so it is
// bounded: lines longer than any headline are not tried, and an input gets
// repairsMax tries (a log of garbage does not pay them on every frame).
const (
	repairLineMax = 512
	repairsMax    = 256
)

// orphanGapMax is how many other lines may stand between two frames of one
// lost run (a blank, a location line, "freed by thread T0 here:").
const orphanGapMax = pendingMax

// Damage is a stretch of input that could not be read as it stands: a
// damaged report header read as the word it was taken for (Repaired set),
// or stack frames outside any report that no report took (a Scanner
// without OnFragment names its unattached fragments so).
type Damage struct {
	Input       string // the input's name ("-" for stdin)
	First, Last int    // 1-based lines
	Frames      int    // frame lines in First..Last (lost runs)
	Repaired    string // the header word the damaged line was read with
	// Markup is bad symbolizer markup on line First (markup.go).
	Markup *MarkupError
}

func (d *Damage) Error() string {
	name := d.Input
	if name == "-" {
		name = "<stdin>"
	}
	if m := d.Markup; m != nil {
		if m.Element == "" {
			return fmt.Sprintf("%s:%d:%d: bad symbolizer markup: %s (the rest is still decoded)", name, d.First, m.Col, m.Msg)
		}
		return fmt.Sprintf("%s:%d:%d: bad symbolizer markup: %s: %s (the rest is still decoded)", name, d.First, m.Col, m.Msg, m.Element)
	}
	if d.Repaired != "" {
		return fmt.Sprintf("%s:%d: damaged report header (NUL or invalid UTF-8) read as %q from the stack frames after it", name, d.First, d.Repaired)
	}
	return fmt.Sprintf("%s:%d-%d: %d stack frame lines outside any report, an unattached fragment left as read (no report header before them; a damaged one?)", name, d.First, d.Last, d.Frames)
}

// OnDamage sets the function that is told about every damaged header read
// and every run of frames lost, as the input is read.
func (s *Scanner) OnDamage(fn func(*Damage)) { s.onDamage = fn }

// recentLines is a ring of the last lines outside reports, blank ones as
// empty lines. Only non-blank lines write into a slot's bytes, so the
// Scanner's lastIdle (the last non-blank one) can be the slot itself: it
// stays intact until the next non-blank line replaces it.
type recentLines struct {
	text    [recentMax][]byte
	no      [recentMax]int
	damaged [recentMax]bool
	n       int // lines added in all
}

// at is line no when the ring still holds it, else nil.
func (r *recentLines) at(no int) []byte {
	for k := 1; k <= recentMax && k <= r.n; k++ {
		if i := (r.n - k) % recentMax; r.no[i] == no {
			return r.text[i]
		}
	}
	return nil
}

func (r *recentLines) add(line []byte, no int, damaged bool) []byte {
	i := r.n % recentMax
	r.text[i] = append(r.text[i][:0], line...)
	r.no[i], r.damaged[i] = no, damaged
	r.n++
	return r.text[i]
}

// orphanRun is a run of frame lines outside reports. It keeps its first
// orphanKeep frames and lines: a report whose first lines a paste cut off
// (libFuzzer's stack before its SUMMARY) takes them back (joinOrphans).
type orphanRun struct {
	first, last, frames int
	stack               []report.Frame
	lines               []qline
	// The stacks of the run as a fragment (fragment.go): where each
	// starts in stack and its title; the title read since the last frame;
	// the SUMMARY line after the frames and its number.
	starts    []int
	titles    []string
	title     string
	summary   string
	summaryNo int
	leadNo    int // the line of the first stack's title, 0 when none
}

// orphanKeep bounds what a run of lost frames keeps for a report that
// may take it back: more than any runtime's frame limit.
const orphanKeep = 512

// orphanFrame takes a sanitizer frame line outside any report: it starts
// the report of a damaged header before it, or joins a lost run. It
// reports false for any other line.
func (s *Scanner) orphanFrame(line []byte, no int) bool {
	f, back, ok := orphanFrameOf(line, s.prevIdle(no))
	if !ok {
		return false
	}
	if o := &s.orphans; o.frames > 0 && no-o.last > orphanGapMax {
		s.endOrphans()
	}
	if o := &s.orphans; o.frames > 0 {
		o.last = no
		o.frames++
		o.keep(f, line, no)
		return true
	}
	if s.repairBefore(line, no) {
		return true
	}
	s.orphans = orphanRun{first: no - back, last: no, frames: 1}
	if t, at := s.leadTitle(no - back); t != "" {
		s.orphans.title, s.orphans.leadNo = t, at
	}
	s.orphans.keep(f, line, no)
	return true
}

func (o *orphanRun) keep(f report.Frame, line []byte, no int) {
	if len(o.stack) < orphanKeep {
		if o.startsStack(f) {
			o.starts = append(o.starts, len(o.stack))
			o.titles = append(o.titles, o.title)
			o.title = ""
		}
		o.stack = append(o.stack, f)
		o.lines = append(o.lines, qline{text: string(line), no: no})
	}
}

// orphanFrameOf reads a frame line outside reports: a sanitizer's after a
// known prefix, or one a format reads as a lost frame of its own
// (format.lost: a tombstone's, the kernel's).
// prev is the line right before it outside reports, nil when none; back
// is 1 when the frame began on prev.
func orphanFrameOf(line, prev []byte) (f report.Frame, back int, ok bool) {
	t := bytes.TrimLeft(line[splitKnownPrefix(line):], " \t")
	if len(t) >= 3 && t[0] == '#' {
		if f, ok := ParseFrame(string(t)); ok && printedFrame(f) {
			return f, 0, true
		}
	}
	for _, fm := range formats {
		if fm.lost == nil {
			continue
		}
		if f, back, ok := fm.lost(line, prev); ok {
			return f, back, true
		}
	}
	return report.Frame{}, 0, false
}

// prevIdle is the line right before line no when it was read outside
// reports, else nil: the first line of a lost frame of two (Go's).
func (s *Scanner) prevIdle(no int) []byte {
	if s.lastIdleNo != no-1 || s.lastIdleNo <= s.lastReportEnd || s.lastIdleNo <= s.reportLine {
		return nil
	}
	return s.lastIdle
}

// continuesOrphans reports whether line is the next frame of the run of
// lost frames ("#10" after "#9"): it joins the run before any starter
// sees it (gdb's would take "#10 0x... in f (...)" for a bt of its own).
func (s *Scanner) continuesOrphans(line []byte, no int) bool {
	o := &s.orphans
	if o.frames == 0 || no-o.last > orphanGapMax || len(o.stack) == 0 {
		return false
	}
	f, _, ok := orphanFrameOf(line, nil)
	if !ok {
		f, ok = openOrphanFrame(line)
	}
	if !ok || f.Index != o.stack[len(o.stack)-1].Index+1 {
		return false
	}
	o.last = no
	o.frames++
	o.keep(f, line, no)
	return true
}

// joinOrphans starts, at libFuzzer's "SUMMARY: libFuzzer: deadly signal"
// outside any report, the report whose headline a paste cut off, when a
// run of lost frames stands right before it: the run is its stack (one
// report, not a lost run and a summary). It reports false otherwise.
func (s *Scanner) joinOrphans(line []byte, no int) bool {
	o := &s.orphans
	if o.frames == 0 || o.frames != len(o.stack) || no-o.last > orphanGapMax || o.stack[0].Index != 0 {
		return false
	}
	// (Not splitKnownPrefix: "SUMMARY: " reads as a "name: " prefix.)
	p := bytes.Index(line, []byte("SUMMARY: libFuzzer: "))
	if p < 0 {
		return false
	}
	kind := string(bytes.TrimSpace(line[p+len("SUMMARY: libFuzzer: "):]))
	if kind == "" {
		return false
	}
	r := &report.Report{Tool: report.ToolLibFuzzer, Kind: kind, Message: kind}
	r.Stacks = []report.Stack{{Role: "access", RoleDetail: "error", Frames: o.stack}}
	markInlined(r.Stacks[0].Frames)
	b := &builder{kind: kindSanitizer, pfx: newPrefix(string(line[:p])), rep: r, stack: -1, keepUnshown: s.keep}
	r.Input = report.InputRange{Name: s.name, FirstLine: o.first, LastLine: no}
	for _, l := range o.lines {
		body, _ := b.pfx.strip([]byte(l.text))
		r.Raw = append(r.Raw, string(body))
	}
	b.lastLine = o.last
	// The lines between the frames and the summary ("NOTE: libFuzzer has
	// rudimentary signal handlers.") are kept in place.
	own := make(map[int]bool, len(o.lines))
	for _, l := range o.lines {
		own[l.no] = true
	}
	for n := o.first; n < no; n++ {
		if !own[n] {
			s.noteForeign(n)
		}
	}
	s.orphans = orphanRun{}
	s.endDump()
	s.open(b)
	s.reportLine = no
	s.inReport(line, no)
	return true
}

// endOrphans names the lost run, if any, once a report starts, too many
// other lines followed it, or the input ended.
func (s *Scanner) endOrphans() {
	o := s.orphans
	if o.frames == 0 {
		return
	}
	s.orphans = orphanRun{}
	s.endFragment(&o)
}

// repairBefore looks for a damaged sanitizer headline among the recent
// lines before the frame line (none of them inside an earlier report) and,
// when one reads as a headline, starts its report there.
func (s *Scanner) repairBefore(line []byte, no int) bool {
	r := &s.recent
	for k := 1; k <= recentMax && k <= r.n; k++ {
		i := (r.n - k) % recentMax
		if r.no[i] <= s.reportLine || no-r.no[i] > recentMax {
			break
		}
		if len(r.text[i]) == 0 || len(r.text[i]) > repairLineMax || !r.damaged[i] && utf8.Valid(r.text[i]) {
			continue
		}
		if s.repairs >= repairsMax {
			return false
		}
		s.repairs++
		fixed, word := repairHeader(r.text[i])
		if fixed == nil {
			continue
		}
		b := sanitizerStart(fixed)
		if b == nil {
			continue
		}
		if s.onDamage != nil {
			s.onDamage(&Damage{Input: s.name, First: r.no[i], Last: r.no[i], Repaired: word})
		}
		s.endDump()
		s.open(s.begin(b, fixed, r.no[i]))
		// The lines after the headline, then the frame, are read again
		// inside the report, before anything already queued.
		var again []qline
		for j := k - 1; j >= 1; j-- {
			m := (r.n - j) % recentMax
			again = append(again, qline{text: string(r.text[m]), no: r.no[m]})
		}
		again = append(again, qline{text: string(line), no: no})
		s.redo = append(again, s.redo...)
		return true
	}
	return false
}

// headerWords are the words of sanitizer headlines a damaged line is read
// again with, longest first so that a tool's name wins over its "Sanitizer".
var headerWords = []string{
	"UndefinedBehaviorSanitizer", "HWAddressSanitizer", "AddressSanitizer", "MemorySanitizer",
	"ThreadSanitizer", "LeakSanitizer", "runtime error", "libFuzzer", "WARNING", "ERROR",
}

// repairHeader returns line with one damaged header word (at most two bytes
// changed, added or missing) replaced by the word, when the result reads
// as a sanitizer headline; nil when no word fits. The fewest edits win
// ("==1=ER\xffOR" is "==1==ERROR" with one, not "==1=ERROR" with two).
func repairHeader(line []byte) (fixed []byte, word string) {
	best := 3
	for _, w := range headerWords {
		for p := 0; p < len(line); p++ {
			for l := len(w) - 2; l <= len(w)+2; l++ {
				if p+l > len(line) || l <= 0 {
					continue
				}
				seg := line[p : p+l]
				d := distance2(seg, w)
				if d == 0 || d >= best {
					continue
				}
				cand := make([]byte, 0, len(line)-l+len(w))
				cand = append(append(append(cand, line[:p]...), w...), line[p+l:]...)
				if sanitizerStart(cand) != nil {
					fixed, word, best = cand, w, d
				}
			}
		}
	}
	return fixed, word
}

// distance2 is the Levenshtein distance of a and w in bytes when it is at
// most two, else 3.
func distance2(a []byte, w string) int {
	if len(a) == 0 || len(w) >= 40 {
		return 3
	}
	return editdist.Levenshtein(a, w, 2)
}

// knownTools are the sanitizer runtimes' names as their headlines print
// them; a tool word one damaged byte away from one of them is read as it.
var knownTools = []string{
	"AddressSanitizer", "LeakSanitizer", "ThreadSanitizer", "MemorySanitizer",
	"UndefinedBehaviorSanitizer", "HWAddressSanitizer", "DataFlowSanitizer",
	"TypeSanitizer", "RealtimeSanitizer", "NumericalStabilitySanitizer",
}

// canonicalTool returns the known tool a headline's tool word names: the
// word itself, or the known name it is one edit from (two when the word
// holds bytes that are no letters: a NUL stripped, invalid UTF-8).
func canonicalTool(tool string) string {
	limit := 1
	for i := 0; i < len(tool); i++ {
		if c := tool[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			limit = 2
			break
		}
	}
	for _, k := range knownTools {
		if tool == k {
			return tool
		}
	}
	for _, k := range knownTools {
		if d := editdist.Levenshtein(tool, k, -1); d <= limit {
			return k
		}
	}
	return tool
}

// openOrphanFrame reads a sanitizer frame line that a wrapper broke before
// its function ("#12 0x55d8bb80eea5 in"): not a frame yet, but the next
// of a run of lost frames (continuesOrphans), kept unparsed until its
// rest joins it (joinRest).
func openOrphanFrame(line []byte) (report.Frame, bool) {
	t := bytes.TrimSpace(line[splitKnownPrefix(line):])
	if !numbered(string(t)) {
		return report.Frame{}, false
	}
	n, rest, _ := bytes.Cut(t[1:], []byte(" "))
	if !bytes.HasPrefix(rest, []byte("0x")) {
		return report.Frame{}, false
	}
	i, _ := strconv.Atoi(string(n))
	return report.Frame{Index: i, Raw: string(t), Symbolized: report.SymbolizedNone, Unparsed: true}, true
}

// joinRest joins line to the run's last frame line when a wrapper broke
// that line before it (the end of its argument list, its
// "(module+0x...)", its "(BuildId: ...)"), as joinWrapped does for a
// report's lines: a piece of a lost frame is no line of its own (the
// "#10 0x... in f(unsigned" of a wrapped libFuzzer stack is no gdb frame,
// its rest no program output). It reports false for any other line.
func (o *orphanRun) joinRest(line []byte, no int) bool {
	k := len(o.lines) - 1
	if k < 0 || o.last != no-1 || len(o.stack) != len(o.lines) {
		return false
	}
	h := &o.lines[k]
	q := pasteLen(h.text, line)
	n := bytes.TrimSpace(line[splitKnownPrefix(line):])
	last := wrapLast(len(h.text), h.seg, q)
	if len(n) == 0 || len(h.text)+1+len(n) > wrapJoinMax {
		return false
	}
	l := strings.TrimSpace(h.text[splitKnownPrefix([]byte(h.text)):])
	if !strings.HasPrefix(l, "#") {
		return false // only numbered frames (a sanitizer's, a tombstone's) are joined
	}
	b := &builder{kind: kindSanitizer, stack: -1}
	if !mayWrapLen(last, n) && !b.moduleRest([]byte(l), n) {
		return false
	}
	rest := string(n)
	if b.standsAlone(rest) || !wrapExtends(b, l, l+" "+rest, true) {
		return false
	}
	joined := h.text + " " + rest
	f, _, ok := orphanFrameOf([]byte(joined), nil)
	if !ok {
		// still open ("#12 0x... in f(a," before the rest of its list)
		if f, ok = openOrphanFrame([]byte(joined)); !ok {
			return false
		}
	}
	f.Index = o.stack[k].Index
	o.stack[k] = f
	h.text, h.seg = joined, wrapSeg(line)
	o.last = no
	return true
}
