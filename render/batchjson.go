package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/sanitrace/sanitrace/wire"
)

// WriteBatchJSON writes a batch run's document as indented JSON, a chunk
// of reports, buckets or errors at a time, so that the output of a big run
// is never held in memory whole. The chunks are encoded on every CPU and written in order:
// ten thousand reports are 100 MB of JSON, which one goroutine takes a
// second to encode.
func WriteBatchJSON(w io.Writer, doc *wire.Batch) error { return WriteBatchJSONJobs(w, doc, 0) }

// WriteBatchJSONJobs is WriteBatchJSON with at most jobs goroutines
// encoding (<= 0: one per CPU).
func WriteBatchJSONJobs(w io.Writer, doc *wire.Batch, jobs int) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if _, err := fmt.Fprintf(w, "{\n  \"version\": %d,\n  \"inputs\": %d,\n", doc.Version, doc.Inputs); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	reports := func(dst []byte, i int) ([]byte, error) { return appendBatchReport(dst, &doc.Reports[i]), nil }
	if err := writeJSONArray(w, jobs, "reports", len(doc.Reports), false, reports); err != nil {
		return err
	}
	if err := writeJSONArray(w, jobs, "buckets", len(doc.Buckets), false, encoded(func(i int) any { return &doc.Buckets[i] })); err != nil {
		return err
	}
	frags := len(doc.Fragments) > 0 // the key is left out when there are none
	if err := writeJSONArray(w, jobs, "errors", len(doc.Errors), !frags, encoded(func(i int) any { return &doc.Errors[i] })); err != nil {
		return err
	}
	if frags {
		if err := writeJSONArray(w, jobs, "fragments", len(doc.Fragments), true, encoded(func(i int) any { return &doc.Fragments[i] })); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, "}\n"); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

// jsonChunk is how many elements of an array one goroutine encodes at once.
const jsonChunk = 128

// appendItem appends element i of an array, indented as a member of the
// top-level object's array (jsonPrefix, jsonIndent), without a newline.
type appendItem func(dst []byte, i int) ([]byte, error)

// encoded is the appendItem of arrays whose elements encoding/json writes:
// the buckets, errors and fragments, a few bytes each beside the reports.
func encoded(item func(i int) any) appendItem {
	return func(dst []byte, i int) ([]byte, error) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // as the reports' strings
		if err := enc.Encode(item(i)); err != nil {
			return dst, err
		}
		return appendIndent(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n")), jsonPrefix, jsonIndent), nil
	}
}

// writeJSONArray writes `  "key": [...]` with n elements, each indented as
// a member of the top-level object. jobs goroutines encode chunks, at most
// one chunk each ahead of the writer, which bounds the memory.
func writeJSONArray(w io.Writer, jobs int, key string, n int, last bool, item appendItem) error {
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
		for i := c * jsonChunk; i < min(n, (c+1)*jsonChunk); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("\n" + jsonPrefix)
			b, err := item(buf.AvailableBuffer(), i)
			if err != nil {
				return chunk{err: err}
			}
			buf.Write(b)
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
