package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
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
// Kinds may hold a colon ("KASAN: slab-out-of-bounds") and frames do
// ("ns::f"), so the bucket's own tool and kind are cut off, not split at.
func (b *Bucket) Frames() []string {
	rest, ok := strings.CutPrefix(b.Signature, b.Tool+":"+b.Kind+":")
	if !ok || rest == "" {
		return nil
	}
	return strings.Split(rest, "|")
}

// BatchError is a problem with one input; the run went on without it.
type BatchError struct {
	Source BatchSource `json:"source"`
	Error  string      `json:"error"`
}

// JSONReportOf is the JSON schema v1 form of a report, as decode writes it.
func JSONReportOf(r *report.Report) JSONReport { return toJSON(r) }

// WriteBatchJSON writes doc as indented JSON, a chunk of reports, buckets
// or errors at a time, so that the output of a big run is never held in
// memory whole. The chunks are encoded on every CPU and written in order:
// ten thousand reports are 100 MB of JSON, which one goroutine takes a
// second to encode.
func WriteBatchJSON(w io.Writer, doc *BatchDocument) error { return WriteBatchJSONJobs(w, doc, 0) }

// WriteBatchJSONJobs is WriteBatchJSON with at most jobs goroutines
// encoding (<= 0: one per CPU).
func WriteBatchJSONJobs(w io.Writer, doc *BatchDocument, jobs int) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if _, err := fmt.Fprintf(w, "{\n  \"version\": %d,\n  \"inputs\": %d,\n", doc.Version, doc.Inputs); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	if err := writeJSONArray(w, jobs, "reports", len(doc.Reports), false, func(i int) any { return &doc.Reports[i] }); err != nil {
		return err
	}
	if err := writeJSONArray(w, jobs, "buckets", len(doc.Buckets), false, func(i int) any { return &doc.Buckets[i] }); err != nil {
		return err
	}
	if err := writeJSONArray(w, jobs, "errors", len(doc.Errors), true, func(i int) any { return &doc.Errors[i] }); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "}\n"); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

// jsonChunk is how many elements of an array one goroutine encodes at once.
const jsonChunk = 128

// writeJSONArray writes `  "key": [...]` with n elements, each indented as
// a member of the top-level object. jobs goroutines encode chunks, at most
// one chunk each ahead of the writer, which bounds the memory.
func writeJSONArray(w io.Writer, jobs int, key string, n int, last bool, item func(i int) any) error {
	if _, err := fmt.Fprintf(w, "  %q: [", key); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	type chunk struct {
		b   *bytes.Buffer
		err error
	}
	chunks := (n + jsonChunk - 1) / jsonChunk
	outs := make([]chan chunk, chunks)
	for c := range outs {
		outs[c] = make(chan chunk, 1)
	}
	// The chunks' buffers go round (jobs encoding, one being written):
	// fresh ones would be 100 MB of garbage for the collector to find.
	free := make(chan *bytes.Buffer, jobs+1)
	encode := func(c int) chunk {
		var buf *bytes.Buffer
		select {
		case buf = <-free:
			buf.Reset()
		default:
			buf = new(bytes.Buffer)
		}
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("    ", "  ")
		for i := c * jsonChunk; i < min(n, (c+1)*jsonChunk); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("\n    ")
			if err := enc.Encode(item(i)); err != nil {
				return chunk{err: err}
			}
			buf.Truncate(buf.Len() - 1) // Encode's newline
		}
		return chunk{b: buf}
	}
	ahead := make(chan struct{}, jobs)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for c := range chunks {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			go func() { outs[c] <- encode(c) }()
		}
	}()
	for c := range chunks {
		ch := <-outs[c]
		<-ahead
		if ch.err != nil {
			return fmt.Errorf("render json: %w", ch.err)
		}
		if _, err := w.Write(ch.b.Bytes()); err != nil {
			return fmt.Errorf("render json: %w", err)
		}
		select {
		case free <- ch.b:
		default:
		}
	}
	tail := "]"
	if n > 0 {
		tail = "\n  ]"
	}
	if !last {
		tail += ","
	}
	if _, err := io.WriteString(w, tail+"\n"); err != nil {
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

// ClassifyJSON classifies a frame of a report of tool read back from JSON
// (merge's input) as report.ClassIn does the model's.
func ClassifyJSON(tool string, f JSONFrame) report.FrameClass {
	pf := report.Frame{Function: orZero(f.Function), File: orZero(f.File), Module: orZero(f.Module)}
	return report.ClassIn(tool, &pf)
}

// orZero is *p, or the zero value where p is nil (JSON's null).
func orZero[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
