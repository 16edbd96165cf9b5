package symbolize

import (
	"github.com/sanitrace/sanitrace/debuginfo"
)

// dwz supplementary files: `dwz -m` moves the DIEs and strings several
// files share into one supplementary file, which each file names in
// .gnu_debugaltlink or .debug_sup. The Finder finds it; the dwarf package
// follows the references into it.

// loadSup finds (debuginfo.Finder.Supplementary) and indexes the
// supplementary file that df, the file holding the DWARF, names, if any.
// The error says what was looked for and where; the object then answers
// without the shared DIEs. A file found but damaged is used for what it
// still holds, its damage in o.damage under its path (a header repaired
// at open costs that section; the rest as dwarf.Data.AddSupplementary
// says). The Object owns the file from then on.
func (o *Object) loadSup(df *debuginfo.File) error {
	sf, named, err := o.finder.Supplementary(df)
	if !named || err != nil {
		return err
	}
	o.filesMu.Lock()
	o.files = append(o.files, sf.Mapped())
	o.filesMu.Unlock()
	o.addDamage(sf.Path, sf.Damage)
	o.addDamage(sf.Path, o.dw.AddSupplementary(sf.ELF, sf.Mapped(), sf.Path))
	return nil
}
