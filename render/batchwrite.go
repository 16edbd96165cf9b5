package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/wire"
)

// batchFormats are the whole-run formats: the document of a batch or
// merge run in, bytes out. (New's table holds the formats that stream
// reports one at a time.)
var batchFormats = byName[func(io.Writer, *wire.Batch, BatchOptions) error]{
	{"json", func(w io.Writer, d *wire.Batch, o BatchOptions) error { return WriteBatchJSONJobs(w, d, o.Jobs) }},
	{"sarif", WriteSARIF},
	{"markdown", func(w io.Writer, d *wire.Batch, _ BatchOptions) error { return WriteMarkdown(w, d) }},
	{"html", WriteHTML},
	{"text", func(w io.Writer, d *wire.Batch, _ BatchOptions) error { return WriteBatchText(w, d) }},
}

// BatchFormats lists the formats WriteBatch accepts.
func BatchFormats() []string { return batchFormats.names() }

// BatchOptions configure the batch writers.
type BatchOptions struct {
	// SourceRoot, when set, is the directory source paths are made relative
	// to (SARIF locations; GitHub resolves them against the repository).
	SourceRoot string
	// Version is sanitrace's version, named in SARIF's tool description.
	Version string
	// Baseline says that the run had a baseline: the page marks the
	// buckets it knew as known.
	Baseline bool
	// SourcePath maps a frame's source file to where it can be read here
	// (the page's source lines); nil means the identity.
	SourcePath func(string) string
	// Jobs is how many goroutines encode the JSON document's elements
	// (batch's -j); <= 0 means one per CPU.
	Jobs int
}

// CheckBatchFormat says whether WriteBatch knows format.
func CheckBatchFormat(format string) error {
	_, err := batchFormats.lookup(format)
	return err
}

// WriteBatch writes doc in format (one of BatchFormats).
func WriteBatch(w io.Writer, format string, doc *wire.Batch, opts BatchOptions) error {
	write, err := batchFormats.lookup(format)
	if err != nil {
		return err
	}
	return write(w, doc, opts)
}

// WriteBatchText writes a summary for people: one block per bucket, most
// frequent first, then the errors.
func WriteBatchText(w io.Writer, doc *wire.Batch) error {
	bw := bufio.NewWriter(w)
	newCount := 0
	for _, b := range doc.Buckets {
		if b.New {
			newCount++
		}
	}
	fmt.Fprintf(bw, "sanitrace batch: %s, %s in %s", plural(doc.Inputs, "log"), plural(len(doc.Reports), "report"), plural(len(doc.Buckets), "bucket"))
	if newCount > 0 {
		fmt.Fprintf(bw, " (%d new)", newCount)
	}
	if len(doc.Errors) > 0 {
		fmt.Fprintf(bw, ", %s", plural(len(doc.Errors), "error"))
	}
	if len(doc.Fragments) > 0 {
		fmt.Fprintf(bw, ", %s (not reports)", plural(len(doc.Fragments), "unattached fragment"))
	}
	bw.WriteString("\n")
	for _, b := range doc.Buckets {
		mark := "   "
		if b.New {
			mark = "NEW"
		}
		fmt.Fprintf(bw, "\n%s %4dx  %s: %s  [%s]\n", mark, b.Count, termsafe.Line(b.Tool), termsafe.Line(b.Kind), b.ID)
		if fs := b.Frames(); len(fs) > 0 {
			fmt.Fprintf(bw, "           %s\n", termsafe.Line(strings.Join(fs, " <- ")))
		}
		if note := signatureNote(&b); note != "" {
			fmt.Fprintf(bw, "           (%s)\n", termsafe.Line(note))
		}
		for _, m := range b.Merged {
			fmt.Fprintf(bw, "           joined: %s %dx  %s\n", m.ID, m.Count, termsafe.Line(m.Signature))
		}
		if len(b.Reports) > 0 && b.Reports[0] < len(doc.Reports) {
			fmt.Fprintf(bw, "           %s\n", termsafe.Line(doc.Reports[b.Reports[0]].Headline))
		}
		fmt.Fprintf(bw, "           first: %s:%d\n", termsafe.Line(b.First.Name()), b.First.FirstLine)
	}
	if len(doc.Fragments) > 0 {
		// Frames outside every report: no crash of their own, but not
		// lost either. Where they are is what a reader needs.
		bw.WriteString("\nunattached fragments (frames outside any report):\n")
		for _, f := range doc.Fragments {
			fmt.Fprintf(bw, "  %s:%d-%d: %s\n", termsafe.Line(f.Source.Name()), f.Source.FirstLine, f.Source.LastLine, plural(f.Frames, "frame line"))
		}
	}
	if len(doc.Errors) > 0 {
		bw.WriteString("\nerrors:\n")
		for _, e := range doc.Errors {
			fmt.Fprintf(bw, "  %s: %s\n", termsafe.Line(e.Source.Name()), termsafe.Line(e.Error))
		}
	}
	return bw.Flush()
}

// signatureNote says how a bucket's signature was made when it was not
// from in-app frames, "" when it was.
func signatureNote(b *wire.Bucket) string {
	switch b.SignatureFrom {
	case "fallback":
		return "no in-app frame: signature from the top frames outside the runtimes"
	case "headline":
		return "no frame: signature from the headline's file"
	case "corrupted":
		return "corrupted: " + b.Corrupted
	}
	return ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
