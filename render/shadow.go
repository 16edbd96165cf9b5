package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// ASan's default x86_64 Linux mapping: shadow = (addr >> 3) + 0x7fff8000.
const (
	shadowScale       = 3
	shadowGranularity = 1 << shadowScale
	shadowOffsetAMD64 = 0x7fff8000
)

// ShadowExplanation decodes an ASan shadow-byte map: which application
// bytes each row stands for, what the marked byte is, what the values that
// occur mean and where the access fell relative to the memory region.
type ShadowExplanation struct {
	Granularity int          // application bytes per shadow byte (8 unless the legend says otherwise)
	Rows        []ShadowSpan // one per row of the map, in order
	Marked      *MarkedShadow
	Codes       []ShadowCode // the values that occur, in the order of ASan's legend
	// Access describes the access relative to its region (DescribeAccess);
	// "" when the report does not say.
	Access string
	// Note is set when the printed shadow addresses disagree with the
	// access address under the x86_64 Linux mapping; the spans are then
	// anchored on the report's access address instead.
	Note string
}

// ShadowSpan is the application memory covered by one row of shadow bytes.
type ShadowSpan struct {
	Shadow   uint64
	AppBegin uint64 // first application byte
	AppEnd   uint64 // one past the last
	Known    bool   // false when the row address could not be decoded
}

// MarkedShadow is the bracketed byte of the map: the shadow of the access.
type MarkedShadow struct {
	Row, Column int
	Code        string
	Shadow      uint64
	ShadowWidth int    // hex digits the map prints shadow addresses with
	AppBegin    uint64 // the 8-byte granule the byte describes
	AppEnd      uint64
	Known       bool   // AppBegin/AppEnd are valid
	Name        string // legend name, e.g. "Heap left redzone"
	Explain     string
	// Addressable is how many leading bytes of the granule may be used:
	// 8 for 00, k for 0k, 0 for every poisoned value.
	Addressable int
}

// ShadowCode is one value that occurs in the map.
type ShadowCode struct {
	Code    string
	Name    string // as the report's legend prints it when it does
	Explain string
	Count   int // how many bytes of the map have this value
}

// ExplainShadow decodes s. r, the report the map belongs to, may be nil;
// with it the application ranges are checked against the access address and
// the access is described relative to its region.
func ExplainShadow(s *report.Shadow, r *report.Report) *ShadowExplanation {
	if s == nil {
		return nil
	}
	e := &ShadowExplanation{}
	var legend map[string]string
	if s.Legend != nil {
		legend = s.Legend
	}

	counts := make(map[string]int, 16) // a map holds a handful of values
	run, n := "", 0                    // a run of one value ("fa fa fa"), not counted yet
	for i, row := range s.Rows {
		for j, b := range row.Bytes {
			b = strings.ToLower(b)
			if b != run {
				if n > 0 {
					counts[run] += n
				}
				run, n = b, 0
			}
			n++
			if j == row.Marked && e.Marked == nil {
				e.Marked = &MarkedShadow{Row: i, Column: j, Code: b}
			}
		}
	}
	if n > 0 {
		counts[run] += n
	}
	codes := make([]string, 0, len(counts))
	for c := range counts {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		ri, rj := legendRank(codes[i]), legendRank(codes[j])
		if ri != rj {
			return ri < rj
		}
		return codes[i] < codes[j]
	})
	for _, c := range codes {
		le := legendFor(c, legend)
		e.Codes = append(e.Codes, ShadowCode{Code: c, Name: le.name, Explain: le.explain, Count: counts[c]})
	}

	// The legend header says how many application bytes a shadow byte
	// stands for; the x86_64 Linux mapping is only known for 8.
	gran := uint64(shadowGranularity)
	if g := s.Granularity; g > 0 && g&(g-1) == 0 && g <= 1<<12 {
		gran = uint64(g)
	}
	e.Granularity = int(gran)
	// appOf maps a shadow address to the first application byte it covers.
	appOf := func(sh uint64) (uint64, bool) {
		if sh < shadowOffsetAMD64 || gran != shadowGranularity {
			return 0, false
		}
		return (sh - shadowOffsetAMD64) << shadowScale, true
	}
	var access uint64
	haveAccess := r != nil && r.HasAddress
	if haveAccess {
		access = r.Address
	}
	if m := e.Marked; m != nil {
		if row := s.Rows[m.Row]; row.HasBase {
			base := row.Base
			m.Shadow = base + uint64(m.Column)
			m.ShadowWidth = len(strings.TrimPrefix(strings.TrimSpace(s.Rows[m.Row].Address), "0x"))
			if haveAccess && (gran != shadowGranularity || m.Shadow != access>>shadowScale+shadowOffsetAMD64) {
				// The report's numbers win: anchor every span on the access.
				anchorShadow, anchorApp := m.Shadow, access&^(gran-1)
				appOf = func(sh uint64) (uint64, bool) {
					return anchorApp + (sh-anchorShadow)*gran, true
				}
				e.Note = fmt.Sprintf("the shadow addresses do not follow the x86_64 Linux mapping (shadow = (addr >> 3) + 0x%x) for the access address %#x; application ranges are counted from the access address instead", shadowOffsetAMD64, access)
			}
		}
	}
	e.Rows = make([]ShadowSpan, 0, len(s.Rows))
	for _, row := range s.Rows {
		span := ShadowSpan{}
		if row.HasBase {
			sh := row.Base
			span.Shadow = sh
			if app, ok := appOf(sh); ok {
				span.AppBegin, span.AppEnd, span.Known = app, app+uint64(len(row.Bytes))*gran, true
			}
		}
		e.Rows = append(e.Rows, span)
	}
	if m := e.Marked; m != nil {
		le := legendFor(m.Code, legend)
		m.Name, m.Explain = le.name, le.explain
		switch {
		case m.Code == "00":
			m.Addressable = int(gran)
		case partialCount(m.Code) > 0:
			m.Addressable = partialCount(m.Code)
		}
		if m.Shadow != 0 {
			if app, ok := appOf(m.Shadow); ok {
				m.AppBegin, m.AppEnd, m.Known = app, app+gran, true
			}
		}
	}
	e.Access = DescribeAccess(r)
	return e
}

// MarkedSentence says in one line what the marked byte is, e.g.
// "[fa] at shadow 0x0c067fff800c covers 0x603000000060..0x603000000067: Heap left redzone".
func (m *MarkedShadow) MarkedSentence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s]", m.Code)
	if m.Shadow != 0 {
		fmt.Fprintf(&b, " at shadow 0x%0*x", m.ShadowWidth, m.Shadow)
	}
	if m.Known {
		fmt.Fprintf(&b, " stands for application bytes [%#x,%#x)", m.AppBegin, m.AppEnd)
	}
	fmt.Fprintf(&b, ": %s", m.Name)
	if m.Explain != "" {
		fmt.Fprintf(&b, ", %s", m.Explain)
	}
	return b.String()
}
