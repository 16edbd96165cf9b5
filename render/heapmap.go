package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/decompress/lwsheap"
	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/report"
)

// HeapMap is the heap map of `sanitrace lws heapmap` (CONTRACT.md): the
// JSON object of ../shared/lws/heapmap-expected.json, in its field order,
// and what the text form prints.
type HeapMap struct {
	Source             string               `json:"source"`
	Records            int                  `json:"records"`
	TotalBytes         uint64               `json:"total_bytes"`
	DistinctBacktraces int                  `json:"distinct_backtraces"`
	Backtraces         []HeapMapRow         `json:"backtraces"`
	Undecodable        []HeapMapUndecodable `json:"undecodable"`
	// undecodable counts every failed record, kept by the map or not.
	undecodable int
}

// HeapMapRow is one distinct backtrace. Source is set only when several
// inputs were read (line numbers are per input); Frames only with
// symbolization.
type HeapMapRow struct {
	PCs        []string    `json:"pcs"`
	Count      int         `json:"count"`
	TotalBytes uint64      `json:"total_bytes"`
	FirstLine  int         `json:"first_line"`
	Source     string      `json:"source,omitempty"`
	Frames     []JSONFrame `json:"frames,omitempty"`
	frames     []report.Frame
}

// HeapMapUndecodable is one failed record.
type HeapMapUndecodable struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Error  string `json:"error"`
	Source string `json:"source,omitempty"`
}

// hexPC formats a pc as both forms print it: 0x, lowercase.
func hexPC(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// HeapMapOf builds the heap map of m. multi says whether several inputs
// were read (then rows and failures name their input). frames, when not
// nil, gives the symbolized frames of a group.
func HeapMapOf(m *lwsheap.Map, source string, multi bool, frames func(*lwsheap.Group) []report.Frame) HeapMap {
	r := HeapMap{
		Source:      source,
		Records:     m.Records(),
		TotalBytes:  m.TotalBytes(),
		Backtraces:  []HeapMapRow{},
		Undecodable: []HeapMapUndecodable{},
		undecodable: m.UndecodableCount(),
	}
	for _, g := range m.Groups() {
		row := HeapMapRow{PCs: make([]string, len(g.PCs)), Count: g.Count, TotalBytes: g.TotalBytes, FirstLine: g.FirstLine}
		for i, pc := range g.PCs {
			row.PCs[i] = hexPC(pc)
		}
		if multi {
			row.Source = g.Source
		}
		if frames != nil {
			row.frames = frames(g)
			row.Frames = JSONFrames(row.frames)
		}
		r.Backtraces = append(r.Backtraces, row)
	}
	r.DistinctBacktraces = len(r.Backtraces)
	for _, u := range m.Undecodable() {
		j := HeapMapUndecodable{Line: u.Line, Text: u.Text, Error: u.Error}
		if multi {
			j.Source = u.Source
		}
		r.Undecodable = append(r.Undecodable, j)
	}
	return r
}

// heapMapFormats are the formats of a heap map (lws heapmap --format).
var heapMapFormats = byName[func(io.Writer, HeapMap) error]{
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

// WriteHeapMap writes r in format: text or json.
func WriteHeapMap(w io.Writer, format string, r HeapMap) error {
	write, err := heapMapFormats.lookup(format)
	if err != nil {
		return err
	}
	return write(w, r)
}

// WriteHeapMapJSON writes the JSON object, indented.
func WriteHeapMapJSON(w io.Writer, r HeapMap) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteHeapMapText writes r as a table a person can scan: bytes
// (humanized), count, share of all bytes, then the call path (symbolized
// frames when r has them, one per line, as decode prints frames; else the
// pcs).
func WriteHeapMapText(w io.Writer, r HeapMap) error {
	bw := bufio.NewWriter(w)
	undecodable := r.undecodable
	if undecodable < len(r.Undecodable) {
		undecodable = len(r.Undecodable)
	}
	fmt.Fprintf(bw, "heap map of %s: %d live allocation%s, %s (%d bytes) in %d distinct backtrace%s",
		r.Source, r.Records, pluralS(r.Records), humanize.Bytes(r.TotalBytes), r.TotalBytes,
		r.DistinctBacktraces, pluralS(r.DistinctBacktraces))
	if undecodable > 0 {
		fmt.Fprintf(bw, "; %d record%s undecodable", undecodable, pluralS(undecodable))
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
		case row.frames != nil:
			for i, f := range row.frames {
				if i > 0 {
					bw.WriteString(indent)
				}
				bw.WriteString(FrameText(i, f) + "\n")
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
		fmt.Fprintf(bw, "\n%d record%s could not be decoded:\n", undecodable, pluralS(undecodable))
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

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
