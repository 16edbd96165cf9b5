package parse

import (
	"bufio"
	"bytes"
)

// Most lines of a log are program output, and each of them used to cost a
// byte search per question the Scanner asks of it: does it hold a NUL, an
// escape, lws's '~', a frame's '#', the '<' of a kernel frame's "[<"?
// Those bytes are absent from most lines, so a probe searches the read
// buffer ahead of the line instead and remembers where its byte is next,
// or that it is nowhere in what was read: the lines before that point are
// answered by one comparison (docs/performance.md, "the line probes").
// Texts of more than one byte (the cue filter's " signal ") are searched
// line by line: their searches over the buffer, which stop at each of
// their first byte, cost a log dense with reports more than they save.

// The probes (lineProbes.at's indexes).
const (
	probeNUL   = iota // readLine
	probeESC          // readLine
	probeTilde        // which every lws record has (lwsLine)
	probeHash         // the cue filter's one-byte mark, and brokenHead's
	probeStart        // a byte each of the cue filter's starts holds (maybeReport)
	nProbes
)

// byteProbe holds 1 + the probe of each byte probed whatever the cue
// filter, 0 for the others.
var byteProbe = [256]uint8{0: 1 + probeNUL, 0x1b: 1 + probeESC, '~': 1 + probeTilde, '#': 1 + probeHash}

// lineProbes search the lines a Scanner reads for a few bytes, each in the
// read buffer ahead of the line when a line is first asked about. Offsets
// count bytes of the input.
type lineProbes struct {
	bytes [nProbes]byte
	// Byte i is nowhere between the line where it was last searched for
	// and at[i]: where it was found (found[i]), or where the search
	// reached. A line whose text ends at or before at[i] lacks it.
	at    [nProbes]int64
	found [nProbes]bool

	r *bufio.Reader
	// The current line: its number (0 when it is not probed) and length,
	// which name it without a pointer stored per line (a write barrier
	// while the collector runs); its offset, where its text ends, and the
	// next line's offset.
	no, n int
	off   int64
	stop  int64
	next  int64

	disabled bool // every line is searched in full (FuzzProbesChangeNothing)
}

// newLineProbes returns the probes of lines read from r, for the cue
// filter pf.
func newLineProbes(r *bufio.Reader, pf *prefilter) lineProbes {
	lp := lineProbes{r: r}
	for c, k := range byteProbe {
		if k != 0 {
			lp.bytes[k-1] = byte(c)
		}
	}
	lp.bytes[probeStart] = pf.startByte // asked only when not 0 (maybeReport)
	return lp
}

// read makes a line read whole the current one: line number no, rawLen
// bytes as read, line end included, and n bytes of text.
func (lp *lineProbes) read(no, rawLen, n int) {
	lp.off, lp.next = lp.next, lp.next+int64(rawLen)
	lp.no, lp.n, lp.stop = no, n, lp.off+int64(n)
}

// skip moves past a line that is not probed: rawLen bytes as read.
func (lp *lineProbes) skip(rawLen int) {
	lp.next += int64(rawLen)
	lp.no = 0
}

// of returns the probes when line, number no, is the current line, else
// nil: lines read again from a queue, joined from pieces or cleaned of
// escapes are searched in full.
func (lp *lineProbes) of(line []byte, no int) *lineProbes {
	if no != lp.no || len(line) != lp.n || no == 0 || lp.disabled {
		return nil
	}
	return lp
}

// lacks reports whether the current line, whose text is line, is known to
// lack probe i's byte; false from nil probes.
func (lp *lineProbes) lacks(i int, line []byte) bool {
	return lp != nil && (lp.stop <= lp.at[i] || lp.search(i, line))
}

// holdsByte reports whether line holds c, with no search when lp is of it
// and knows it lacks c.
func (lp *lineProbes) holdsByte(line []byte, c byte) bool {
	if k := byteProbe[c]; k != 0 && lp.lacks(int(k-1), line) {
		return false
	}
	return bytes.IndexByte(line, c) >= 0
}

// search answers for byte i when at[i] does not: it reports whether the
// current line, whose text is line, lacks it. Lines are asked about in
// input order, so what one search found or ruled out holds for the lines
// after it.
func (lp *lineProbes) search(i int, line []byte) bool {
	if !lp.found[i] || lp.at[i] < lp.off { // else found ahead, in this line
		lp.at[i], lp.found[i] = lp.nextAt(lp.bytes[i], line)
	}
	return !lp.found[i] || lp.at[i] >= lp.stop
}

// nextAt returns where c is next from the current line (whose text is
// line) on, searching the read buffer after it too; or, when it is not
// found, the end of the buffer.
func (lp *lineProbes) nextAt(c byte, line []byte) (int64, bool) {
	if j := bytes.IndexByte(line, c); j >= 0 {
		return lp.off + int64(j), true
	}
	// The line end between the text and the buffer is neither byte of a
	// probe, and the buffer starts at the next line.
	rest, _ := lp.r.Peek(lp.r.Buffered())
	if j := bytes.IndexByte(rest, c); j >= 0 {
		return lp.next + int64(j), true
	}
	return lp.next + int64(len(rest)), false
}

// blank reports whether line is empty or white space, as bytes.TrimSpace
// has it; most lines are let go on their first byte after blanks.
func blank(line []byte) bool {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i < len(line) && line[i] > ' ' && line[i] < 0x80 {
		return false
	}
	return len(bytes.TrimSpace(line[i:])) == 0
}
