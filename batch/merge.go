package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/triage/rules"
	"github.com/sanitrace/sanitrace/wire"
)

// MergeOptions configure Merge.
type MergeOptions struct {
	// Baseline: as Options.Baseline; nil: a bucket is new when a shard
	// said so.
	Baseline map[string]bool
	// GroupSimilar: as Options.GroupSimilar.
	GroupSimilar bool
	// Rules say which frames are in-app (the writers' user frames): the
	// rules the shards ran with, since the document does not carry them;
	// nil means rules.Defaults. Signatures are the shards'.
	Rules *rules.Set
}

// userFrames sets the User of r's frames from rs (nil: rules.Defaults), as
// the run that wrote the document did.
func userFrames(r *wire.BatchReport, rs *rules.Set) {
	if rs == nil {
		rs = rules.Defaults()
	}
	p := report.ProducerOf(r.Tool)
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	for si := range r.Stacks {
		fs := r.Stacks[si].Frames
		for fi := range fs {
			f := report.Frame{Function: str(fs[fi].Function), File: str(fs[fi].File), Module: str(fs[fi].Module)}
			fs[fi].User = rs.InApp(p, &f)
		}
	}
}

// Merge joins batch documents (the shards of one input set) into the
// document the unsharded run gives: reports and errors in the same order,
// buckets rebuilt from the reports (similar ones joined when similar is
// set, as Options.GroupSimilar does). With a baseline, new is decided
// against it; without, a bucket is new when a shard said so.
func Merge(docs []*wire.Batch, opts MergeOptions) (*wire.Batch, error) {
	baseline, similar := opts.Baseline, opts.GroupSimilar
	var items []item
	var errs []wire.BatchError
	var frags []wire.BatchFragment
	seenErr := make(map[string]bool)
	wasNew := make(map[string]bool)
	inputs := 0
	in := newInterner()
	for di, d := range docs {
		inputs += d.Inputs
		sigs := make(map[string]string, len(d.Buckets))
		froms := make(map[string]string, len(d.Buckets))
		for _, b := range d.Buckets {
			sigs[b.ID] = b.Signature
			froms[b.ID] = b.SignatureFrom
			if b.New {
				wasNew[b.ID] = true
			}
		}
		for ri, rep := range d.Reports {
			sig, ok := sigs[rep.Bucket]
			if !ok {
				return nil, fmt.Errorf("document %d: report %d names bucket %q, which the document does not hold", di+1, ri, rep.Bucket)
			}
			userFrames(&rep, opts.Rules)
			in.report(&rep.Report)
			items = append(items, item{rep: rep, sig: sig, from: froms[rep.Bucket]})
		}
		frags = append(frags, d.Fragments...)
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
	return assemble(inputs, items, errs, frags, isNew, similar), nil
}

// MergeFiles is Merge over the batch JSON outputs in the files at paths.
// The error of a file that cannot be read names it.
func MergeFiles(paths []string, opts MergeOptions) (*wire.Batch, error) {
	docs := make([]*wire.Batch, 0, len(paths))
	for _, p := range paths {
		d, err := readDocument(p)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return Merge(docs, opts)
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
		for _, m := range b.Merged { // --group similar joined them: known too
			ids[m.ID] = true
		}
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
