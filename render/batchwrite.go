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
	{"html", func(w io.Writer, d *wire.Batch, _ BatchOptions) error { return WriteHTML(w, d) }},
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
		if len(b.Reports) > 0 && b.Reports[0] < len(doc.Reports) {
			fmt.Fprintf(bw, "           %s\n", termsafe.Line(doc.Reports[b.Reports[0]].Headline))
		}
		fmt.Fprintf(bw, "           first: %s:%d\n", termsafe.Line(b.First.Name()), b.First.FirstLine)
	}
	if len(doc.Errors) > 0 {
		bw.WriteString("\nerrors:\n")
		for _, e := range doc.Errors {
			fmt.Fprintf(bw, "  %s: %s\n", termsafe.Line(e.Source.Name()), termsafe.Line(e.Error))
		}
	}
	return bw.Flush()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
