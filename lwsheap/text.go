package lwsheap

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/render"
)

// WriteText writes r as a table a person can scan: bytes (humanized),
// count, share of all bytes, then the call path (symbolized frames when r
// has them, one per line; else the pcs). undecodable is the number of
// failed records, which may exceed the ones r lists.
func WriteText(w io.Writer, r Report, undecodable int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "heap map of %s: %d live allocation%s, %s (%d bytes) in %d distinct backtrace%s",
		r.Source, r.Records, plural(r.Records), humanize.Bytes(r.TotalBytes), r.TotalBytes,
		r.DistinctBacktraces, plural(r.DistinctBacktraces))
	if undecodable > 0 {
		fmt.Fprintf(bw, "; %d record%s undecodable", undecodable, plural(undecodable))
	}
	bw.WriteString("\n")
	if len(r.Backtraces) > 0 {
		fmt.Fprintf(bw, "\n%10s %7s %7s  %s\n", "BYTES", "COUNT", "SHARE", "CALL PATH (innermost first)")
	}
	const indent = "                            " // the width of the three columns
	for _, row := range r.Backtraces {
		share := "-"
		if r.TotalBytes > 0 {
			share = strconv.FormatFloat(100*float64(row.TotalBytes)/float64(r.TotalBytes), 'f', 1, 64) + "%"
		}
		fmt.Fprintf(bw, "%10s %7d %7s  ", humanize.Bytes(row.TotalBytes), row.Count, share)
		switch {
		case row.Frames != nil:
			for i, f := range row.Frames {
				if i > 0 {
					bw.WriteString(indent)
				}
				fmt.Fprintf(bw, "#%d %s%s\n", i, deref(f.PC), FrameText(f))
			}
		case len(row.PCs) == 0:
			bw.WriteString("(no frames: every frame was snipped)\n")
		default:
			bw.WriteString(strings.Join(row.PCs, " ") + "\n")
		}
		if row.Source != "" {
			fmt.Fprintf(bw, "%sfirst seen at %s:%d\n", indent, row.Source, row.FirstLine)
		}
	}
	if undecodable > 0 {
		fmt.Fprintf(bw, "\n%d record%s could not be decoded:\n", undecodable, plural(undecodable))
		for _, u := range r.Undecodable {
			src := u.Source
			if src == "" {
				src = r.Source
			}
			fmt.Fprintf(bw, "  %s:%d: %s: %s\n", src, u.Line, u.Error, u.Text)
		}
		if n := undecodable - len(r.Undecodable); n > 0 {
			fmt.Fprintf(bw, "  ... and %d more\n", n)
		}
	}
	return bw.Flush()
}

// FrameText is what follows the pc of a frame in text output:
// " in FUNC FILE:LINE:COL", " (inlined)" for inlined frames, or
// " in ?? (MODULE+0xOFF)" when nothing is known.
func FrameText(f render.JSONFrame) string {
	var b strings.Builder
	b.WriteString(" in ")
	if f.Function != nil {
		b.WriteString(*f.Function)
	} else {
		b.WriteString("??")
	}
	switch {
	case f.File != nil:
		b.WriteString(" " + *f.File)
		if f.Line > 0 {
			b.WriteString(":" + strconv.Itoa(f.Line))
			if f.Column > 0 {
				b.WriteString(":" + strconv.Itoa(f.Column))
			}
		}
	case f.Module != nil && f.Offset != nil:
		b.WriteString(" (" + filepath.Base(*f.Module) + "+" + *f.Offset + ")")
	case f.Module == nil:
		b.WriteString(" (not in the --obj binary)")
	}
	if f.Inlined {
		b.WriteString(" (inlined)")
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// deref gives the text of an optional JSON string ("" when absent).
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
