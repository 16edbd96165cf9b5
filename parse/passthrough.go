package parse

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/report"
)

// The whole input, in order (decode --passthrough). A Scanner told to
// KeepLines keeps every line as read, and NextItem hands each one out as
// soon as it is settled as outside every report, and each report with the
// lines of its range, in input order. The Scanner holds a line back only
// for what its lookahead needs: a report being read, a line that may be
// joined with its wrapped rest, a line a report starting on a later line
// may take as its first (a ruler before a Go race or kernel report, a
// damaged headline, the first line of a wrapped headline).

// Item is one piece of the input, in input order: a line outside every
// report, or a report with the lines of its range.
type Item struct {
	// Line is a line outside every report as read, line end included
	// (nil for a report). A line longer than MaxLineLen+1 bytes is cut
	// there and given a "\n".
	Line []byte
	// Report is a report, and Lines the input lines of its range
	// (Report.Input.FirstLine to LastLine) as read, each marked whether it
	// is the report's own: the others are another writer's output between
	// its lines, lines the report read but no part of the model holds,
	// and the lines between a heap dump's records, which a rendering of
	// the report does not show. Lines is valid until the next NextItem.
	Report *report.Report
	Lines  []Line
}

// Line is one input line as read, line end included.
type Line struct {
	No   int
	Text []byte
	Own  bool // the report's own line, shown by its rendering
}

// KeepLines makes the Scanner keep every line as read for NextItem. Call
// it before the first NextItem; Next is not used on such a Scanner.
func (s *Scanner) KeepLines() {
	s.keep = true
	s.foreign = map[int]bool{}
}

// NextItem returns the next piece of the input: a line as soon as no
// report can take it any more, a report as soon as it is complete; io.EOF
// after the last line. A read error is returned after every line read
// before it.
func (s *Scanner) NextItem() (Item, error) {
	for {
		if it, ok := s.takeItem(); ok {
			return it, nil
		}
		if !s.step() {
			break
		}
	}
	// The end: the reports, then every line left.
	if it, ok := s.takeItem(); ok {
		return it, nil
	}
	if s.lines.len() > 0 {
		return Item{Line: s.popLine().Text}, nil
	}
	if s.err != nil {
		return Item{}, s.err
	}
	return Item{}, io.EOF
}

// maxLeadLines is the largest leadLines of the formats.
var maxLeadLines = func() int {
	n := 0
	for _, f := range formats {
		n = max(n, f.leadLines)
	}
	return n
}()

// takeItem returns the next item that is ready: the lines before the next
// complete report, the report, or a line below the settled bound.
func (s *Scanner) takeItem() (Item, bool) {
	if len(s.ready) > 0 {
		r := s.ready[0]
		if s.lines.len() > 0 && s.lines.front().No < r.Input.FirstLine {
			return Item{Line: s.popLine().Text}, true
		}
		s.ready[0] = nil
		s.ready = s.ready[1:]
		return Item{Report: r, Lines: s.takeSpan(r)}, true
	}
	if s.lines.len() == 0 {
		return Item{}, false
	}
	if s.lines.front().No >= s.settled {
		// Worked out when the Scanner is about to wait for input, which
		// is when whoever watches the output must see what is settled.
		if !s.mayWait() {
			return Item{}, false
		}
		s.settled = s.settledBelow()
		if s.lines.front().No >= s.settled {
			return Item{}, false
		}
	}
	return Item{Line: s.popLine().Text}, true
}

// mayWait reports whether taking the next line in may wait for input: no
// line is queued to be read again and the read buffer holds no whole line.
func (s *Scanner) mayWait() bool {
	if s.eof || len(s.redo) > 0 {
		return false
	}
	buf, _ := s.r.Peek(s.r.Buffered())
	return bytes.IndexByte(buf, '\n') < 0
}

// popLine removes the first kept line; Own is false when the line was
// noted as not its report's (noteForeign).
func (s *Scanner) popLine() Line {
	l := s.lines.pop()
	l.Own = !s.foreign[l.No]
	delete(s.foreign, l.No)
	return l
}

// takeSpan removes the kept lines up to r's last and returns them, each
// marked whether it is r's own.
func (s *Scanner) takeSpan(r *report.Report) []Line {
	dump := report.IsHeapDump(r)
	span := s.span[:0]
	for s.lines.len() > 0 && s.lines.front().No <= r.Input.LastLine {
		l := s.popLine()
		if dump {
			_, _, l.Own = decompress.FindRecord(bytes.TrimRight(l.Text, "\r\n"))
		}
		span = append(span, l)
	}
	s.span = span
	return span
}

// keepLine keeps one line as read (with its line end) for NextItem, cut
// as a passthrough shows it: at MaxLineLen+1 bytes, then "\n".
func (s *Scanner) keepLine(raw []byte, cut bool) {
	// The copies are cut from blocks of lineBlock bytes, one allocation
	// for hundreds of lines; a block is freed with its last line.
	if n := len(raw) + 1; cap(s.block)-len(s.block) < n {
		s.block = make([]byte, 0, max(lineBlock, n))
	}
	start := len(s.block)
	s.block = append(s.block, raw...)
	if cut && !bytes.HasSuffix(raw, []byte("\n")) {
		s.block = append(s.block, '\n')
	}
	s.lines.push(Line{No: s.lineNo, Text: s.block[start:len(s.block):len(s.block)]})
}

// lineQueue is the kept lines not handed out yet, first in first out,
// in one slice that is reused once emptied.
type lineQueue struct {
	q    []Line
	head int
}

func (lq *lineQueue) len() int     { return len(lq.q) - lq.head }
func (lq *lineQueue) front() *Line { return &lq.q[lq.head] }
func (lq *lineQueue) push(l Line)  { lq.q = append(lq.q, l) }

func (lq *lineQueue) pop() Line {
	l := lq.q[lq.head]
	lq.q[lq.head] = Line{}
	lq.head++
	switch {
	case lq.head == len(lq.q):
		lq.q, lq.head = lq.q[:0], 0
	case lq.head >= 1024 && 2*lq.head >= len(lq.q):
		n := copy(lq.q, lq.q[lq.head:])
		clear(lq.q[n:])
		lq.q, lq.head = lq.q[:n], 0
	}
	return l
}

const lineBlock = 64 << 10

// keepRead keeps a line as ReadSlice returned it whole.
func (s *Scanner) keepRead(line []byte) {
	cut := len(line) > MaxLineLen+1
	if cut {
		line = line[:MaxLineLen+1]
	}
	s.keepLine(line, cut)
}

// appendCapped appends piece to dst, up to MaxLineLen+1 bytes in all; it
// sets *cut when some of piece is left out.
func appendCapped(dst, piece []byte, cut *bool) []byte {
	if room := MaxLineLen + 1 - len(dst); len(piece) > room {
		piece, *cut = piece[:max(room, 0)], true
	}
	return append(dst, piece...)
}

// noteForeign notes line no, inside a report's range, as not the report's
// own.
func (s *Scanner) noteForeign(no int) {
	if s.keep {
		s.foreign[no] = true
	}
}

// settledBelow returns the number of the first line read so far that may
// still become part of a report that is not complete yet; the next line to
// be read when there is none. Every kept line before it that no report
// covers is program output.
func (s *Scanner) settledBelow() int {
	u := s.lineNo + 1
	low := func(n int) {
		if n > 0 && n < u {
			u = n
		}
	}
	for _, r := range s.ready {
		low(r.Input.FirstLine)
	}
	if s.cur != nil {
		low(s.cur.rep.Input.FirstLine)
	}
	if s.held.on {
		low(s.held.no)
	}
	if s.idleHeld != nil {
		low(s.idleHeld.no)
	}
	for _, q := range s.redo {
		low(q.no)
	}
	if s.lws.rep != nil {
		low(s.lws.rep.Input.FirstLine)
	}
	if s.orphans.frames > 0 && len(s.orphans.lines) > 0 {
		// A run of lost frames a report may still take back (joinOrphans).
		low(s.orphans.first)
	}
	// The next line to be taken in: one queued to be read again, else
	// the next one read.
	next := s.lineNo + 1
	if len(s.redo) > 0 {
		next = s.redo[0].no
	}
	r := &s.recent
	for k := 1; k <= recentMax && k <= r.n; k++ {
		i := (r.n - k) % recentMax
		if s.lineNo-r.no[i] >= recentMax {
			break
		}
		text := r.text[i]
		if len(text) == 0 {
			continue
		}
		// A damaged line (NUL, invalid UTF-8) after the last report may
		// turn out to be a report's headline when frame lines follow it
		// (repairBefore, damage.go).
		if r.no[i] > s.reportLine && (r.damaged[i] || !utf8.Valid(text)) {
			low(r.no[i])
			continue
		}
		// A format's report may take it as its first line.
		if next-r.no[i] > maxLeadLines {
			continue
		}
		t := bytes.TrimSpace(text[splitKnownPrefix(text):])
		for _, f := range formats {
			if f.lead != nil && next-r.no[i] <= f.leadLines && f.lead(text, t) {
				low(r.no[i])
				break
			}
		}
	}
	return u
}

// keepUnshownLine notes a line of the report that no model field holds.
func (b *builder) keepUnshownLine(str string, no int) {
	if b.keepUnshown {
		b.unshown = append(b.unshown, qline{text: str, no: no})
	}
}

// unshownLines returns the numbers of b's unrecognised lines that are not
// a stack's title, once its report is finished.
func unshownLines(b *builder) []int {
	if len(b.unshown) == 0 {
		return nil
	}
	titles := make(map[string]bool, len(b.rep.Stacks))
	for _, st := range b.rep.Stacks {
		titles[strings.TrimSpace(st.Title)] = true
	}
	var nos []int
	for _, q := range b.unshown {
		if !titles[strings.TrimSpace(q.text)] {
			nos = append(nos, q.no)
		}
	}
	return nos
}
