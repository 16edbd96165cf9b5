package symbolize

import (
	"sort"
	"sync"
)

// gnuSeqIndex maps addresses to units through their line-table sequences.
// binutils 2.40 adds every sequence of a decoded line table to its unit's
// address ranges (decode_line_info, DW_LNE_end_sequence), so an address in
// padding that a CU's DW_AT_ranges leaves out but its line table covers is
// still answered ("main" / "file.c:12"). llvm only trusts DW_AT_ranges.
type gnuSeqIndex struct {
	once sync.Once
	idx  unitIndex
}

// gnuUnitFor returns the unit whose line sequences contain pc; the index is
// built on first use, decoding every line table once.
func (o *Object) gnuUnitFor(pc uint64) *unit {
	o.gnuSeqs.once.Do(func() {
		idx := unitIndex{units: o.units.units}
		for ui, u := range o.units.units {
			lt, err := o.lineTable(u)
			if err != nil {
				continue
			}
			for _, s := range lt.seqs {
				idx.ranges = append(idx.ranges, unitRange{begin: s.start, end: s.end, unit: int32(ui)})
			}
		}
		sort.SliceStable(idx.ranges, func(i, j int) bool { return idx.ranges[i].end < idx.ranges[j].end })
		lo := ^uint64(0)
		for i := len(idx.ranges) - 1; i >= 0; i-- {
			lo = min(lo, idx.ranges[i].begin)
			idx.ranges[i].minBegin = lo
		}
		o.gnuSeqs.idx = idx
	})
	return o.gnuSeqs.idx.unitFor(pc)
}
