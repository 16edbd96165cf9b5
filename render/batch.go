package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// The batch document: what `sanitrace batch --format json` writes and
// `sanitrace merge` reads back (docs/json.md). Every batch output format is
// rendered from it, so a merged run and an unsharded run print alike.

// BatchDocument is the whole output of a batch run.
type BatchDocument struct {
	Version int           `json:"version"`
	Inputs  int           `json:"inputs"`
	Reports []BatchReport `json:"reports"`
	Buckets []Bucket      `json:"buckets"`
	Errors  []BatchError  `json:"errors"`
}

// BatchReport is a decode report plus where it was found and its bucket.
type BatchReport struct {
	JSONReport
	Source BatchSource `json:"source"`
	Bucket string      `json:"bucket"`
}

// BatchSource names a log (a file, or a member of an archive) and, for a
// report, the lines it spans.
type BatchSource struct {
	Path      string  `json:"path"`
	Member    *string `json:"member"`
	FirstLine int     `json:"first_line,omitempty"`
	LastLine  int     `json:"last_line,omitempty"`
}

// Name is the source's one-word spelling: "run.log" or "ci.zip!/run.log".
func (s BatchSource) Name() string {
	if s.Member == nil || *s.Member == "" {
		return s.Path
	}
	return s.Path + "!/" + *s.Member
}

// Bucket is one distinct bug: the reports that share a signature.
type Bucket struct {
	ID        string      `json:"id"`
	Signature string      `json:"signature"`
	Tool      string      `json:"tool"`
	Kind      string      `json:"kind"`
	Count     int         `json:"count"`
	New       bool        `json:"new"`
	Reports   []int       `json:"reports"`
	First     BatchSource `json:"first"`
	Last      BatchSource `json:"last"`
}

// Frames are the signature's frames (after "tool:kind:"), as normalised.
// Neither a tool nor a kind holds a colon; frames may ("ns::f").
func (b *Bucket) Frames() []string {
	parts := strings.SplitN(b.Signature, ":", 3)
	if len(parts) < 3 || parts[2] == "" {
		return nil
	}
	return strings.Split(parts[2], "|")
}

// BatchError is a problem with one input; the run went on without it.
type BatchError struct {
	Source BatchSource `json:"source"`
	Error  string      `json:"error"`
}

// JSONReportOf is the JSON schema v1 form of a report, as decode writes it.
func JSONReportOf(r *report.Report) JSONReport { return toJSON(r) }

// WriteBatchJSON writes doc as indented JSON, one report, bucket or error
// at a time, so that the output of a big run is never held in memory whole.
func WriteBatchJSON(w io.Writer, doc *BatchDocument) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	fmt.Fprintf(&buf, "{\n  \"version\": %d,\n  \"inputs\": %d,\n", doc.Version, doc.Inputs)
	array := func(key string, n int, last bool, item func(i int) any) error {
		fmt.Fprintf(&buf, "  %q: [", key)
		for i := 0; i < n; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("\n    ")
			if err := enc.Encode(item(i)); err != nil {
				return fmt.Errorf("render json: %w", err)
			}
			buf.Truncate(buf.Len() - 1) // Encode's newline
			if buf.Len() >= 64<<10 {
				if _, err := w.Write(buf.Bytes()); err != nil {
					return fmt.Errorf("render json: %w", err)
				}
				buf.Reset()
			}
		}
		if n > 0 {
			buf.WriteString("\n  ")
		}
		buf.WriteString("]")
		if !last {
			buf.WriteString(",")
		}
		buf.WriteString("\n")
		return nil
	}
	if err := array("reports", len(doc.Reports), false, func(i int) any { return &doc.Reports[i] }); err != nil {
		return err
	}
	if err := array("buckets", len(doc.Buckets), false, func(i int) any { return &doc.Buckets[i] }); err != nil {
		return err
	}
	if err := array("errors", len(doc.Errors), true, func(i int) any { return &doc.Errors[i] }); err != nil {
		return err
	}
	buf.WriteString("}\n")
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

// ReadBatchJSON reads a document that WriteBatchJSON wrote.
func ReadBatchJSON(r io.Reader) (*BatchDocument, error) {
	var doc BatchDocument
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if doc.Version != JSONVersion {
		return nil, fmt.Errorf("batch JSON version %d, want %d", doc.Version, JSONVersion)
	}
	return &doc, nil
}

// ClassifyJSON classifies a frame read back from JSON (merge's input) as
// Classify does the model's.
func ClassifyJSON(f JSONFrame) report.FrameClass {
	var pf report.Frame
	if f.Function != nil {
		pf.Function = *f.Function
	}
	if f.File != nil {
		pf.File = *f.File
	}
	if f.Module != nil {
		pf.Module = *f.Module
	}
	return pf.Class()
}
