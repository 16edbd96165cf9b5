package lwsheap

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/sanitrace/sanitrace/decompress"
)

// MaxUndecodable bounds how many failed records a Map keeps (with their
// text); the rest are only counted, so that memory stays bounded on a log
// that is all garbage.
const MaxUndecodable = 100000

// maxText bounds the text kept for one failed record.
const maxText = 512

// Group is one distinct backtrace: the records whose pc sequences are equal.
type Group struct {
	PCs        []uint64
	Count      int
	TotalBytes uint64
	Source     string // input of the first record
	FirstLine  int    // line of the first record in Source
}

// Undecodable is a record that failed to decode.
type Undecodable struct {
	Source string
	Line   int
	Text   string // the line, ANSI escapes and trailing whitespace removed
	Error  string // the error class, e.g. "length-mismatch"
	Detail string // the full error message
}

// Map accumulates records. The zero value is not ready; use New.
type Map struct {
	index        map[string]int // pc sequence (8 bytes per pc) -> groups index
	groups       []*Group
	key          []byte
	records      int
	totalBytes   uint64
	undecodable  []Undecodable
	nUndecodable int
}

// New returns an empty Map.
func New() *Map { return &Map{index: make(map[string]int)} }

// Add counts one decoded record. It refuses (with decompress.ErrSizeOverflow)
// a record whose size would overflow a 64-bit byte total; the caller
// reports it as undecodable.
func (m *Map) Add(source string, line int, bt decompress.Backtrace) error {
	if m.totalBytes+bt.Size < m.totalBytes {
		return &decompress.Error{Code: decompress.ErrSizeOverflow,
			Detail: fmt.Sprintf("size %d makes the byte total exceed 2^64-1", bt.Size)}
	}
	m.key = m.key[:0]
	for _, pc := range bt.PCs {
		m.key = binary.LittleEndian.AppendUint64(m.key, pc)
	}
	i, ok := m.index[string(m.key)] // no allocation for the lookup
	if !ok {
		i = len(m.groups)
		m.index[string(m.key)] = i
		m.groups = append(m.groups, &Group{
			PCs: append([]uint64{}, bt.PCs...), Source: source, FirstLine: line,
		})
	}
	g := m.groups[i]
	// A group total never exceeds the overall total, so one check covers both.
	g.Count++
	g.TotalBytes += bt.Size
	m.records++
	m.totalBytes += bt.Size
	return nil
}

// AddUndecodable records a failed record; err is a *decompress.Error or
// anything else (classed "error").
func (m *Map) AddUndecodable(source string, line int, text []byte, err error) {
	m.nUndecodable++
	if len(m.undecodable) >= MaxUndecodable {
		return
	}
	class := "error"
	if e, ok := err.(*decompress.Error); ok {
		class = string(e.Code)
	}
	if len(text) > maxText {
		text = append(text[:maxText:maxText], "…"...)
	}
	m.undecodable = append(m.undecodable, Undecodable{
		Source: source, Line: line, Text: string(text), Error: class, Detail: err.Error(),
	})
}

// Records is the number of decoded records; TotalBytes their summed sizes.
func (m *Map) Records() int { return m.records }

// TotalBytes is the sum of the sizes of all decoded records.
func (m *Map) TotalBytes() uint64 { return m.totalBytes }

// UndecodableCount is the number of failed records, kept or not.
func (m *Map) UndecodableCount() int { return m.nUndecodable }

// Undecodable returns the kept failed records in input order.
func (m *Map) Undecodable() []Undecodable { return m.undecodable }

// Groups returns the distinct backtraces sorted as FORMAT.md §11 says: bytes
// descending, then count descending, then first line ascending (first
// input, then line, when several inputs were read).
func (m *Map) Groups() []*Group {
	gs := slices.Clone(m.groups)
	order := make(map[string]int) // source -> input order, from first appearance
	for _, g := range m.groups {
		if _, ok := order[g.Source]; !ok {
			order[g.Source] = len(order)
		}
	}
	slices.SortStableFunc(gs, func(a, b *Group) int {
		if c := cmp.Compare(b.TotalBytes, a.TotalBytes); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		if c := cmp.Compare(order[a.Source], order[b.Source]); c != 0 {
			return c
		}
		return cmp.Compare(a.FirstLine, b.FirstLine)
	})
	return gs
}
