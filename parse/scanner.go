package parse

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

const (
	// MaxLineLen is the longest line kept; the rest of a longer line is
	// read and dropped, so one huge line cannot exhaust memory.
	MaxLineLen = 64 << 10
	// maxReportLines ends a report that goes on for longer than any real
	// one (a runaway stack dump); it is returned marked Truncated.
	maxReportLines = 100000
	// pendingMax is how many unrecognised lines a report may contain in a
	// row before the report is taken to have ended before them.
	pendingMax = 16
	// pendingMaxTail is the same limit where the report may end at any
	// line (after an LSan SUMMARY, in a UBSan report).
	pendingMaxTail = 2
	// maxForeignTail is how many of another writer's lines after a
	// report's last own line are kept to be read again should the report
	// end there (builder.foreignTail): enough for the start of whatever
	// follows, which is what holds another report's headline.
	maxForeignTail = 64
)

// Scanner finds the reports in a log stream, one at a time. Memory is
// bounded by the largest report, not by the log.
type Scanner struct {
	r      *bufio.Reader
	name   string
	lineNo int
	err    error
	eof    bool

	long       []byte // a line longer than the bufio buffer, capped at MaxLineLen
	clean      []byte // the current line without control sequences
	lastIdle   []byte // the last non-blank line outside reports: a dump's title
	lastIdleNo int    // its line number

	cur  *builder
	held heldLine // the open report's last line, waiting for its wrapped rest
	// idleHeld is a line outside reports that ends where a wrapper broke a
	// headline before its message: UBSan's "file:3:5: runtime" or
	// "runtime error:", "==1==ERROR: AddressSanitizer:" (unwrap.go).
	idleHeld *qline
	redo     []qline // lines to process again, in input order
	ready    []*report.Report

	lws lwsDump      // libwebsockets heap-dump lines (lws.go)
	mk  markupReader // symbolizer markup's context (markup.go)

	// Damaged headers and lost frames (damage.go).
	recent     recentLines // the last lines outside reports
	orphans    orphanRun   // frame lines outside reports, not yet named
	onDamage   func(*Damage)
	onFragment func(*report.Fragment) // fragment.go
	reportLine int                    // the last line read inside a report
	// lastReportEnd is the last line of the last report finished.
	lastReportEnd int
	repairs       int // damaged lines tried as headlines
	// Never silently clean (unreported.go).
	onUnreported func(*Unreported)
	made         int            // reports handed to ready
	crashLine    int            // the first crash-looking line outside reports, 0 when none
	crashText    string         // its text
	nul          bool           // the line readLine returned had a NUL
	frameRoom    []report.Frame // the open report's room for a stack (builder.room)
	deferFill    bool           // DeferFill
	probes       lineProbes

	// KeepLines (passthrough.go): every line as read, until NextItem
	// hands it out.
	keep    bool
	rawLong []byte       // a long line as read, capped at MaxLineLen+1
	rawCut  bool         // rawLong is cut
	lines   lineQueue    // read, not handed out yet
	block   []byte       // where the lines' copies are cut from
	foreign map[int]bool // lines in a report's range that are not its own
	span    []Line       // the last report item's lines
	settled int          // lines below it are settled (settledBelow)
}

// qline is a line kept for later: a report's unconfirmed tail.
type qline struct {
	text string
	no   int
	seg  int // a held line joined from wrapped pieces: the last piece's length
}

// heldLine is the open report's last line while it waits for the next one,
// which may be its wrapped rest. Almost every line of a report is held
// once, so its bytes are copied into a buffer the Scanner reuses, not into
// a string: the report's string is made once, when the line is taken in
// (inReport).
type heldLine struct {
	text []byte
	no   int
	seg  int  // a line joined from wrapped pieces: the last piece's length
	on   bool // a line is held
}

// hold makes line (not aliasing h.text) the held line.
func (h *heldLine) hold(line []byte, no int) {
	h.text, h.no, h.seg, h.on = append(h.text[:0], line...), no, 0, true
}

// NewScanner returns a Scanner reading r; name is used in InputRange and
// error messages ("-" for stdin).
func NewScanner(r io.Reader, name string) *Scanner {
	br := bufio.NewReaderSize(r, readBufferSize)
	return &Scanner{r: br, name: name, probes: newLineProbes(br, &cueFilter)}
}

// readBufferSize is large because most of a log is skipped at memory speed
// and each read is a system call.
const readBufferSize = 1 << 20

// NewScannerSize is NewScanner with a read buffer of size bytes (at most
// 1 MiB, at least 4 KiB; lines longer than the buffer are still read whole
// up to MaxLineLen). A caller that holds thousands of small logs at once
// (batch) passes the log's size, since 1 MiB each would be most of its
// memory.
func NewScannerSize(r io.Reader, name string, size int) *Scanner {
	size = min(max(size, 4<<10), readBufferSize)
	br := bufio.NewReaderSize(r, size)
	return &Scanner{r: br, name: name, probes: newLineProbes(br, &cueFilter)}
}

// Buffered reports how many input bytes are read but not yet scanned. A
// streaming caller flushes its output when this is 0: the next Next may
// block on input, and whoever watches the output should see the report now.
func (s *Scanner) Buffered() int { return s.r.Buffered() }

// Next returns the next report, or io.EOF after the last one. A report cut
// off by the end of the input is still returned, marked Truncated. Other
// errors are read errors of the underlying reader, wrapped with its name.
func (s *Scanner) Next() (*report.Report, error) {
	for len(s.ready) == 0 {
		if len(s.redo) > 0 || s.eof {
			if !s.stepQueued() {
				break
			}
			continue
		}
		line, ok := s.readLine()
		if !ok {
			s.eof = true
			continue
		}
		s.feed(line, s.lineNo)
	}
	if len(s.ready) > 0 {
		r := s.ready[0]
		s.ready[0] = nil
		s.ready = s.ready[1:]
		return r, nil
	}
	if s.err != nil {
		return nil, s.err
	}
	return nil, io.EOF
}

// step takes the next line in (one queued to be read again, else one read
// from the input) or, at the end of the input, releases what it holds; it
// reports false when there is nothing left to do.
func (s *Scanner) step() bool {
	if len(s.redo) > 0 || s.eof {
		return s.stepQueued()
	}
	s.stepRead()
	return true
}

// stepRead reads the next line and takes it in.
func (s *Scanner) stepRead() {
	line, ok := s.readLine()
	if !ok {
		s.eof = true
		return
	}
	s.feed(line, s.lineNo)
}

// stepQueued takes in a line queued to be read again or, at the end of
// the input, releases what the Scanner holds; false when nothing is left.
func (s *Scanner) stepQueued() bool {
	if len(s.redo) > 0 {
		q := s.redo[0]
		s.redo = s.redo[1:]
		s.feed([]byte(q.text), q.no)
		return true
	}
	if s.eof {
		switch {
		case s.idleHeld != nil:
			h := s.idleHeld
			s.idleHeld = nil
			s.feedNow([]byte(h.text), h.no)
		case s.held.on:
			s.held.on = false
			s.feedNow(s.held.text, s.held.no)
		case s.cur != nil:
			s.finish(true, nil)
		case s.lws.rep != nil:
			s.endDump()
		default:
			s.endOrphans()
			s.endUnreported()
			return false
		}
	}
	return true
}

// readLine returns the next line without its line ending and terminal control
// sequences (escape.go); the slice is valid until the next call.
func (s *Scanner) readLine() ([]byte, bool) {
	if s.err != nil {
		return nil, false
	}
	line, err := s.r.ReadSlice('\n')
	// bufio returns ErrBufferFull itself, never wrapped: compared, not
	// unwrapped, on every line.
	long := err == bufio.ErrBufferFull
	if long {
		rawLen := len(line)
		s.long = append(s.long[:0], line...)
		if s.keep {
			s.rawCut = false
			s.rawLong = appendCapped(s.rawLong[:0], line, &s.rawCut)
		}
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			rawLen += len(line)
			if room := MaxLineLen - len(s.long); room > 0 {
				s.long = append(s.long, line[:min(room, len(line))]...)
			}
			if s.keep {
				s.rawLong = appendCapped(s.rawLong, line, &s.rawCut)
			}
		}
		line = s.long
		s.probes.skip(rawLen)
	}
	if err != nil && err != io.EOF {
		s.err = err
		var pe *fs.PathError
		if !errors.As(err, &pe) { // a PathError names the file already
			s.err = fmt.Errorf("read %s: %w", s.name, err)
		}
	}
	if len(line) == 0 && err != nil {
		return nil, false
	}
	s.lineNo++
	if s.keep {
		if long {
			s.keepLine(s.rawLong, s.rawCut)
		} else {
			s.keepRead(line)
		}
	}
	raw := line
	// (Byte tests: bytes.TrimSuffix costs two calls on every line.)
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	var p *lineProbes
	if !long {
		s.probes.read(s.lineNo, len(raw), len(line))
		p = s.probes.of(line, s.lineNo)
	}
	s.nul = !p.lacks(probeNUL, line) && bytes.IndexByte(line, 0) >= 0
	if s.nul || !p.lacks(probeESC, line) && bytes.IndexByte(line, 0x1b) >= 0 {
		s.probes.no = 0 // the line returned is not the one read
		s.clean = appendStripEscapes(s.clean[:0], line)
		line = s.clean
	}
	return line, true
}

func (s *Scanner) feed(line []byte, no int) {
	if s.cur == nil {
		if h := s.idleHeld; h != nil {
			// A headline broken before its message (unwrap.go).
			s.idleHeld = nil
			if j, ok := joinIdleHead(h, line); ok {
				if firstFrameGoesOn(j) {
					// gdb's first frame whose argument list goes on
					s.idleHeld = &qline{text: j, no: h.no, seg: len(line)}
					return
				}
				s.feedNow([]byte(j), h.no)
				if s.cur != nil && s.cur.rep.Input.FirstLine == h.no && len(s.cur.rep.Raw) == 1 {
					s.cur.headSeg = wrapSeg(line) // the message may go on
				}
				return
			}
			queued := len(s.redo)
			s.feedNow([]byte(h.text), h.no)
			if s.cur != nil || len(s.redo) > queued {
				s.requeue(line, no, queued)
				return
			}
		}
		// (A paste's quote or indentation is not counted.)
		if n := len(line); (n <= wrapMax || n-quoteLen(line)-spaces(line) <= wrapMax) && brokenHead(line, s.probes.of(line, no)) {
			s.idleHeld = &qline{text: string(line), no: no}
			return
		}
		s.feedNow(line, no)
		return
	}
	// Inside a report each line waits for the next one, which may be its
	// wrapped rest (unwrap.go). After ==PID==ABORTING a line that is not
	// libFuzzer's ends the report at once: holding it would keep a complete
	// report from a streaming reader until the program prints again.
	h := &s.held
	if !h.on && s.cur.afterAbort && !s.continuesAfterAbort(line) {
		s.feedNow(line, no)
		return
	}
	if !h.on {
		if s.joinHeadline(line) {
			s.cur.lastLine = no
			return
		}
		h.hold(line, no)
		return
	}
	if j, ok := s.cur.joinWrapped(h.text, h.seg, line); ok {
		h.text, h.seg = append(h.text[:0], j...), wrapSeg(line)
		return
	}
	// Released: nothing below holds a line until feedNow returns, and
	// feedNow keeps no part of the line it is given.
	h.on = false
	queued := len(s.redo)
	s.feedNow(h.text, h.no)
	if len(s.redo) == queued {
		// Nothing released: line is next, as it would be from redo,
		// without copying it there and back.
		s.feed(line, no)
		return
	}
	s.requeue(line, no, queued)
}

// requeue queues line to be fed again after whatever the feedNow just
// made released (put at the front of redo) and before the lines that were
// queued already (queued: their number before that call), which come
// after line in the input.
func (s *Scanner) requeue(line []byte, no, queued int) {
	q := qline{text: string(line), no: no}
	if queued == 0 {
		s.redo = append(s.redo, q)
		return
	}
	k := len(s.redo) - queued
	redo := make([]qline, 0, len(s.redo)+1)
	redo = append(append(redo, s.redo[:k]...), q)
	s.redo = append(redo, s.redo[k:]...)
}

// continuesAfterAbort reports whether line is one of libFuzzer's lines
// that follow the runtime's ==PID==ABORTING and belong to the report.
func (s *Scanner) continuesAfterAbort(line []byte) bool {
	b := s.cur
	body, carries := b.pfx.strip(line)
	if !carries {
		return false
	}
	t := strings.TrimSpace(string(body))
	_, ok := withFuzzerLine(b.rep.Fuzzer, t)
	return ok || echoesAbort(t)
}

func (s *Scanner) feedNow(line []byte, no int) {
	if s.lwsLine(line, no) {
		// A heap dump's line is a report's too: the look-backs for damaged
		// headers (damage.go) must not start a report before it, which
		// would come out after the dump.
		s.reportLine = no
		return
	}
	if s.cur != nil {
		s.reportLine = no
		s.inReport(line, no)
		return
	}
	s.idle(line, no)
}

// idle handles a line outside any report: almost every line of a log, so
// it rejects with a few byte searches before anything else.
func (s *Scanner) idle(line []byte, no int) {
	if len(line) == 0 {
		s.recent.add(nil, no, false)
		return
	}
	if s.orphans.frames > 0 && s.orphans.joinRest(line, no) {
		return // a wrapped piece of the last lost frame
	}
	if maybeReportProbed(line, s.probes.of(line, no)) {
		if s.orphans.frames > 0 && (s.continuesOrphans(line, no) || s.joinOrphans(line, no)) {
			return
		}
		b := s.detectStart(line, no)
		if b == nil {
			b = s.detectBrokenStart(line, no)
		}
		if b != nil {
			s.endOrphans()
			s.endDump() // a report ends a heap dump: reports stay in input order
			s.open(b)
			return
		}
		s.noteCrashLooking(line, no)
		if s.startBack(line, no) || s.orphanFrame(line, no) {
			return
		}
	}
	if blank(line) {
		s.recent.add(nil, no, false) // kept as an empty line: see recentLines
		return
	}
	if line[len(line)-1] == '}' {
		s.idleMarkup(line, no)
	}
	if s.orphans.frames > 0 && no-s.orphans.last > orphanGapMax {
		s.endOrphans()
	}
	if s.orphans.frames > 0 && s.orphans.noteIdle(line, no) {
		s.endOrphans() // its SUMMARY: the run is a report's whole tail
	}
	s.lastIdle = s.recent.add(line, no, s.nul && no == s.lineNo)
	s.lastIdleNo = no
}

// sanitizerCues are the sanitizer headlines' cues for maybeReport:
// "==1==ERROR: AddressSanitizer:", "WARNING: ThreadSanitizer:", UBSan's
// "runtime error:", "AddressSanitizer CHECK failed:", "ERROR: libFuzzer:".
var sanitizerCues = cues{words: []string{"ERROR", "WARNING", "error", report.ToolLibFuzzer, "failed", "*Sanitizer"}}

var (
	// "Sanitizer: " and the pre-2014 "Sanitizer heap-..." / "Sanitizer CHECK failed"
	markSanitizer = []byte("Sanitizer")
	markUBSan     = []byte(": runtime error: ")
	markFuzzer    = []byte("libFuzzer: ")
)

// detectStart recognises the first line of a report and returns its
// builder, or nil.
func (s *Scanner) detectStart(line []byte, no int) *builder {
	if b := sanitizerStart(line); b != nil {
		return s.begin(b, line, no)
	}
	return s.detectDump(line, no)
}

// open makes b the open report, lending it the room for its stacks.
func (s *Scanner) open(b *builder) {
	s.cur, b.room = b, &s.frameRoom
}

func (s *Scanner) begin(b *builder, line []byte, no int) *builder {
	b.stack = -1
	b.keepUnshown = s.keep
	b.rep.Input = report.InputRange{Name: s.name, FirstLine: no, LastLine: no}
	body, _ := b.pfx.strip(line)
	b.rep.Raw = append(b.rep.Raw, string(body))
	b.lastLine = no
	return b
}

// dumpTitle is the line before a gdb or backtrace_symbols dump ("Backtrace:",
// "Obtained 5 stack frames."), prefix removed.
func (s *Scanner) dumpTitle() string {
	t := bytes.TrimSpace(s.lastIdle[splitKnownPrefix(s.lastIdle):])
	if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
		return "" // a markdown code fence around a paste names nothing
	}
	return string(t)
}

// opensSanitizerReport reports whether line, inside an open report,
// starts a sanitizer report of its own: sanitizerStart's headline, looked
// for only in a line with one of its marks. libFuzzer's mark is looked for
// only in a line with an 'R' (its headlines are "ERROR: libFuzzer: ...";
// the forms without an 'R' have the other marks): searching every line of
// a report for "libFuzzer: " was 2.5% of decode's instructions.
func opensSanitizerReport(line []byte) bool {
	return (bytes.Contains(line, markSanitizer) || bytes.Contains(line, markUBSan) ||
		bytes.IndexByte(line, 'R') >= 0 && bytes.Contains(line, markFuzzer)) &&
		sanitizerStart(line) != nil
}

// sanitizerStart parses a sanitizer headline: "==PID==ERROR: Tool: msg",
// "WARNING: ThreadSanitizer: msg (pid=N)" (with any prefix before them) or
// UBSan's "file:line:col: runtime error: msg".
func sanitizerStart(line []byte) *builder {
	for _, sev := range []string{"ERROR: ", "WARNING: "} {
		i := bytes.Index(line, []byte(sev))
		if i < 0 {
			continue
		}
		after := line[i+len(sev):]
		tool, msg, ok := cutTool(after)
		if !ok {
			continue
		}
		pre := line[:i]
		pid := 0
		// "==6254==ERROR" and the older "==6254== ERROR"
		if t := bytes.TrimRight(pre, " "); bytes.HasSuffix(t, []byte("==")) {
			j := len(t) - 2
			k := j
			for k > 0 && isDigit(t[k-1]) {
				k--
			}
			if k < j && k >= 2 && string(t[k-2:k]) == "==" {
				pid, _ = strconv.Atoi(string(t[k:j]))
				pre = t[:k-2]
			}
		}
		b := &builder{kind: kindSanitizer, pfx: newPrefix(string(pre))}
		r := &report.Report{Tool: tool, Severity: strings.TrimSuffix(sev, ": "), PID: pid}
		r.Headline = string(line[i:])
		if p := strings.LastIndex(msg, " (pid="); p > 0 && strings.HasSuffix(msg, ")") {
			if n, err := strconv.Atoi(msg[p+6 : len(msg)-1]); err == nil {
				r.PID = n
				msg = msg[:p]
			}
		}
		if tool == report.ToolTSan {
			b.kind = kindTSan
			r.Kind = msg
		} else {
			r.Kind = bugKind(msg)
		}
		r.Message = msg
		b.rep = r
		return b
	}
	if b := checkFailedStart(line); b != nil {
		return b
	}
	i := bytes.Index(line, markUBSan)
	if i < 0 {
		return nil
	}
	head := line[:i]
	pfx := splitKnownPrefix(head)
	pfx += spaces(head[pfx:]) // an indented paste
	where := string(head[pfx:])
	if where != "<unknown>" {
		if _, l, _ := parseLoc(where); l == 0 {
			return nil
		}
	}
	msg := string(line[i+len(markUBSan):])
	r := &report.Report{Tool: report.ToolUBSan, Severity: "runtime error", Message: msg}
	r.Headline = string(line[pfx:])
	r.Kind = ubsanCheck(msg)
	return &builder{kind: kindUBSan, pfx: newPrefix(string(line[:pfx])), rep: r}
}

// cutTool splits "AddressSanitizer: msg" and the pre-2014 headline
// "AddressSanitizer heap-buffer-overflow on address ..." (no colon after
// the tool) into the tool and the message.
func cutTool(after []byte) (tool, msg string, ok bool) {
	if c := bytes.Index(after, []byte(": ")); c > 0 && bytes.IndexByte(after[:c], ' ') < 0 {
		tool = string(after[:c])
		if strings.HasSuffix(tool, "Sanitizer") {
			return canonicalTool(tool), string(after[c+2:]), true
		}
		if tool == report.ToolLibFuzzer {
			return tool, string(after[c+2:]), true
		}
		return "", "", false
	}
	sp := bytes.IndexByte(after, ' ')
	if sp <= 0 || !bytes.HasSuffix(after[:sp], []byte("Sanitizer")) || sp+1 >= len(after) {
		return "", "", false
	}
	msg = string(after[sp+1:])
	if !isIdent(msg[0]) {
		return "", "", false
	}
	return canonicalTool(string(after[:sp])), msg, true
}

// checkFailedStart parses a sanitizer runtime's internal error,
// "==PID==AddressSanitizer CHECK failed: file:line "cond" (v1, v2)".
func checkFailedStart(line []byte) *builder {
	const mark = "Sanitizer CHECK failed: "
	i := bytes.Index(line, []byte(mark))
	if i < 0 {
		return nil
	}
	j := i
	for j > 0 && isIdent(line[j-1]) {
		j--
	}
	pre := line[:j]
	pid := 0
	if t := bytes.TrimRight(pre, " "); bytes.HasSuffix(t, []byte("==")) {
		if k := bytes.LastIndex(t[:len(t)-2], []byte("==")); k >= 0 {
			if n, err := strconv.Atoi(string(t[k+2 : len(t)-2])); err == nil {
				pid, pre = n, t[:k]
			}
		}
	}
	r := &report.Report{Tool: string(line[j : i+len("Sanitizer")]), Kind: "CHECK failed", PID: pid}
	r.Headline = string(line[j:])
	r.Message = string(line[i+len(mark)-len("CHECK failed: "):])
	return &builder{kind: kindSanitizer, pfx: newPrefix(string(pre)), rep: r}
}

// start kinds
const (
	kindSanitizer = iota // ASan, LSan, MSan, libFuzzer, ... (==PID== lines)
	kindTSan
	kindUBSan
	kindDump // the other formats (dump.go), read by a grammar
)

// builder holds the state of the report being read.
type builder struct {
	rep  *report.Report
	kind int
	pfx  prefix
	g    grammar // kindDump: the format's grammar
	f    *format // kindDump: the format
	// carried: the line the grammar is given carried the report's prefix
	// (kindDump).
	carried bool
	indent  int // kindDump: blanks before the first line, removed from every line

	stack int // index of the open stack in rep.Stacks, -1 when none
	// room is the Scanner's room for an open stack's frames (nil for a
	// builder that is not the open report's); roomStack is 1 + the stack
	// built in it, 0 when none is (openStack, closeStack).
	room       *[]report.Frame
	roomStack  int
	title      string
	titleKnown bool
	titleRole  string
	titleClass string
	otherTitle string

	pending  []qline // unrecognised lines not yet known to be the report's
	lastLine int
	// foreignTail: the first maxForeignTail of another writer's lines
	// (without the report's prefix) since its last own line. If the
	// report ends before another own line, they came after it and are
	// read again: they may hold a report of their own (finding F9).
	foreignTail []qline

	// keepUnshown: the Scanner keeps foreign lines (KeepForeign), so the
	// report's lines that no model field holds are kept in unshown.
	keepUnshown bool
	unshown     []qline

	inShadow, inLegend bool
	noteLines          int // UBSan byte dump lines still to come
	summary            bool
	ended              bool // the closing line was seen
	ubsanStackDone     bool
	afterAbort         bool   // ==PID==ABORTING seen: only libFuzzer's input lines may follow
	headSeg            int    // a wrapped headline: its last piece's length
	signalOp           string // "The signal is caused by a READ memory access."
}

func (s *Scanner) inReport(line []byte, no int) {
	b := s.cur
	if b.kind == kindDump {
		s.inGrammar(line, no)
		return
	}
	if opensSanitizerReport(line) {
		// Back to back: this report ends here.
		s.finish(false, &qline{text: string(line), no: no})
		return
	}
	body, carries := b.pfx.strip(line)
	str := string(body)
	t := strings.TrimSpace(str)
	if b.afterAbort {
		if carries && fuzzerLine(b.rep, t, str) {
			b.confirm(str, no)
			return
		}
		if carries && echoesAbort(t) {
			b.confirm(str, no)
			b.keepUnshownLine(str, no) // shown as printed, not as a report
			return
		}
		s.finish(false, &qline{text: string(line), no: no})
		return
	}
	if (carries || strings.HasPrefix(t, "{{{")) && hasMarkup(t) {
		taken, rest := s.markupInReport(b, str, t, no)
		if taken {
			return
		}
		str, t = rest, strings.TrimSpace(rest)
	}
	if !carries && !b.isGrammar(t) {
		if f, ok := b.gluedFrame(t); ok {
			// The frame behind another writer's text, and a wrapper that
			// broke that text took the report's prefix off its pieces.
			b.confirm(str, no)
			b.addFrame(f)
			return
		}
		if s.endsOpen(line) {
			// Another format's headline without the report's prefix: a
			// log pasted after a prefixed one (finding F5), not a writer's
			// line in the middle of the report.
			s.finish(false, &qline{text: string(line), no: no})
			return
		}
		s.foreignLine(line, no)
		return // another writer's line
	}
	switch {
	case b.kind == kindTSan && t == "==================":
		b.confirm(str, no)
		b.ended = true
		s.finish(false, nil)
		return
	case b.kind == kindSanitizer && t == "Exiting":
		b.confirm(str, no)
		b.ended = true
		s.finish(false, nil)
		return
	case strings.HasPrefix(t, "=="):
		if valgrindMessage(line) {
			// Valgrind's report starts here, whatever the open report's
			// PID (a UBSan report has none and took every "==PID==" line
			// for its own: finding F7).
			s.finish(false, &qline{text: string(line), no: no})
			return
		}
		// Another process's "==PID==" line (Valgrind's, the next test
		// binary's) is not the report's: held back like any unknown line.
		if msg, ok := cutPIDPrefix(t); ok && (b.rep.PID == 0 || linePID(t) == b.rep.PID) {
			b.confirm(str, no)
			if strings.HasPrefix(msg, "ABORTING") {
				// libFuzzer prints the failing input's MS:/artifact lines
				// after the runtime's report: they are read with it.
				b.ended, b.afterAbort = true, true
				return
			}
			if op, ok := strings.CutPrefix(msg, "The signal is caused by a "); ok {
				b.signalOp, _, _ = strings.Cut(op, " ")
			}
			b.noteUnknown(msg)
			return
		}
	case t == "":
		if b.kind == kindUBSan && b.stack >= 0 && !b.ubsanStackDone {
			b.closeStack()
			b.ubsanStackDone = true
			b.confirm(str, no)
			return
		}
		b.closeStack()
		b.pend(str, no)
		s.checkPending()
		return
	case t[0] == '#':
		if f, ok := ParseFrame(t); ok {
			if f.Index == 0 && (b.summary || b.ubsanStackDone) {
				// A stack after the report's SUMMARY line, or after a
				// UBSan report's one stack, is no stack of it (the
				// runtimes print none there): another report's, as a
				// libFuzzer report cut before its headline (F8, F9).
				s.finish(false, &qline{text: string(line), no: no})
				return
			}
			b.confirm(str, no)
			b.addFrame(f)
			return
		}
		if b.unparsedFrame(t) {
			b.confirm(str, no)
			return
		}
	case b.stack >= 0 && t[0] == '0' && b.unparsedFrame(t):
		b.confirm(str, no)
		return
	case b.kind == kindTSan && (b.titleKnown || b.stack >= 0) && strings.HasPrefix(str, "    "):
		if f, ok := tsanUnnumbered(t); ok {
			b.confirm(str, no)
			b.addFrame(f)
			return
		}
	case strings.HasPrefix(t, "SUMMARY: "):
		b.confirm(str, no)
		b.closeStack()
		b.rep.Summary = summaryOf(strings.TrimPrefix(strings.TrimLeft(str, " "), "SUMMARY: "))
		b.summary = true
		if b.kind == kindUBSan {
			if check, _, _ := strings.Cut(strings.TrimPrefix(b.rep.Summary.Text, "UndefinedBehaviorSanitizer: "), " "); check != "undefined-behavior" && check != "" && !strings.Contains(check, ":") {
				b.rep.Kind = check
			}
			b.ended = true
			s.finish(false, nil)
		}
		return
	case t == shadowHeader:
		b.confirm(str, no)
		b.closeStack()
		b.inShadow, b.inLegend = true, false
		if b.rep.Shadow == nil {
			b.rep.Shadow = &report.Shadow{}
		}
		return
	}
	if b.inShadow {
		if row, ok := parseShadowRow(str); ok {
			b.confirm(str, no)
			b.rep.Shadow.Rows = append(b.rep.Shadow.Rows, row)
			return
		}
	}
	if g, ok := parseLegendHeader(t); ok {
		b.confirm(str, no)
		b.inShadow, b.inLegend = false, true
		if b.rep.Shadow == nil {
			b.rep.Shadow = &report.Shadow{}
		}
		b.rep.Shadow.Granularity = g
		// ASan's legend has 24 codes: room for them from the start, not
		// grown twice on the way.
		b.rep.Shadow.Legend = make(map[string]string, 24)
		return
	}
	if b.inLegend {
		if name, bs, ok := parseLegendRow(str); ok {
			b.confirm(str, no)
			for _, x := range bs {
				b.rep.Shadow.Legend[x] = name
			}
			return
		}
	}
	if b.kind == kindUBSan {
		// The note and its byte dump are kept as read (Raw) but not in
		// the model: a passthrough shows them after the rendering.
		if b.noteLines > 0 && t != "" {
			b.noteLines--
			b.confirm(str, no)
			b.keepUnshownLine(str, no)
			return
		}
		if strings.HasPrefix(t, "0x") && strings.Contains(t, ": note: ") {
			b.confirm(str, no)
			b.keepUnshownLine(str, no)
			b.noteLines = 2
			return
		}
	}
	if b.kind == kindSanitizer && b.summary && isRuntimeStats(t) {
		// print_stats=1: the allocator's statistics between SUMMARY and
		// ==PID==ABORTING, the runtime's own lines (Raw) but no model.
		b.confirm(str, no)
		b.keepUnshownLine(str, no)
		return
	}
	if t == report.MarkerNoRestore && b.titleKnown {
		// The titled stack the runtime could not restore: empty, marked.
		b.confirm(str, no)
		b.closeStack()
		b.rep.Stacks = append(b.rep.Stacks, report.Stack{Title: b.title, Role: b.titleRole, RoleDetail: b.titleClass, Marker: t})
		b.titleKnown, b.title = false, ""
		return
	}
	if role, class, ok := classifyTitle(t); ok {
		b.confirm(str, no)
		b.closeStack()
		b.title, b.titleKnown, b.titleRole, b.titleClass = t, true, role, class
		return
	}
	if isLocation(t) {
		b.confirm(str, no)
		b.rep.Location = append(b.rep.Location, report.Location{Text: t})
		return
	}
	if b.rep.Tool == report.ToolLibFuzzer && fuzzerLine(b.rep, t, str) {
		b.confirm(str, no)
		return
	}
	if s.endsOpen(line) {
		s.finish(false, &qline{text: string(line), no: no})
		return
	}
	if f, ok := b.gluedFrame(t); ok {
		b.confirm(str, no)
		b.addFrame(f)
		return
	}
	b.noteUnknown(t)
	b.pend(str, no)
	s.checkPending()
}

// gluedFrame reads the frame at the end of t when another writer's text
// without a newline stands in front of it ("progress: 24%     #0 0x...
// in f ..."): a numbered frame with a pc after a blank, the one the open
// stack expects next (#0 where none is open), so text that merely holds
// a "#1" is not read as one.
func (b *builder) gluedFrame(t string) (report.Frame, bool) {
	want := 0
	if b.stack >= 0 {
		if last, ok := lastParsed(b.rep.Stacks[b.stack].Frames); ok {
			want = last.Index + 1
		}
	}
	for i := gluedAt(t, 0, false); i >= 0; i = gluedAt(t, i, false) {
		if f, ok := ParseFrame(t[i:]); ok && f.HasPC && !f.Unparsed && f.Index == want {
			return f, true
		}
	}
	return report.Frame{}, false
}

// gluedAt is where the first numbered frame line with a pc ("#12 0x")
// starts in t after a blank, past byte from; -1 when none does. With
// broken, a number alone at t's end counts too (a wrapper broke the line
// right after it).
func gluedAt(t string, from int, broken bool) int {
	for from < len(t) {
		i := strings.Index(t[from:], " #")
		if i < 0 {
			return -1
		}
		at := from + i + 1
		rest := t[at:]
		if numbered(rest) {
			if _, after, _ := strings.Cut(rest, " "); strings.HasPrefix(after, "0x") {
				return at
			}
		} else if broken && len(rest) > 1 && allDigits(rest[1:]) {
			return at
		}
		from = at
	}
	return -1
}

// isRuntimeStats reports whether t is one of the lines a sanitizer runtime
// prints with print_stats=1 (sanitizer_common's and the allocators'
// PrintStats): "Stats: ...", "mallocs by size class: ...", a size class's
// row "02 (    32): mapped: ...", "Quarantine limits: ...", "Global
// quarantine stats: ...".
func isRuntimeStats(t string) bool {
	switch {
	case strings.HasPrefix(t, "Stats: "), strings.HasPrefix(t, "mallocs by size class:"),
		strings.HasPrefix(t, "Quarantine limits: "), strings.HasPrefix(t, "Global quarantine stats: "):
		return true
	}
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	return i > 0 && strings.HasPrefix(t[i:], " (") && strings.Contains(t, "): mapped: ")
}

// isGrammar reports whether a line that lacks the report's prefix is still
// unmistakably part of a report (GitHub's "##[error]" marks only some lines).
func (b *builder) isGrammar(t string) bool {
	if t == "" {
		return false
	}
	if t[0] == '#' {
		_, ok := ParseFrame(t)
		return ok
	}
	if strings.HasPrefix(t, "SUMMARY: ") || t == shadowHeader || t == "==================" {
		return true
	}
	_, _, ok := classifyTitle(t)
	return ok
}

// linePID is the PID of a line cutPIDPrefix splits.
func linePID(t string) int {
	i := 2
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	n, _ := strconv.Atoi(t[2:i])
	return n
}

// cutPIDPrefix splits "==123==text".
func cutPIDPrefix(t string) (string, bool) {
	i := 2
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 2 || !strings.HasPrefix(t[i:], "==") {
		return "", false
	}
	return strings.TrimLeft(t[i+2:], " "), true // "==5730== ABORTING" before 2014
}

// noteUnknown remembers an unrecognised line as the title of a stack that
// follows it without a recognised title.
func (b *builder) noteUnknown(t string) {
	if !b.titleKnown && t != "" {
		b.otherTitle = t
	}
}

func (b *builder) pend(str string, no int) {
	b.pending = append(b.pending, qline{text: str, no: no})
}

// confirm accepts the pending lines and str as the report's own.
func (b *builder) confirm(str string, no int) {
	for _, q := range b.pending {
		b.rep.Raw = append(b.rep.Raw, q.text)
		if b.keepUnshown && strings.TrimSpace(q.text) != "" {
			b.unshown = append(b.unshown, q)
		}
	}
	b.pending = b.pending[:0]
	b.foreignTail = b.foreignTail[:0]
	b.rep.Raw = append(b.rep.Raw, str)
	b.lastLine = no
}

// foreignLine notes line, inside the open report, as another writer's.
func (s *Scanner) foreignLine(line []byte, no int) {
	s.noteForeign(no)
	if b := s.cur; len(b.foreignTail) < maxForeignTail {
		b.foreignTail = append(b.foreignTail, qline{text: string(line), no: no})
	}
}

func (s *Scanner) checkPending() {
	b := s.cur
	limit := pendingMax
	if b.kind == kindUBSan || (b.summary && b.kind == kindSanitizer && !b.needsAbort()) {
		limit = pendingMaxTail
	}
	if len(b.pending) > limit || len(b.rep.Raw)+len(b.pending) > maxReportLines {
		s.finish(false, nil)
	}
}

// needsAbort: an ASan error report always ends with ==PID==ABORTING.
func (b *builder) needsAbort() bool {
	return b.kind == kindSanitizer && b.rep.Tool == report.ToolASan && b.rep.Severity == "ERROR" &&
		b.rep.Kind != "detected memory leaks"
}

func (b *builder) addFrame(f report.Frame) {
	if b.stack >= 0 && !f.Unparsed {
		st := &b.rep.Stacks[b.stack]
		// (A frame without a printed number goes on its stack.)
		if last, ok := lastParsed(st.Frames); ok && f.Index >= 0 && f.Index <= last.Index {
			b.closeStack()
		}
	}
	if b.stack < 0 {
		var title, role, detail string
		switch {
		case b.titleKnown:
			title, role, detail = b.title, b.titleRole, b.titleClass
		case len(b.rep.Stacks) == 0:
			title, role, detail = b.rep.Message, "access", "error"
		default:
			title, role, detail = b.otherTitle, "other", "other"
		}
		if detail == "access" && b.rep.Access == nil {
			b.rep.Access = parseAccess(title)
		}
		b.titleKnown, b.title, b.otherTitle = false, "", ""
		b.openStack(title, role, detail)
	}
	st := &b.rep.Stacks[b.stack]
	st.Frames = append(st.Frames, f)
}

// closeStack ends the open stack and marks its inlined frames: a frame is
// inlined into the next one when both have the same pc or module+offset.
func (b *builder) closeStack() {
	if b.stack < 0 {
		return
	}
	st := &b.rep.Stacks[b.stack]
	markInlined(st.Frames)
	if b.roomStack == b.stack+1 {
		// Built in the room (openStack): the stack keeps a copy of its
		// size, none when it has no frame, and the room, grown as it
		// needed, goes back to the Scanner.
		frames := st.Frames
		st.Frames = nil
		if len(frames) > 0 {
			st.Frames = slices.Clone(frames)
		}
		*b.room, b.roomStack = frames[:0], 0
	}
	b.stack = -1
}

func markInlined(fs []report.Frame) {
	for i := 0; i+1 < len(fs); i++ {
		a, n := &fs[i], &fs[i+1]
		// A grammar may know it from the line ("[inline]", Go's "(...)").
		a.Inlined = a.Inlined || (a.HasPC && n.HasPC && a.PC == n.PC) ||
			(!a.HasPC && a.HasOffset && n.HasOffset && a.Offset == n.Offset && a.Module == n.Module)
	}
}

// finish closes the current report. extra is a line that was read but
// belongs after it (the next report's headline).
func (s *Scanner) finish(eof bool, extra *qline) {
	b := s.cur
	s.cur = nil
	b.closeStack()
	r := b.rep
	r.Input.LastLine = b.lastLine
	s.lastReportEnd = max(s.lastReportEnd, b.lastLine)
	if r.Access == nil && b.signalOp != "" {
		r.Access = signalAccess(b.signalOp, r.Message)
	}
	switch b.kind {
	case kindSanitizer:
		r.Truncated = !b.ended && !(b.summary && !(eof && b.needsAbort()))
	case kindTSan:
		r.Truncated = !b.ended && (eof || !b.summary)
	case kindUBSan:
		r.Truncated = eof && !b.summary && ((b.stack >= 0 || len(r.Stacks) > 0) && !b.ubsanStackDone || b.noteLines > 0)
	case kindDump:
		b.g.end(b, eof)
		dropEmptyStacks(r)
	}
	if len(r.Raw) >= maxReportLines {
		r.Truncated = true
	}
	if !s.deferFill || filledByScanner(r) {
		fillDerived(r)
	}
	s.markupFinish(r)
	if s.keep {
		for _, no := range unshownLines(b) {
			s.noteForeign(no)
		}
	}
	var redo []qline
	redo = append(redo, b.pending...)
	if len(b.foreignTail) > 0 {
		// After the report's last line: read again, in the log's order
		// among the pending lines, and no longer another writer's.
		for _, q := range b.foreignTail {
			delete(s.foreign, q.no)
		}
		redo = append(redo, b.foreignTail...)
		slices.SortStableFunc(redo, func(x, y qline) int { return cmp.Compare(x.no, y.no) })
	}
	if extra != nil {
		redo = append(redo, *extra)
	}
	s.redo = append(redo, s.redo...)
	s.ready = append(s.ready, r)
	s.made++
}

// signalAccess builds the access of a SEGV-like report from "The signal is
// caused by a READ memory access." and the headline
// "SEGV on unknown address 0x000000000000 (pc 0x... bp 0x... sp 0x... T0)".
func signalAccess(op, msg string) *report.Access {
	a := &report.Access{Op: op}
	if _, rest, ok := strings.Cut(msg, " on unknown address "); ok {
		if strings.HasPrefix(rest, "0x") {
			a.Address, _, _ = strings.Cut(rest, " ")
		}
	}
	if strings.HasSuffix(msg, ")") {
		if i := strings.LastIndexByte(msg, ' '); i > 0 && msg[i+1] == 'T' {
			a.Thread = msg[i+1 : len(msg)-1]
		}
	}
	return a
}
