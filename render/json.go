package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/wire"
)

// JSON writes decode's document (wire.Reports, docs/json.md) one report
// at a time: the head goes out with the first report (or at Close when
// there is none), each report as soon as it is given, the tail at Close.
type JSON struct {
	w       io.Writer
	started bool
	n       int
	closed  bool
	out     []byte        // one report's bytes, reused
	compact bytes.Buffer  // one fragment's compact JSON, reused
	enc     *json.Encoder // writes into compact
	// The unattached fragments, written after the reports (fragment.go).
	frags        []wire.Fragment
	fragsOmitted int
}

// NewJSON returns a JSON renderer writing to w. Call Close at the end.
func NewJSON(w io.Writer) *JSON {
	j := &JSON{w: w}
	j.enc = json.NewEncoder(&j.compact)
	j.enc.SetEscapeHTML(false) // "<null>" and "=>" read better unescaped
	// Indented by appendIndent, not SetIndent: the same bytes for a third
	// of the work.
	return j
}

const jsonHead = "{\n  \"version\": 1,\n  \"reports\": ["

// Report writes one report.
func (j *JSON) Report(r *report.Report) error {
	if j.closed {
		return errors.New("render json: report after Close")
	}
	if r == nil {
		return errors.New("render json: nil report")
	}
	b := j.out[:0]
	if !j.started {
		b = append(b, jsonHead...)
		j.started = true
	}
	if j.n > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n"+jsonPrefix...)
	wr := wire.ReportOf(r)
	b = appendReport(b, &wr)
	j.out = b
	j.n++
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

// Close writes the end of the document. It does not close the writer.
func (j *JSON) Close() error {
	if j.closed {
		return nil
	}
	j.closed = true
	frags, err := j.fragmentsTail()
	if err != nil {
		return err
	}
	out := "]" + frags + "\n}\n"
	switch {
	case !j.started:
		out = jsonHead + out
	case j.n > 0:
		out = "\n  " + out
	}
	if _, err := io.WriteString(j.w, out); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}
