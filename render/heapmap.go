package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/sanitrace/sanitrace/decompress/lwsheap"
	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/wire"
)

// HeapMapOptions say what the heap map of `sanitrace lws heapmap`
// (docs/cli.md) is of.
type HeapMapOptions struct {
	// Source names the inputs.
	Source string
	// Multi says that several inputs were read: rows and failures then
	// name their input (line numbers are per input).
	Multi bool
	// Frames, when not nil, gives the symbolized frames of a group.
	Frames func(*lwsheap.Group) []report.Frame
}

// heapMapFormats are the formats of a heap map (lws heapmap --format).
var heapMapFormats = byName[func(io.Writer, *lwsheap.Map, HeapMapOptions) error]{
	{"text", WriteHeapMapText},
	{"json", WriteHeapMapJSON},
}

// HeapMapFormats lists the formats WriteHeapMap accepts.
func HeapMapFormats() []string { return heapMapFormats.names() }

// CheckHeapMapFormat says whether WriteHeapMap knows format.
func CheckHeapMapFormat(format string) error {
	_, err := heapMapFormats.lookup(format)
	return err
}

// WriteHeapMap writes the heap map of m in format: text or json.
func WriteHeapMap(w io.Writer, format string, m *lwsheap.Map, opts HeapMapOptions) error {
	write, err := heapMapFormats.lookup(format)
	if err != nil {
		return err
	}
	return write(w, m, opts)
}

// WriteHeapMapJSON writes the heap map's document (wire.HeapMap),
// indented.
func WriteHeapMapJSON(w io.Writer, m *lwsheap.Map, opts HeapMapOptions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(wire.HeapMapOf(m, opts.Source, opts.Multi, opts.Frames))
}

// WriteHeapMapText writes the heap map as a table a person can scan:
// bytes (humanized), count, share of all bytes, then the call path
// (symbolized frames when there are, one per line, as decode prints
// frames; else the pcs).
func WriteHeapMapText(w io.Writer, m *lwsheap.Map, opts HeapMapOptions) error {
	bw := bufio.NewWriter(w)
	groups, kept := m.Groups(), m.Undecodable()
	undecodable := max(m.UndecodableCount(), len(kept))
	total := m.TotalBytes()
	fmt.Fprintf(bw, "heap map of %s: %d live allocation%s, %s (%d bytes) in %d distinct backtrace%s",
		termsafe.Text(opts.Source), m.Records(), pluralS(m.Records()), humanize.Bytes(total), total,
		len(groups), pluralS(len(groups)))
	if undecodable > 0 {
		fmt.Fprintf(bw, "; %d record%s undecodable", undecodable, pluralS(undecodable))
	}
	bw.WriteString("\n")
	if len(groups) > 0 {
		fmt.Fprintf(bw, "\n%10s %7s %7s  %s\n", "BYTES", "COUNT", "SHARE", "CALL PATH (innermost first)")
	}
	const indent = "                            " // the width of the three columns
	for _, g := range groups {
		share := "-"
		if total > 0 {
			share = strconv.FormatFloat(100*float64(g.TotalBytes)/float64(total), 'f', 1, 64) + "%"
		}
		fmt.Fprintf(bw, "%10s %7d %7s  ", humanize.Bytes(g.TotalBytes), g.Count, share)
		var frames []report.Frame
		if opts.Frames != nil {
			frames = opts.Frames(g)
		}
		switch {
		case frames != nil:
			for i, f := range frames {
				if i > 0 {
					bw.WriteString(indent)
				}
				bw.WriteString(FrameText(i, f) + "\n")
			}
		case len(g.PCs) == 0:
			bw.WriteString("(no frames: every frame was snipped)\n")
		default:
			for i, pc := range g.PCs {
				if i > 0 {
					bw.WriteByte(' ')
				}
				bw.WriteString("0x" + strconv.FormatUint(pc, 16))
			}
			bw.WriteString("\n")
		}
		if opts.Multi && g.Source != "" {
			fmt.Fprintf(bw, "%sfirst seen at %s:%d\n", indent, termsafe.Text(g.Source), g.FirstLine)
		}
	}
	if undecodable > 0 {
		fmt.Fprintf(bw, "\n%d record%s could not be decoded:\n", undecodable, pluralS(undecodable))
		for _, u := range kept {
			src := opts.Source
			if opts.Multi && u.Source != "" {
				src = u.Source
			}
			fmt.Fprintf(bw, "  %s:%d: %s: %s\n", termsafe.Text(src), u.Line, termsafe.Line(u.Error), termsafe.Text(u.Text))
		}
		if n := undecodable - len(kept); n > 0 {
			fmt.Fprintf(bw, "  ... and %d more\n", n)
		}
	}
	return bw.Flush()
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
