package decompress

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest line a Scanner keeps. It holds the longest
// possible "~m#" payload (87380 characters) behind any sensible prefix;
// a record on a longer line is reported as ErrLineTooLong.
const MaxLine = 1 << 20

// readBuffer is the bufio buffer size: large enough that reads are big and
// ordinary lines never need copying.
const readBuffer = 64 << 10

// Record is one "~m#" or "~b#" record found by a Scanner. Text, Backtrace
// and Err describe the current line and are valid until the next Scan.
type Record struct {
	Line int    // 1-based line number in the input
	Kind byte   // KindM or KindB
	Text []byte // the line without ANSI escapes and trailing whitespace
	Backtrace
	Err error // nil, or an *Error saying why the record is malformed
}

// Scanner reads a log line by line and stops at every line that holds a
// "~m#" record (or, failing that, a "~b#" line). It reads through a large
// buffer and reuses all its buffers: scanning allocates nothing per line
// unless a record is malformed.
type Scanner struct {
	r       *bufio.Reader
	dec     Decoder
	bpcs    []uint64 // pcs of "~b#" lines
	scratch []byte   // ANSI-stripped line
	long    []byte   // a line longer than the read buffer
	rec     Record
	err     error
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, readBuffer)}
}

// Scan advances to the next line with a record. It returns false at the end
// of the input or on a read error (see Err).
func (s *Scanner) Scan() bool {
	for s.err == nil {
		line, err := s.r.ReadSlice('\n')
		tooLong := false
		if err == bufio.ErrBufferFull {
			line, tooLong, err = s.longLine(line)
		}
		if err != nil {
			if err != io.EOF {
				s.err = fmt.Errorf("line %d: %w", s.rec.Line+1, err)
			} else {
				s.err = io.EOF
			}
			if len(line) == 0 {
				break
			}
		}
		s.rec.Line++
		if s.record(line, tooLong) {
			return true
		}
	}
	return false
}

// longLine collects a line longer than the read buffer in s.long, keeping
// at most MaxLine bytes and discarding the rest (tooLong is then true).
func (s *Scanner) longLine(first []byte) (line []byte, tooLong bool, err error) {
	s.long = append(s.long[:0], first...)
	for {
		chunk, err := s.r.ReadSlice('\n')
		room := MaxLine - len(s.long)
		if len(chunk) > room {
			chunk, tooLong = chunk[:room], true
		}
		s.long = append(s.long, chunk...)
		if err != bufio.ErrBufferFull {
			return s.long, tooLong, err
		}
	}
}

// record decodes line into s.rec and reports whether it holds a record.
func (s *Scanner) record(line []byte, tooLong bool) bool {
	if bytes.IndexByte(line, '~') < 0 { // the common case: an ordinary log line
		return false
	}
	var clean []byte
	if tooLong {
		clean = trimRightSpace(stripANSI(nil, line))
	} else {
		clean, s.scratch = CleanLine(line, s.scratch)
	}
	i, kind := findLeadIn(clean)
	if i < 0 {
		return false
	}
	rec := &s.rec
	rec.Kind, rec.Text, rec.Backtrace, rec.Err = kind, clean, Backtrace{}, nil
	payload := clean[i+3:]
	switch {
	case tooLong:
		rec.Err = errorf(ErrLineTooLong, "line is longer than %d bytes", MaxLine)
	case kind == KindM:
		rec.Backtrace, rec.Err = s.dec.DecodePayload(payload)
	default:
		bt := Backtrace{PCs: s.bpcs}
		rec.Err = ParseB(payload, &bt)
		s.bpcs = bt.PCs
		if rec.Err == nil {
			rec.Backtrace = bt
		}
	}
	return true
}

// Record returns the current record.
func (s *Scanner) Record() *Record { return &s.rec }

// Err returns the first read error, or nil at a clean end of input.
func (s *Scanner) Err() error {
	if errors.Is(s.err, io.EOF) {
		return nil
	}
	return s.err
}
