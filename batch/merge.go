package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sanitrace/sanitrace/wire"
)

// Merge joins batch documents (the shards of one input set) into the
// document the unsharded run gives: reports and errors in the same order,
// buckets rebuilt from the reports. With a baseline, new is decided
// against it; without, a bucket is new when a shard said so.
func Merge(docs []*wire.Batch, baseline map[string]bool) (*wire.Batch, error) {
	var items []item
	var errs []wire.BatchError
	seenErr := make(map[string]bool)
	wasNew := make(map[string]bool)
	inputs := 0
	in := newInterner()
	for di, d := range docs {
		inputs += d.Inputs
		sigs := make(map[string]string, len(d.Buckets))
		for _, b := range d.Buckets {
			sigs[b.ID] = b.Signature
			if b.New {
				wasNew[b.ID] = true
			}
		}
		for ri, rep := range d.Reports {
			sig, ok := sigs[rep.Bucket]
			if !ok {
				return nil, fmt.Errorf("document %d: report %d names bucket %q, which the document does not hold", di+1, ri, rep.Bucket)
			}
			in.report(&rep.Report)
			items = append(items, item{rep: rep, sig: sig})
		}
		for _, e := range d.Errors {
			key := e.Source.Name() + "\x00" + e.Error
			if !seenErr[key] {
				seenErr[key] = true
				errs = append(errs, e)
			}
		}
	}
	isNew := func(id string) bool { return wasNew[id] }
	if baseline != nil {
		isNew = baselineNew(baseline)
	}
	return assemble(inputs, items, errs, isNew), nil
}

// MergeFiles is Merge over the batch JSON outputs in the files at paths.
// The error of a file that cannot be read names it.
func MergeFiles(paths []string, baseline map[string]bool) (*wire.Batch, error) {
	docs := make([]*wire.Batch, 0, len(paths))
	for _, p := range paths {
		d, err := readDocument(p)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return Merge(docs, baseline)
}

func readDocument(path string) (*wire.Batch, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := wire.ReadBatch(f)
	var pe *fs.PathError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		return nil, pe // it names the file already
	default:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// LoadBaseline reads the bucket ids of a previous batch JSON output; its
// error says what is wrong in the project's words (wire.ReadBatch).
func LoadBaseline(r io.Reader) (map[string]bool, error) {
	doc, err := wire.ReadBatch(r)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(doc.Buckets))
	for _, b := range doc.Buckets {
		ids[b.ID] = true
	}
	return ids, nil
}

// Bugs counts the reports that are bugs (libwebsockets heap dumps are not).
func Bugs(doc *wire.Batch) int {
	n := 0
	for _, r := range doc.Reports {
		if !isHeapDump(r.Tool, r.Kind) {
			n++
		}
	}
	return n
}

// NewBuckets counts the buckets of bugs that are new.
func NewBuckets(doc *wire.Batch) int {
	n := 0
	for _, b := range doc.Buckets {
		if b.New && !isHeapDump(b.Tool, b.Kind) {
			n++
		}
	}
	return n
}
