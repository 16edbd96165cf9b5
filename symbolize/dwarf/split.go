package dwarf

import (
	"debug/elf"
	"fmt"
	"sync"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// Split DWARF (gcc/clang -gsplit-dwarf): the binary keeps a skeleton unit
// per compilation unit (its ranges, line table and .debug_addr) and names a
// .dwo file holding the unit's DIEs, or a package (.dwp) holding those of
// many units. The caller finds and opens the file (ReadDWO), and asks for
// the skeleton's unit in it (DWOUnit, PackageUnit); SplitFunctions keeps
// what it found, and the unit's function index, for the skeleton. File
// names and lines stay the skeleton's line table.

// splitRef is what a skeleton unit says about its .dwo.
type splitRef struct {
	name       string // DW_AT_dwo_name or DW_AT_GNU_dwo_name; "" for a unit that is not a skeleton
	id         uint64 // the DWO id, from the unit header (v5) or DW_AT_GNU_dwo_id
	hasID      bool
	rangesBase uint64 // DW_AT_GNU_ranges_base (DWARF 4)
}

// splitUnit is a skeleton's unit in its .dwo, found once on first use.
type splitUnit struct {
	once  sync.Once
	h     *Header // nil when the .dwo is missing or has no matching unit
	err   error
	funcs struct {
		once sync.Once
		fi   *FuncIndex
		err  error
	}
}

// A DWO is the DWARF sections of a .dwo file or a .dwp package (or of a
// dwz supplementary file, inside the package). Once added to a Data
// (AddDWO), its strings live in the Data's extStrings space, at strBase
// and infoBase.
type DWO struct {
	debugSections
	path              string
	cuIndex           []byte // .debug_cu_index: a package's unit table
	strBase, infoBase uint64
	lineStrBase       uint64  // set for a dwz supplementary file only
	damage            []error // left out of the file (ReadDWO)
}

// Path returns the path of the file.
func (d *DWO) Path() string { return d.path }

// Damage lists what of the file was left out as damaged: a header
// repaired at open, a section that cannot be read or inflated.
func (d *DWO) Damage() []error { return d.damage }

// ReadDWO reads the sections of a .dwo or .dwp file f (bytes mapped by
// m, at path) one by one: a section that cannot be read costs what needs
// it (no .debug_str.dwo or .debug_str_offsets.dwo: the names; no
// .debug_rnglists.dwo: the inlined calls with range lists; no
// .debug_abbrev.dwo: the DIEs; no .debug_cu_index: a package's units),
// only a missing .debug_info.dwo the file. fileDamage is what was left
// out of the file as it was opened; Damage lists it first.
func ReadDWO(f *elf.File, m *dwarfbuf.File, path string, fileDamage []error) (*DWO, error) {
	d := &DWO{path: path}
	d.file = m
	d.damage = append(d.damage, fileDamage...)
	want := append(d.unitWants(".dwo"), dwarfbuf.Want{Name: ".debug_cu_index", Dst: &d.cuIndex})
	errs := dwarfbuf.Sections(f, m.Bytes(), want)
	if errs[0] != nil {
		return nil, fmt.Errorf("%s: %w", path, errs[0])
	}
	for _, err := range errs[1:] {
		if err != nil {
			d.damage = append(d.damage, fmt.Errorf("%w; section ignored", err))
		}
	}
	d.infoOff, d.infoMapped = dwarfbuf.Uncompressed(f, ".debug_info.dwo")
	if len(d.info) == 0 {
		return nil, fmt.Errorf("%s: no .debug_info.dwo", path)
	}
	return d, nil
}

// AddDWO gives d's strings StrRefs of the Data: call it once for a file
// whose units are used.
func (dw *Data) AddDWO(d *DWO) {
	d.strBase = dw.ext.add(d.str)
	d.infoBase = dw.ext.add(d.info)
}

// DWOUnit returns the header of the split unit of the skeleton u (the one
// with its DWO id) in the .dwo file d.
func (dw *Data) DWOUnit(d *DWO, u *Unit) (*Header, error) {
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
func (dw *Data) splitUnitID(h *Header) (uint64, bool, error) {
	if h.version >= 5 {
		return h.dwoID, h.unitType == unitSplitCompile, nil
	}
	return dw.gnuDWOID(h)
}

// inheritSkeleton gives a split unit the bases it takes from its skeleton
// and its package row: .debug_addr is the binary's; a DWARF 5 unit's string
// offsets and range lists start after their section headers (8 and 12
// bytes, twice the offset size in DWARF64), the GNU extension's have none.
func (dw *Data) inheritSkeleton(h *Header, u *Unit, row dwpRow) {
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
func (dw *Data) gnuDWOID(h *Header) (uint64, bool, error) {
	r, err := dw.newDIEReader(h)
	if err != nil {
		return 0, false, err
	}
	_, a, _ := r.next(decodeAll)
	if r.b.Err() != nil {
		return 0, false, r.b.Err()
	}
	if a == nil {
		return 0, false, nil
	}
	for i, s := range a.attrs {
		if s.attr == AttrGNUDwoID && r.vals[i].kind == valConst {
			return r.vals[i].v, true, nil
		}
	}
	return 0, false, nil
}

// A SplitOpener finds the unit of the skeleton u in a .dwo file or .dwp
// package (DWOUnit, PackageUnit): nil and why when it cannot.
type SplitOpener func(u *Unit) (*Header, error)

// splitHeader returns the header of u's unit in its .dwo, found by open
// on first use (and kept, or why not); nil when u is not a skeleton or
// its .dwo cannot be used.
func (dw *Data) splitHeader(u *Unit, open SplitOpener) (*Header, error) {
	if u.split == nil {
		return nil, nil
	}
	s := u.split
	s.once.Do(func() {
		s.h, s.err = open(u)
	})
	return s.h, s.err
}

// SplitFunctions returns the function index of the skeleton u's unit in
// its .dwo, decoding it on first use; nil when u is not a skeleton or has
// no usable .dwo (open says why once, on u's first call).
func (dw *Data) SplitFunctions(u *Unit, open SplitOpener) (*FuncIndex, error) {
	h, err := dw.splitHeader(u, open)
	if h == nil {
		return nil, err
	}
	s := u.split
	s.funcs.once.Do(func() {
		s.funcs.fi, s.funcs.err = dw.indexFunctions(h)
	})
	return s.funcs.fi, s.funcs.err
}
