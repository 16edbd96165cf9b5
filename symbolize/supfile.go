package symbolize

import (
	"fmt"
	"sort"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// dwz supplementary files. `dwz -m` moves the DIEs several files share
// (types, declarations, abstract inline instances) and their strings into
// one supplementary file, which each file names in .gnu_debugaltlink (its
// path and build-id; DW_FORM_GNU_ref_alt and DW_FORM_GNU_strp_alt point into
// it) or, with `dwz --dwarf-5`, in .debug_sup (DW_FORM_ref_sup4/8 and
// DW_FORM_strp_sup). Shared DIEs go to partial units, imported into
// compilation units with DW_TAG_imported_unit; the engine follows the
// references themselves, so an abstract origin in the supplementary file
// names a frame as it would have before dwz, and its DW_AT_decl_file is read
// in the line table of the partial unit holding it.

// supBit marks a DIE offset in the supplementary file's .debug_info, so
// references into either file share one offset space.
const supBit = 1 << 63

// supFile is an object's supplementary file, opened with its debug file.
type supFile struct {
	path  string
	sec   *dwoSections // its sections; strings in the object's extStrings space
	units []*unit      // in section order; offsets without supBit
}

// loadSup finds (debuginfo.Finder.Supplementary) and indexes the
// supplementary file that df, the file holding the DWARF, names, if any.
// The error says what was looked for and where; the object then answers
// without the shared DIEs. A file found but damaged is used for what it
// still holds, its damage in o.damage.
func (o *Object) loadSup(df *debuginfo.File) error {
	sf, named, err := o.finder.Supplementary(df)
	if !named || err != nil {
		return err
	}
	o.sup = o.openSup(sf)
	return nil
}

// openSup indexes the units of the supplementary file f, which the Object
// owns from then on (its strings are in the Object's string space). Its
// damage costs what depends on it, as the object's own does (recorded in
// o.damage under f's path): a header repaired at open costs that section,
// a section that cannot be read or inflated what needs it (no .debug_str:
// the names kept there; no .debug_info: the shared DIEs, the strings still
// answer), a unit header or root DIE that cannot be read that unit.
func (o *Object) openSup(f *debuginfo.File) *supFile {
	o.filesMu.Lock()
	o.files = append(o.files, f.Mapped())
	o.filesMu.Unlock()
	path := f.Path
	o.addDamage(path, f.Damage)
	ds, damage := readDebugSections(f.ELF, f.Mapped())
	o.addDamage(path, damage)
	sec := &dwoSections{debugSections: *ds, path: path}
	sec.strBase = o.ext.add(sec.str)
	sec.infoBase = o.ext.add(sec.info)
	sec.lineStrBase = o.ext.add(sec.lineStr)
	sf := &supFile{path: path, sec: sec}
	for off := uint64(0); off < uint64(len(sec.info)); {
		h, err := parseUnitHeader(sec.info, off, o.byteOrder)
		if err != nil {
			// Partial units have no .debug_aranges sets to resume at:
			// past an unusable length the rest is lost.
			if h.end > off {
				o.addDamage(path, []error{fmt.Errorf("%w; unit ignored", err)})
				off = h.end
				continue
			}
			o.addDamage(path, []error{fmt.Errorf("%w; it and the units after it ignored", err)})
			break
		}
		off = h.end
		h.dwo, h.sup = sec, true
		u, _, err := o.readUnitRoot(h)
		if err != nil {
			o.addDamage(path, []error{fmt.Errorf(".debug_info unit at 0x%x: root DIE: %w; unit ignored", h.off, err)})
			continue
		}
		if u != nil {
			sf.units = append(sf.units, u)
		}
	}
	return sf
}

// supUnitAt returns the supplementary file's unit holding the DIE at off
// (without supBit).
func (s *supFile) unitAt(off uint64) *unit {
	i := sort.Search(len(s.units), func(i int) bool { return s.units[i].h.end > off })
	if i < len(s.units) && s.units[i].h.dieOff <= off {
		return s.units[i]
	}
	return nil
}

// unitOfDIE returns the unit (of the object or its supplementary file)
// holding the DIE at off.
func (o *Object) unitOfDIE(off uint64) *unit {
	if off&supBit != 0 {
		if o.sup == nil {
			return nil
		}
		return o.sup.unitAt(off &^ supBit)
	}
	return o.units.unitAt(off)
}

// supStr resolves a DW_FORM_GNU_strp_alt or DW_FORM_strp_sup offset.
func (dw *dwarfData) supStr(off uint64) strRef {
	if dw.sup == nil || off >= uint64(len(dw.sup.sec.str)) {
		return noStr
	}
	return strRef(strSecExt | (dw.sup.sec.strBase + off))
}
