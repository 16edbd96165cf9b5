package parse

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/report"
)

// libwebsockets heap dumps. lws prints one "~m#<base64>" line per live
// allocation (a compressed backtrace and the size; see docs/lws.md), and
// its decoder tool turns them into "~b#size: N, 0x... 0x..." lines. Both
// are read here: a run of such lines, other log lines allowed between them,
// becomes one Report with one Stack per allocation.

const (
	// MaxDumpRecords bounds one heap-dump report: a longer dump goes on in
	// a new report, so that a dump of a million allocations is never held
	// whole.
	MaxDumpRecords = 10000
	// dumpGapMax is how many other lines in a row may come between two
	// records of one dump; more, and the next record starts a new dump.
	dumpGapMax = 16
)

// RecordError is a ~m# or ~b# record that could not be decoded. Decoding
// goes on with the next line; the record is left out of its dump.
type RecordError struct {
	Input string // the input's name ("-" for stdin)
	Line  int    // 1-based
	Kind  byte   // decompress.KindM or decompress.KindB
	Text  string // the record, from its lead-in
	Err   error  // a *decompress.Error: errors.Is(err, decompress.ErrTruncated), ...
}

// Error is FORMAT.md's suggested message:
// "<input>:<line>: ~m# record: <class>: <detail>".
func (e *RecordError) Error() string {
	name := e.Input
	if name == "-" {
		name = "<stdin>"
	}
	return fmt.Sprintf("%s:%d: ~%c# record: %v", name, e.Line, e.Kind, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// OnRecordError sets the function that is told about every malformed
// record, as it is read. Without one they are only counted in the dump's
// headline.
func (s *Scanner) OnRecordError(fn func(*RecordError)) { s.lws.onError = fn }

// lwsDump is the heap dump being read.
type lwsDump struct {
	rep       *report.Report
	records   int // records decoded (including those without frames)
	frameless int // depth-0 records: every frame was snipped
	bad       int
	bytes     uint64
	gap       int // other lines since the last record

	dec     decompress.Decoder
	bt      decompress.Backtrace // ~b# parsing buffer
	onError func(*RecordError)
}

// lwsLine takes a ~m# or ~b# line into the current heap dump and reports
// whether it was one. Other lines count towards the gap that ends a dump.
// The line has no line end and no ANSI escapes (readLine).
func (s *Scanner) lwsLine(line []byte, no int) bool {
	d := &s.lws
	if s.probes.of(line, no).lacks(probeTilde, line) || bytes.IndexByte(line, '~') < 0 {
		if d.rep != nil && s.cur == nil {
			d.gap++
			if d.gap > dumpGapMax {
				s.endDump()
			}
		}
		return false
	}
	payload, kind, ok := decompress.FindRecord(line)
	if !ok {
		return false
	}
	text := "~" + string(kind) + "#" + string(payload)
	if d.rep != nil && d.records+d.bad >= MaxDumpRecords {
		if s.cur != nil {
			// Keep reports in input order: the report this dump started
			// in ends here, before the dump is handed out.
			s.finish(false, nil)
		}
		s.endDump()
	}
	if d.rep == nil {
		d.rep = &report.Report{Tool: report.ToolLWS, Kind: report.KindHeapDump, Input: report.InputRange{Name: s.name, FirstLine: no}}
	}
	d.gap = 0
	d.rep.Input.LastLine = no
	d.rep.Raw = append(d.rep.Raw, text)

	var bt decompress.Backtrace
	var err error
	if kind == decompress.KindM {
		bt, err = d.dec.DecodePayload(payload)
	} else {
		d.bt.PCs = d.bt.PCs[:0]
		err = decompress.ParseB(payload, &d.bt)
		bt = d.bt
	}
	if err == nil && d.bytes+bt.Size < d.bytes {
		err = &decompress.Error{Code: decompress.ErrSizeOverflow,
			Detail: fmt.Sprintf("size %d makes the dump's byte total exceed 2^64-1", bt.Size)}
	}
	if err != nil {
		d.bad++
		if d.onError != nil {
			d.onError(&RecordError{Input: s.name, Line: no, Kind: kind, Text: text, Err: err})
		}
		return true
	}
	d.records++
	d.bytes += bt.Size
	if len(bt.PCs) == 0 {
		d.frameless++
		return true
	}
	st := report.Stack{Title: "allocation of " + strconv.FormatUint(bt.Size, 10) + " bytes", Role: "alloc", RoleDetail: "alloc",
		Frames: make([]report.Frame, len(bt.PCs))}
	for i, pc := range bt.PCs {
		// Every pc is a return address (lws keeps none of its capture
		// frames): look up pc-1, inside the call.
		st.Frames[i] = report.Frame{Index: i, PC: pc, HasPC: true, Adjust: 1, Symbolized: report.SymbolizedNone}
	}
	d.rep.Stacks = append(d.rep.Stacks, st)
	return true
}

// endDump hands out the current heap dump, if it decoded any record
// (malformed records alone were already reported one by one).
func (s *Scanner) endDump() {
	d := &s.lws
	r := d.rep
	if r == nil {
		return
	}
	if d.records > 0 {
		r.Headline = fmt.Sprintf("libwebsockets heap dump: %d live allocation%s, %s (%d bytes)",
			d.records, plural(d.records), humanize.Bytes(d.bytes), d.bytes)
		if d.frameless > 0 {
			r.Headline += fmt.Sprintf("; %d without frames", d.frameless)
		}
		if d.bad > 0 {
			r.Headline += fmt.Sprintf("; %d record%s undecodable", d.bad, plural(d.bad))
		}
		r.Message = r.Headline
		s.ready = append(s.ready, r)
		s.made++
	}
	d.rep, d.records, d.frameless, d.bad, d.bytes, d.gap = nil, 0, 0, 0, 0, 0
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
