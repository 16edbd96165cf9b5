package symbolize

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// Split DWARF (gcc/clang -gsplit-dwarf): the binary keeps a skeleton unit
// per compilation unit (its ranges, line table and .debug_addr) and names a
// .dwo file holding the unit's DIEs. As llvm-symbolizer does, a skeleton's
// function and inline tree is read from the .dwo found at DW_AT_dwo_name
// (relative to DW_AT_comp_dir) whose unit carries the skeleton's DWO id;
// file names and lines stay the skeleton's line table. The .dwo is opened
// on the unit's first lookup. binutils' addr2line does not read .dwo files,
// so the GNU style keeps answering from the skeleton alone.

// DWARF attributes of split units: DWARF 5 and the GNU extension to DWARF 4.
const (
	atDwoName        = 0x76
	atGNUDwoName     = 0x2130
	atGNUDwoID       = 0x2131
	atGNURangesBase  = 0x2132
	atGNUAddrBase    = 0x2133
	unitSplitCompile = 5
)

// splitRef is what a skeleton unit says about its .dwo.
type splitRef struct {
	name       string // DW_AT_dwo_name or DW_AT_GNU_dwo_name; "" for a unit that is not a skeleton
	id         uint64 // the DWO id, from the unit header (v5) or DW_AT_GNU_dwo_id
	hasID      bool
	rangesBase uint64 // DW_AT_GNU_ranges_base (DWARF 4)
}

// splitUnit is a skeleton's unit in its .dwo, read once on first use.
type splitUnit struct {
	once  sync.Once
	h     *cuHeader // nil when the .dwo is missing or has no matching unit
	path  string
	err   error
	funcs struct {
		once sync.Once
		fi   *funcIndex
		err  error
	}
}

// dwoSections are the DWARF sections of one .dwo file. Its strings live in
// the object's extStrings space, at strBase and infoBase.
type dwoSections struct {
	debugSections
	path              string
	cuIndex           []byte // .debug_cu_index: a package's unit table
	strBase, infoBase uint64
	lineStrBase       uint64  // set for a dwz supplementary file only
	damage            []error // left out of a .dwo or .dwp (readDWOSections)
}

// extRef turns a string value read from the .dwo (a strRef tagged with the
// .dwo's own section) into a reference in the object's extended space.
func (d *dwoSections) extRef(v uint64) strRef {
	off := v & strOffMask
	switch v &^ strOffMask {
	case strSecStr:
		if off < uint64(len(d.str)) {
			return strRef(strSecExt | (d.strBase + off))
		}
	case strSecInfo:
		if off < uint64(len(d.info)) {
			return strRef(strSecExt | (d.infoBase + off))
		}
	case strSecLineStr:
		if off < uint64(len(d.lineStr)) {
			return strRef(strSecExt | (d.lineStrBase + off))
		}
	}
	return noStr
}

// extStrings gives the string-bearing sections of .dwo files one offset
// space, so that a strRef (and the name caches keyed by it) still names a
// string in any of an object's files. Segments are only ever added.
type extStrings struct {
	mu   sync.Mutex
	next uint64
	segs atomic.Pointer[[]extSeg]
}

type extSeg struct {
	base uint64
	data []byte
}

// add places data in the space and returns its base.
func (e *extStrings) add(data []byte) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	base := e.next
	e.next += uint64(len(data)) + 1 // +1: an empty section still gets its own base
	var segs []extSeg
	if p := e.segs.Load(); p != nil {
		segs = append(segs, *p...)
	}
	segs = append(segs, extSeg{base: base, data: data})
	e.segs.Store(&segs)
	return base
}

// find returns the section holding off and the offset in it.
func (e *extStrings) find(off uint64) ([]byte, uint64) {
	p := e.segs.Load()
	if p == nil {
		return nil, 0
	}
	segs := *p
	i := sort.Search(len(segs), func(i int) bool { return segs[i].base > off }) - 1
	if i < 0 || off-segs[i].base >= uint64(len(segs[i].data)) {
		return nil, 0
	}
	return segs[i].data, off - segs[i].base
}

// splitHeader returns the header of u's unit in its .dwo, opening the file
// on first use; nil when u is not a skeleton or its .dwo cannot be used.
func (o *Object) splitHeader(u *unit) *cuHeader {
	if u.split == nil {
		return nil
	}
	s := u.split
	s.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				s.h, s.err = nil, fmt.Errorf("%s: panic: %v", s.path, p)
			}
		}()
		s.h, s.path, s.err = o.openSplitUnit(u)
		if s.h == nil {
			o.splitErrs.add(s.err)
		}
	})
	return s.h
}

// splitErrors collects why split units could not be read, in the order
// their lookups met them.
type splitErrors struct {
	mu      sync.Mutex
	errs    []error
	damaged map[string]bool // files whose damage is in errs
}

func (e *splitErrors) add(err error) {
	e.mu.Lock()
	e.errs = append(e.errs, err)
	e.mu.Unlock()
}

// addDamage records, once per file, what of the .dwo or .dwp at path was
// left out as damaged: one *DamageError.
func (e *splitErrors) addDamage(path string, damage []error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.damaged == nil {
		e.damaged = make(map[string]bool)
	}
	if e.damaged[path] {
		return
	}
	e.damaged[path] = true
	errs := make([]error, len(damage))
	for i, d := range damage {
		errs[i] = fmt.Errorf("%s: %w", path, d)
	}
	e.errs = append(e.errs, newDamageError(errs))
}

// SplitDWARFErrors returns, for each split unit met by a lookup so far
// whose DIEs could not be read (its .dwo missing, corrupt or without the
// unit), why. Frames in such a unit carry the symbol table's name and the
// skeleton's file and line but no inlined calls, as llvm-symbolizer's do.
// A .dwo or .dwp used with parts of it left out as damaged (a section
// that cannot be read, a repaired header) adds one *DamageError, once per
// file: its units still answer from the rest, as the binary's own do when
// Damage is not nil. The slice only grows; callers may report the new
// entries.
func (o *Object) SplitDWARFErrors() []error {
	o.splitErrs.mu.Lock()
	defer o.splitErrs.mu.Unlock()
	return slices.Clone(o.splitErrs.errs)
}

func (o *Object) openSplitUnit(u *unit) (*cuHeader, string, error) {
	// A package (.dwp) first, as llvm-symbolizer does; then the unit's
	// own .dwo file.
	var firstErr error
	if p, err := o.dwpPackage(); p != nil {
		h, err := o.dwpUnit(p, u)
		if err == nil {
			return h, p.path, nil
		}
		firstErr = err
	} else if err != nil && !os.IsNotExist(err) {
		firstErr = err
	}
	cands := o.finder.DWOCandidates(u.dwo.name, u.compDir, o.path, o.debugPath)
	for _, p := range cands {
		h, err := o.openDWO(p, u)
		if err == nil {
			return h, p, nil
		}
		if firstErr == nil && !os.IsNotExist(err) {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%s not found (looked in %s)", u.dwo.name, strings.Join(cands, ", "))
	}
	return nil, "", firstErr
}

// openDWO maps the .dwo at path and returns the header of its unit with
// u's DWO id. The mapping is kept (and unmapped by Close) only on success.
func (o *Object) openDWO(path string, u *unit) (*cuHeader, error) {
	d, err := o.mapDWO(path)
	if err != nil {
		return nil, err
	}
	h, err := o.dwoUnit(d, u)
	if err != nil {
		d.file.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	o.keepDWO(d)
	return h, nil
}

// mapDWO maps a .dwo or .dwp file and reads its DWARF sections. A file
// that cannot be opened gives os.Open's error as it is. What of it is
// damaged but not needed by every unit (a header repaired at open, a
// section that cannot be read or inflated) is left out and listed in
// d.damage, as for the binary itself.
func (o *Object) mapDWO(path string) (*dwoSections, error) {
	f, err := debuginfo.Open(path)
	if err != nil {
		if _, ok := err.(*fs.PathError); ok {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d, err := readDWOSections(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return d, nil
}

// keepDWO makes d's strings addressable and its mapping owned by o; the
// damage left out of it is reported once (SplitDWARFErrors).
func (o *Object) keepDWO(d *dwoSections) {
	d.strBase = o.ext.add(d.str)
	d.infoBase = o.ext.add(d.info)
	o.filesMu.Lock()
	o.files = append(o.files, d.file)
	o.filesMu.Unlock()
	if len(d.damage) > 0 {
		o.splitErrs.addDamage(d.path, d.damage)
	}
}

// readDWOSections reads the sections of a .dwo or .dwp file one by one: a
// section that cannot be read costs what needs it (no .debug_str.dwo or
// .debug_str_offsets.dwo: the names, the symbol table naming the outermost
// frame; no .debug_rnglists.dwo: the inlined calls with range lists; no
// .debug_abbrev.dwo: the DIEs; no .debug_cu_index: a package's units),
// only a missing .debug_info.dwo the file.
func readDWOSections(f *debuginfo.File) (*dwoSections, error) {
	d := &dwoSections{path: f.Path}
	d.file = f.Mapped()
	d.damage = append(d.damage, f.Damage...)
	want := append(d.unitWants(".dwo"), dwarfbuf.Want{Name: ".debug_cu_index", Dst: &d.cuIndex})
	errs := dwarfbuf.Sections(f.ELF, f.Bytes(), want)
	if errs[0] != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, errs[0])
	}
	for _, err := range errs[1:] {
		if err != nil {
			d.damage = append(d.damage, fmt.Errorf("%w; section ignored", err))
		}
	}
	d.infoOff, d.infoMapped = dwarfbuf.Uncompressed(f.ELF, ".debug_info.dwo")
	if len(d.info) == 0 {
		return nil, fmt.Errorf("%s: no .debug_info.dwo", f.Path)
	}
	return d, nil
}

// dwoUnit returns the header of the split unit with u's DWO id in the
// .dwo file d.
func (dw *dwarfData) dwoUnit(d *dwoSections, u *unit) (*cuHeader, error) {
	for off := uint64(0); off < uint64(len(d.info)); {
		h, err := parseUnitHeader(d.info, off, dw.byteOrder)
		if err != nil {
			return nil, err
		}
		off = h.end
		h.dwo = d
		id, hasID, err := dw.splitUnitID(&h)
		if err != nil {
			return nil, err
		}
		if hasID && u.dwo.hasID && id == u.dwo.id {
			dw.inheritSkeleton(&h, u, dwpRow{})
			return &h, nil
		}
	}
	return nil, fmt.Errorf("no unit with DWO id 0x%x", u.dwo.id)
}

// splitUnitID returns the DWO id of a split unit: from its header (DWARF
// 5) or DW_AT_GNU_dwo_id (DWARF 4); none for other units.
func (dw *dwarfData) splitUnitID(h *cuHeader) (uint64, bool, error) {
	if h.version >= 5 {
		return h.dwoID, h.unitType == unitSplitCompile, nil
	}
	return dw.gnuDWOID(h)
}

// inheritSkeleton gives a split unit the bases it takes from its skeleton
// and its package row: .debug_addr is the binary's; a DWARF 5 unit's string
// offsets and range lists start after their section headers (8 and 12
// bytes, twice the offset size in DWARF64), the GNU extension's have none.
func (dw *dwarfData) inheritSkeleton(h *cuHeader, u *unit, row dwpRow) {
	h.addrBase = u.h.addrBase
	h.base = u.h.base
	h.strOffsetsBase = row.strOffsets
	if h.version >= 5 {
		h.strOffsetsBase += uint64(2 * h.offSize())
		h.rnglistsBase = row.rnglists + uint64(2*h.offSize()+4)
	} else {
		h.rangesBase = u.dwo.rangesBase
	}
}

// gnuDWOID reads DW_AT_GNU_dwo_id from the root DIE of a DWARF 4 .dwo unit.
func (dw *dwarfData) gnuDWOID(h *cuHeader) (uint64, bool, error) {
	r, err := dw.newDIEReader(h)
	if err != nil {
		return 0, false, err
	}
	_, a, _ := r.next(func(uint32) bool { return true })
	if r.b.Err() != nil {
		return 0, false, r.b.Err()
	}
	if a == nil {
		return 0, false, nil
	}
	for i, s := range a.attrs {
		if s.attr == atGNUDwoID && r.vals[i].kind == valConst {
			return r.vals[i].v, true, nil
		}
	}
	return 0, false, nil
}

// splitFunctions returns the function index of u's unit in its .dwo,
// decoding it on first use; nil when u has no usable .dwo.
func (o *Object) splitFunctions(u *unit) (*funcIndex, error) {
	h := o.splitHeader(u)
	if h == nil {
		return nil, u.split.err
	}
	s := u.split
	s.funcs.once.Do(func() {
		s.funcs.fi, s.funcs.err = o.indexFunctions(h)
	})
	return s.funcs.fi, s.funcs.err
}
