package render

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/wire"
)

// GitHub takes at most 1 MiB of $GITHUB_STEP_SUMMARY per step and drops
// the whole summary when it is larger: mdMaxBuckets bounds the buckets the
// summary lists, mdMaxLine every line of log text in it, and mdBudget what
// the bucket details and the error list may bring the summary to (the
// rest is in the JSON output).
const (
	mdMaxBuckets = 100
	mdMaxLine    = 500
	mdBudget     = 900 << 10
)

// WriteMarkdown writes doc as a summary for $GITHUB_STEP_SUMMARY (GitHub
// Flavored Markdown): the counts, a table of buckets with the new ones
// first, then each bucket's headline and top frames. Every piece of text
// that comes from a log is a code span or a code block, so a log can add
// neither markup, nor HTML, nor links (GFM autolinks bare URLs elsewhere).
func WriteMarkdown(w io.Writer, doc *wire.Batch) error {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	size := func() int { return cw.n + bw.Buffered() }
	order := bucketsNewFirst(doc)
	newCount := 0
	for _, b := range doc.Buckets {
		if b.New {
			newCount++
		}
	}
	fmt.Fprintf(bw, "## sanitrace: %s in %s", plural(len(doc.Buckets), "distinct bug"), plural(len(doc.Reports), "report"))
	if newCount > 0 {
		fmt.Fprintf(bw, ", **%d new**", newCount)
	}
	fmt.Fprintf(bw, "\n\n%s decoded", plural(doc.Inputs, "log"))
	if len(doc.Errors) > 0 {
		fmt.Fprintf(bw, "; %s (listed at the end)", plural(len(doc.Errors), "input error"))
	}
	if len(doc.Fragments) > 0 {
		fmt.Fprintf(bw, "; %s: frames outside any report, not counted as bugs (in the JSON output)", plural(len(doc.Fragments), "unattached fragment"))
	}
	bw.WriteString(".\n\n")
	if len(order) > 0 {
		bw.WriteString("| | Count | Tool | Kind | Top frames | Bucket |\n|---|---:|---|---|---|---|\n")
		for i, b := range order {
			if i == mdMaxBuckets {
				fmt.Fprintf(bw, "\n%d more buckets are in the JSON output.\n", len(order)-mdMaxBuckets)
				break
			}
			mark := ""
			if b.New {
				mark = "**new**"
			}
			fmt.Fprintf(bw, "| %s | %d | %s | %s | %s | %s |\n", mark, b.Count, mdCode(b.Tool), mdCode(b.Kind),
				mdFrames(b.Frames()), mdCode(b.ID))
		}
		bw.WriteString("\n")
	}
	for i, b := range order {
		if i == mdMaxBuckets {
			break
		}
		if size() > mdBudget {
			fmt.Fprintf(bw, "The details of %d more buckets are in the JSON output.\n\n", min(len(order), mdMaxBuckets)-i)
			break
		}
		title := "Bucket"
		if b.New {
			title = "New bucket"
		}
		// The summary line is an HTML block, where Markdown is not parsed:
		// its log text is HTML-escaped instead.
		fmt.Fprintf(bw, "<details><summary>%s <code>%s</code>: <code>%s</code>, %s</summary>\n\n", title,
			html.EscapeString(b.ID), html.EscapeString(clip(termsafe.Line(b.Kind), mdMaxLine)), plural(b.Count, "report"))
		if len(b.Reports) > 0 && b.Reports[0] < len(doc.Reports) {
			r := &doc.Reports[b.Reports[0]]
			text := r.Headline
			if len(r.Stacks) > 0 {
				s := r.Stacks[0]
				text += "\n" + s.Title
				for j, f := range s.Frames {
					if j == 12 {
						text += "\n    ... " + plural(len(s.Frames)-j, "more frame")
						break
					}
					// The frame in its producer's layout, each line indented.
					text += "\n    " + strings.ReplaceAll(batchFrame(r.Tool, j, f), "\n", "\n    ")
				}
			}
			bw.WriteString(mdBlock(text))
		}
		if note := signatureNote(b); note != "" {
			fmt.Fprintf(bw, "Signature: %s.\n\n", mdCode(clip(termsafe.Line(note), mdMaxLine)))
		}
		for _, m := range b.Merged {
			fmt.Fprintf(bw, "Joined by `--group similar`: %s, %s.\n\n", mdCode(m.ID), plural(m.Count, "report"))
		}
		fmt.Fprintf(bw, "First seen in %s line %d.\n\n</details>\n\n", mdCode(b.First.Name()), b.First.FirstLine)
	}
	if len(doc.Errors) > 0 {
		bw.WriteString("### Input errors\n\n")
		for i, e := range doc.Errors {
			if size() > mdBudget {
				fmt.Fprintf(bw, "- %d more are in the JSON output.\n", len(doc.Errors)-i)
				break
			}
			fmt.Fprintf(bw, "- %s: %s\n", mdCode(e.Source.Name()), mdCode(e.Error))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// bucketsNewFirst lists the buckets, the new ones first, each group in
// the document's order (most reports first).
func bucketsNewFirst(doc *wire.Batch) []*wire.Bucket {
	var out []*wire.Bucket
	for _, want := range []bool{true, false} {
		for i := range doc.Buckets {
			if doc.Buckets[i].New == want {
				out = append(out, &doc.Buckets[i])
			}
		}
	}
	return out
}

// frameLine spells a frame as the runtimes do: "#0 func file:line:col".
func frameLine(i int, f wire.Frame) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d", i)
	if f.PC != nil {
		b.WriteString(" " + *f.PC)
	}
	if f.Function != nil {
		b.WriteString(" in " + *f.Function)
	}
	switch {
	case f.File != nil:
		b.WriteString(" " + *f.File)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
			if f.Column > 0 {
				fmt.Fprintf(&b, ":%d", f.Column)
			}
		}
	case f.Module != nil:
		b.WriteString(" (" + *f.Module)
		if f.Offset != nil {
			b.WriteString("+" + *f.Offset)
		}
		b.WriteString(")")
	}
	return b.String()
}

func mdFrames(fs []string) string {
	if len(fs) == 0 {
		return ""
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = mdCode(f)
	}
	return strings.Join(parts, " ← ")
}

// mdCode makes s a GFM code span that is safe inside a table cell: on one
// line, fenced by more backticks than it holds in a row, with "|" escaped
// (GFM splits table cells before it parses code spans). Empty text gives
// nothing: two backticks alone are no code span.
func mdCode(s string) string {
	s = clip(termsafe.Text(strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")), mdMaxLine)
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdBlock makes s a fenced code block: a fence of more tildes than any line
// of s starts with, so no line of the log can close it.
func mdBlock(s string) string {
	n := 3
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = clip(termsafe.Text(line), mdMaxLine) // carriage returns too
	}
	s = strings.Join(lines, "\n")
	for _, line := range lines {
		t := strings.TrimLeft(line, " ")
		if k := len(t) - len(strings.TrimLeft(t, "~")); k >= n {
			n = k + 1
		}
		if k := len(t) - len(strings.TrimLeft(t, "`")); k >= n {
			n = k + 1
		}
	}
	fence := strings.Repeat("~", n)
	return fence + "text\n" + s + "\n" + fence + "\n\n"
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// clip shortens s to at most n bytes (on a UTF-8 boundary when s is
// UTF-8), marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
