package wire

import (
	"github.com/sanitrace/sanitrace/decompress/lwsheap"
	"github.com/sanitrace/sanitrace/report"
)

// HeapMap is the document of `sanitrace lws heapmap --format json`: the
// JSON object of ../shared/lws/heapmap-expected.json, in its key order.
type HeapMap struct {
	Source             string               `json:"source"`
	Records            int                  `json:"records"`
	TotalBytes         uint64               `json:"total_bytes"`
	DistinctBacktraces int                  `json:"distinct_backtraces"`
	Backtraces         []HeapMapRow         `json:"backtraces"`
	Undecodable        []HeapMapUndecodable `json:"undecodable"`
}

// HeapMapRow is one distinct backtrace. Source is set only when several
// inputs were read (line numbers are per input); Frames only with
// symbolization.
type HeapMapRow struct {
	PCs        []string `json:"pcs"`
	Count      int      `json:"count"`
	TotalBytes uint64   `json:"total_bytes"`
	FirstLine  int      `json:"first_line"`
	Source     string   `json:"source,omitempty"`
	Frames     []Frame  `json:"frames,omitempty"`
}

// HeapMapUndecodable is one failed record the map kept.
type HeapMapUndecodable struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Error  string `json:"error"`
	Source string `json:"source,omitempty"`
}

// HeapMapOf is the document of m, its inputs called source. multi says
// whether several inputs were read (then rows and failures name their
// input). frames, when not nil, gives the symbolized frames of a group.
func HeapMapOf(m *lwsheap.Map, source string, multi bool, frames func(*lwsheap.Group) []report.Frame) HeapMap {
	r := HeapMap{
		Source:      source,
		Records:     m.Records(),
		TotalBytes:  m.TotalBytes(),
		Backtraces:  []HeapMapRow{},
		Undecodable: []HeapMapUndecodable{},
	}
	for _, g := range m.Groups() {
		row := HeapMapRow{PCs: make([]string, len(g.PCs)), Count: g.Count, TotalBytes: g.TotalBytes, FirstLine: g.FirstLine}
		for i, pc := range g.PCs {
			row.PCs[i] = hex(pc)
		}
		if multi {
			row.Source = g.Source
		}
		if frames != nil {
			row.Frames = FramesOf(frames(g))
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
