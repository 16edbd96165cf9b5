package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// BatchFormats are the output formats of batch and merge.
var BatchFormats = []string{"json", "sarif", "markdown", "html", "text"}

// BatchOptions configure the batch writers.
type BatchOptions struct {
	// SourceRoot, when set, is the directory source paths are made relative
	// to (SARIF locations; GitHub resolves them against the repository).
	SourceRoot string
	// Version is sanitrace's version, named in SARIF's tool description.
	Version string
}

// WriteBatch writes doc in format (one of BatchFormats).
func WriteBatch(w io.Writer, format string, doc *BatchDocument, opts BatchOptions) error {
	switch format {
	case "json":
		return WriteBatchJSON(w, doc)
	case "sarif":
		return WriteSARIF(w, doc, opts)
	case "markdown":
		return WriteMarkdown(w, doc)
	case "html":
		return WriteHTML(w, doc)
	case "text":
		return WriteBatchText(w, doc)
	}
	return fmt.Errorf("format %q: want one of %s", format, strings.Join(BatchFormats, ", "))
}

// WriteBatchText writes a summary for people: one block per bucket, most
// frequent first, then the errors.
func WriteBatchText(w io.Writer, doc *BatchDocument) error {
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
		fmt.Fprintf(bw, "\n%s %4dx  %s: %s  [%s]\n", mark, b.Count, oneLine(b.Tool), oneLine(b.Kind), b.ID)
		if fs := b.Frames(); len(fs) > 0 {
			fmt.Fprintf(bw, "           %s\n", oneLine(strings.Join(fs, " <- ")))
		}
		if len(b.Reports) > 0 && b.Reports[0] < len(doc.Reports) {
			fmt.Fprintf(bw, "           %s\n", oneLine(doc.Reports[b.Reports[0]].Headline))
		}
		fmt.Fprintf(bw, "           first: %s:%d\n", oneLine(b.First.Name()), b.First.FirstLine)
	}
	if len(doc.Errors) > 0 {
		bw.WriteString("\nerrors:\n")
		for _, e := range doc.Errors {
			fmt.Fprintf(bw, "  %s: %s\n", oneLine(e.Source.Name()), oneLine(e.Error))
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

// oneLine keeps log-derived text on one line of the summary.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}
