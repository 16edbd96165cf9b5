package symbolize

import (
	"debug/dwarf"
	"fmt"
	"sort"
	"sync"
)

// unit is one compilation unit: what its root DIE says, plus its line table
// and function index, each decoded once on first use (errors cached too).
type unit struct {
	off      dwarf.Offset // offset of the root DIE
	compDir  string
	stmtList int64 // DW_AT_stmt_list, -1 when absent
	lang     int64

	linesOnce sync.Once
	lines     *lineTable
	linesErr  error

	funcsOnce sync.Once
	funcs     *funcIndex
	funcsErr  error
}

// unitRange maps an address range to a unit. The index is sorted by end with
// a suffix minimum of begin (gimli's layout), so overlapping units are found.
type unitRange struct {
	begin, end uint64
	unit       int32
	minBegin   uint64
}

// unitIndex is every unit of an object and its sorted address ranges.
type unitIndex struct {
	units  []*unit
	ranges []unitRange
}

// buildUnitIndex reads the root DIE of every compilation unit and records
// its ranges; a unit that declares none gets its line table's sequences.
func (o *Object) buildUnitIndex() error {
	r := o.dw.Reader()
	var idx unitIndex
	for {
		e, err := r.Next()
		if err != nil {
			return fmt.Errorf("read compilation units: %w", err)
		}
		if e == nil {
			break
		}
		r.SkipChildren()
		if e.Tag != dwarf.TagCompileUnit && e.Tag != dwarf.TagPartialUnit && e.Tag != dwarf.TagSkeletonUnit {
			continue
		}
		u := &unit{off: e.Offset, stmtList: -1}
		u.compDir, _ = e.Val(dwarf.AttrCompDir).(string)
		if v, ok := e.Val(dwarf.AttrStmtList).(int64); ok {
			u.stmtList = v
		}
		u.lang, _ = e.Val(dwarf.AttrLanguage).(int64)
		ui := int32(len(idx.units))
		idx.units = append(idx.units, u)
		rs, err := o.dw.Ranges(e)
		if err != nil {
			rs = nil // fall back to the line table below
		}
		n := 0
		for _, rg := range rs {
			if rg[0] < rg[1] {
				idx.ranges = append(idx.ranges, unitRange{begin: rg[0], end: rg[1], unit: ui})
				n++
			}
		}
		if n == 0 {
			if lt, err := o.lineTable(u); err == nil {
				for _, s := range lt.seqs {
					idx.ranges = append(idx.ranges, unitRange{begin: s.start, end: s.end, unit: ui})
				}
			}
		}
	}
	sort.SliceStable(idx.ranges, func(i, j int) bool { return idx.ranges[i].end < idx.ranges[j].end })
	min := ^uint64(0)
	for i := len(idx.ranges) - 1; i >= 0; i-- {
		if idx.ranges[i].begin < min {
			min = idx.ranges[i].begin
		}
		idx.ranges[i].minBegin = min
	}
	o.units = idx
	return nil
}

// unitFor returns the first unit (in end order) whose ranges contain pc.
func (idx *unitIndex) unitFor(pc uint64) *unit {
	i := sort.Search(len(idx.ranges), func(i int) bool { return idx.ranges[i].end > pc })
	for ; i < len(idx.ranges) && idx.ranges[i].minBegin <= pc; i++ {
		if r := idx.ranges[i]; r.begin <= pc && pc < r.end {
			return idx.units[r.unit]
		}
	}
	return nil
}

// lineTable returns u's decoded line table, decoding it on first use.
func (o *Object) lineTable(u *unit) (*lineTable, error) {
	u.linesOnce.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				u.linesErr = fmt.Errorf("line table at 0x%x: panic: %v", u.stmtList, p)
			}
		}()
		if u.stmtList < 0 {
			u.linesErr = fmt.Errorf("unit at 0x%x has no line table", u.off)
			return
		}
		u.lines, u.linesErr = decodeLineProgram(lineProgramInput{
			line: o.sec.line, str: o.sec.str, lineStr: o.sec.lineStr,
			offset: uint64(u.stmtList), compDir: u.compDir, bo: o.byteOrder,
		})
		if u.linesErr != nil {
			u.linesErr = fmt.Errorf("%s: %w", o.debugPath, u.linesErr)
		}
	})
	return u.lines, u.linesErr
}
