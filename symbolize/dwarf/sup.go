package dwarf

import (
	"debug/elf"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// dwz supplementary files. `dwz -m` moves the DIEs several files share
// (types, declarations, abstract inline instances) and their strings into
// one supplementary file, which each file names in .gnu_debugaltlink (its
// path and build-id; DW_FORM_GNU_ref_alt and DW_FORM_GNU_strp_alt point into
// it) or, with `dwz --dwarf-5`, in .debug_sup (DW_FORM_ref_sup4/8 and
// DW_FORM_strp_sup). Shared DIEs go to partial units, imported into
// compilation units with DW_TAG_imported_unit; the engine follows the
// references themselves (Data.UnitOfDIE, Data.Subroutine), so an abstract
// origin in the supplementary file reads as it would have before dwz, and
// its DW_AT_decl_file is an index into the line table of the partial unit
// holding it.

// supBit marks a DIE offset in the supplementary file's .debug_info, so
// references into either file share one offset space.
const supBit = 1 << 63

// supFile is the DWARF's supplementary file.
type supFile struct {
	path  string
	sec   *DWO    // its sections; strings in the Data's extStrings space
	units []*Unit // in section order; offsets without supBit
}

// AddSupplementary indexes the units of the supplementary file f (bytes
// mapped by m, at path) that the DWARF names, and gives its DIEs and
// strings to the references into it. Its damage costs what depends on
// it, as the DWARF's own does: a section that cannot be read or inflated
// what needs it (no .debug_str: the names kept there; no .debug_info: the
// shared DIEs, the strings still answer), a unit header or root DIE that
// cannot be read that unit. Call it before IndexUnits.
func (dw *Data) AddSupplementary(f *elf.File, m *dwarfbuf.File, path string) (damage []error) {
	ds, damage := readDebugSections(f, m)
	sec := &DWO{debugSections: *ds, path: path}
	sec.strBase = dw.ext.add(sec.str)
	sec.infoBase = dw.ext.add(sec.info)
	sec.lineStrBase = dw.ext.add(sec.lineStr)
	sf := &supFile{path: path, sec: sec}
	for off := uint64(0); off < uint64(len(sec.info)); {
		h, err := parseUnitHeader(sec.info, off, dw.byteOrder)
		if err != nil {
			// Partial units have no .debug_aranges sets to resume at:
			// past an unusable length the rest is lost.
			if h.end > off {
				damage = append(damage, fmt.Errorf("%w; unit ignored", err))
				off = h.end
				continue
			}
			damage = append(damage, fmt.Errorf("%w; it and the units after it ignored", err))
			break
		}
		off = h.end
		h.dwo, h.sup = sec, true
		u, _, err := dw.readUnitRoot(h)
		if err != nil {
			damage = append(damage, fmt.Errorf(".debug_info unit at 0x%x: root DIE: %w; unit ignored", h.off, err))
			continue
		}
		if u != nil {
			u.index = int32(len(sf.units))
			sf.units = append(sf.units, u)
		}
	}
	dw.sup = sf
	return damage
}

// unitAt returns the supplementary file's unit holding the DIE at off
// (without supBit).
func (s *supFile) unitAt(off uint64) *Unit { return unitHolding(s.units, off) }
