package pipeline

import (
	"bufio"
	"bytes"
	"io"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// Passthrough gives the whole input back: every line the scanner settles
// as outside the reports is written as read, as soon as it is settled,
// and each report's lines are replaced by its rendering. It sits between
// the input and the scanner (a tee of the lines read) so that it sees the
// lines the scanner sees, numbered alike.

// rawLine is one input line as read, line end included.
type rawLine struct {
	no   int
	text []byte
}

// lineTee records the lines of r as they are read. Before each read of r
// it calls settle: that is when the scanner has taken in every complete
// line so far and the next read may wait for a live writer, so whatever
// is settled must be on the output now.
type lineTee struct {
	r       io.Reader
	settle  func() error
	lines   []rawLine // read, neither written nor dropped yet
	partial []byte    // the line being read, capped like the scanner's
	cut     bool      // partial is capped: the rest of the line is dropped
	next    int       // number of the next line
	err     error     // a write error from settle, ending the input
}

func newLineTee(r io.Reader) *lineTee { return &lineTee{r: r, next: 1} }

func (t *lineTee) Read(p []byte) (int, error) {
	if t.settle != nil {
		if err := t.settle(); err != nil {
			t.err = err
			return 0, err
		}
	}
	n, err := t.r.Read(p)
	b := p[:n]
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		piece := b
		if i >= 0 {
			piece = b[:i+1]
		}
		t.add(piece)
		b = b[len(piece):]
		if i >= 0 {
			t.endLine()
		}
	}
	if err != nil && len(t.partial) > 0 {
		t.endLine() // the last line has no line end
	}
	return n, err
}

// add appends a piece of the current line, keeping at most
// parse.MaxLineLen bytes of it, as the scanner does: a huge line costs
// bounded memory here too, and the output shows its start.
func (t *lineTee) add(piece []byte) {
	room := parse.MaxLineLen + 1 - len(t.partial)
	if len(piece) > room {
		piece, t.cut = piece[:max(room, 0)], true
	}
	t.partial = append(t.partial, piece...)
}

func (t *lineTee) endLine() {
	text := t.partial
	if t.cut && !bytes.HasSuffix(text, []byte("\n")) {
		text = append(text, '\n')
	}
	t.lines = append(t.lines, rawLine{no: t.next, text: bytes.Clone(text)})
	t.next++
	t.partial, t.cut = t.partial[:0], false
}

// passthrough writes one input back around its reports.
type passthrough struct {
	tee     *lineTee
	sc      *parse.Scanner
	out     *bufio.Writer
	foreign map[int]bool // lines inside reports that were another writer's
}

// emitBefore writes the queued lines numbered below n.
func (p *passthrough) emitBefore(n int) error {
	i := 0
	for ; i < len(p.tee.lines) && p.tee.lines[i].no < n; i++ {
		if _, err := p.out.Write(p.tee.lines[i].text); err != nil {
			return err
		}
		delete(p.foreign, p.tee.lines[i].no)
	}
	p.tee.lines = p.tee.lines[i:]
	return nil
}

// settle writes every line the scanner has settled as program output and
// flushes: called before the input is read again.
func (p *passthrough) settle() error {
	for _, no := range p.sc.TakeForeign() {
		p.foreign[no] = true
	}
	if err := p.emitBefore(p.sc.Undecided()); err != nil {
		return err
	}
	return p.out.Flush()
}

// take removes the lines of rep from the queue, after writing the lines
// before it; it returns the lines inside rep's range that are not the
// report's own (another writer's output, lines between a heap dump's
// records), to be written after its rendering, or all of them when the
// report is not shown (verbatim: filtered out by --tool or --kind).
func (p *passthrough) take(rep *report.Report, verbatim bool) ([]rawLine, error) {
	for _, no := range p.sc.TakeForeign() {
		p.foreign[no] = true
	}
	first, last := rep.Input.FirstLine, rep.Input.LastLine
	if err := p.emitBefore(first); err != nil {
		return nil, err
	}
	dump := report.IsHeapDump(rep)
	var keep []rawLine
	i := 0
	for ; i < len(p.tee.lines) && p.tee.lines[i].no <= last; i++ {
		l := p.tee.lines[i]
		own := !p.foreign[l.no]
		if dump {
			_, _, own = decompress.FindRecord(bytes.TrimRight(l.text, "\r\n"))
		}
		if !own || verbatim {
			keep = append(keep, l)
		}
		delete(p.foreign, l.no)
	}
	p.tee.lines = p.tee.lines[i:]
	return keep, nil
}

// write writes lines as read.
func (p *passthrough) write(lines []rawLine) error {
	for _, l := range lines {
		if _, err := p.out.Write(l.text); err != nil {
			return err
		}
	}
	return nil
}

// rest writes what is left at the end of the input.
func (p *passthrough) rest() error {
	if err := p.write(p.tee.lines); err != nil {
		return err
	}
	p.tee.lines = nil
	return nil
}
