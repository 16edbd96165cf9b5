package symbolize

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Split DWARF (gcc/clang -gsplit-dwarf): the binary keeps a skeleton unit
// per compilation unit (its ranges, line table and .debug_addr) and names a
// .dwo file holding the unit's DIEs. As llvm-symbolizer does, a skeleton's
// function and inline tree is read from the .dwo found at DW_AT_dwo_name
// (relative to DW_AT_comp_dir) whose unit carries the skeleton's DWO id,
// or from the unit of a DWARF package (.dwp) indexed under that id; file
// names and lines stay the skeleton's line table. The file is opened on
// the unit's first lookup (openSplitUnit, which dwarf.Data.SplitFunctions
// calls once per unit). binutils' addr2line does not read .dwo files
// (Policy.splitUnits).

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

// openSplitUnit finds the skeleton u's unit (a dwarf.SplitOpener): in the
// object's package first, as llvm-symbolizer does, then in the unit's own
// .dwo file. Why it cannot is recorded (SplitDWARFErrors).
func (o *Object) openSplitUnit(u *dwarf.Unit) (*dwarf.Header, error) {
	h, err := o.findSplitUnit(u)
	if h == nil {
		o.splitErrs.add(err)
	}
	return h, err
}

func (o *Object) findSplitUnit(u *dwarf.Unit) (*dwarf.Header, error) {
	var firstErr error
	if p, err := o.dwpPackage(); p != nil {
		h, err := o.dw.PackageUnit(p, o.dwp.idx, u)
		if err == nil {
			return h, nil
		}
		firstErr = err
	} else if err != nil && !os.IsNotExist(err) {
		firstErr = err
	}
	cands := o.finder.DWOCandidates(u.DWOName(), u.CompDir(), o.path, o.dw.Path())
	for _, p := range cands {
		h, err := o.openDWO(p, u)
		if err == nil {
			return h, nil
		}
		if firstErr == nil && !os.IsNotExist(err) {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%s not found (looked in %s)", u.DWOName(), strings.Join(cands, ", "))
	}
	return nil, firstErr
}

// openDWO maps the .dwo at path and returns the header of its unit with
// u's DWO id. The mapping is kept (and unmapped by Close) only on success.
func (o *Object) openDWO(path string, u *dwarf.Unit) (*dwarf.Header, error) {
	d, f, err := mapDWO(path)
	if err != nil {
		return nil, err
	}
	h, err := o.dw.DWOUnit(d, u)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	o.keepDWO(d, f)
	return h, nil
}

// dwpPackage returns the object's DWARF package, nil (with a not-exist
// error) when there is none.
func (o *Object) dwpPackage() (*dwarf.DWO, error) {
	o.dwpOnce.Do(func() {
		st := &o.dwp
		st.path = o.finder.DWP(o.dw.Path())
		d, f, err := mapDWO(st.path)
		if err != nil {
			st.err = err
			return
		}
		idx, err := o.dw.PackageIndex(d)
		if err != nil && len(d.Damage()) > 0 {
			err = fmt.Errorf("%w (%v)", err, newDamageError(d.Damage()))
		}
		if err != nil {
			f.Close()
			st.err = fmt.Errorf("%s: %w", st.path, err)
			return
		}
		o.keepDWO(d, f)
		st.d, st.idx = d, idx
	})
	if o.dwp.d == nil {
		if o.dwp.err == nil {
			return nil, os.ErrNotExist
		}
		return nil, o.dwp.err
	}
	return o.dwp.d, nil
}

// mapDWO maps a .dwo or .dwp file and reads its DWARF sections. A file
// that cannot be opened gives os.Open's error as it is. What of it is
// damaged but not needed by every unit (a header repaired at open, a
// section that cannot be read or inflated) is left out and listed in
// d.Damage(), as for the binary itself. f is the file, for Close.
func mapDWO(path string) (d *dwarf.DWO, f *debuginfo.File, err error) {
	f, err = debuginfo.Open(path)
	if err != nil {
		if _, ok := err.(*fs.PathError); ok {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	d, err = dwarf.ReadDWO(f.ELF, f.Mapped(), f.Path, f.Damage)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return d, f, nil
}

// keepDWO makes d's strings addressable and its file f owned by o; the
// damage left out of it is reported once (SplitDWARFErrors).
func (o *Object) keepDWO(d *dwarf.DWO, f *debuginfo.File) {
	o.dw.AddDWO(d)
	o.addFile(f.Mapped())
	if len(d.Damage()) > 0 {
		o.splitErrs.addDamage(d.Path(), d.Damage())
	}
}
