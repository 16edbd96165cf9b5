package lwsheap

import (
	"strconv"

	"github.com/sanitrace/sanitrace/render"
)

// Report is the JSON heap map of CONTRACT.md (`sanitrace lws heapmap
// --format json`), in the field order of ../shared/lws/heapmap-expected.json.
type Report struct {
	Source             string            `json:"source"`
	Records            int               `json:"records"`
	TotalBytes         uint64            `json:"total_bytes"`
	DistinctBacktraces int               `json:"distinct_backtraces"`
	Backtraces         []Row             `json:"backtraces"`
	Undecodable        []UndecodableJSON `json:"undecodable"`
}

// Row is one distinct backtrace. Source is set only when several inputs
// were read (line numbers are per input); Frames only with symbolization.
type Row struct {
	PCs        []string           `json:"pcs"`
	Count      int                `json:"count"`
	TotalBytes uint64             `json:"total_bytes"`
	FirstLine  int                `json:"first_line"`
	Source     string             `json:"source,omitempty"`
	Frames     []render.JSONFrame `json:"frames,omitempty"`
}

// UndecodableJSON is one failed record.
type UndecodableJSON struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Error  string `json:"error"`
	Source string `json:"source,omitempty"`
}

// Hex formats a pc as the JSON and text outputs print it: 0x, lowercase.
func Hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// Report builds the JSON object. multi says whether several inputs were
// read (then rows and failures name their input). frames, when not nil,
// gives the symbolized frames of a group.
func (m *Map) Report(source string, multi bool, frames func(*Group) []render.JSONFrame) Report {
	r := Report{
		Source:      source,
		Records:     m.records,
		TotalBytes:  m.totalBytes,
		Backtraces:  []Row{},
		Undecodable: []UndecodableJSON{},
	}
	for _, g := range m.Groups() {
		row := Row{PCs: make([]string, len(g.PCs)), Count: g.Count, TotalBytes: g.TotalBytes, FirstLine: g.FirstLine}
		for i, pc := range g.PCs {
			row.PCs[i] = Hex(pc)
		}
		if multi {
			row.Source = g.Source
		}
		if frames != nil {
			row.Frames = frames(g)
		}
		r.Backtraces = append(r.Backtraces, row)
	}
	r.DistinctBacktraces = len(r.Backtraces)
	for _, u := range m.undecodable {
		j := UndecodableJSON{Line: u.Line, Text: u.Text, Error: u.Error}
		if multi {
			j.Source = u.Source
		}
		r.Undecodable = append(r.Undecodable, j)
	}
	return r
}
