package symbolize

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Open opens the ELF file at path and indexes it: symbol tables and the root
// DIE of every compilation unit, from the file itself or from its separate
// debug file (found through .gnu_debuglink or the build-id). opts may be nil.
func Open(path string, opts *Options) (*Object, error) {
	finder, own := opts.finder()
	f, err := finder.Open(path)
	return openOwned(path, f, err, finder, own)
}

// OpenMemory is Open for an ELF file held in memory, such as a binary read
// out of a CI artifact that is never written to disk. name labels the object
// in answers and errors; separate debug files are still searched by build-id
// in the Finder's debug-file directories. data must not change while the
// object is open.
func OpenMemory(name string, data []byte, opts *Options) (*Object, error) {
	finder, own := opts.finder()
	f, err := debuginfo.OpenMemory(name, data)
	return openOwned(name, f, err, finder, own)
}

// openOwned indexes f, just opened (with error err) as name, and closes
// it when no Object comes of it.
func openOwned(name string, f *debuginfo.File, err error, finder *debuginfo.Finder, ownFinder bool) (*Object, error) {
	if err != nil {
		if ownFinder {
			finder.Close()
		}
		return nil, fmt.Errorf("symbolize: open %s: %w", name, err)
	}
	o, err := openFile(f, finder, ownFinder)
	if o == nil {
		f.Close()
	}
	return o, err
}

// OpenFile is Open for a file already opened (by a debuginfo.Finder's
// search, most often). The Object owns f from then on; when OpenFile
// returns no Object, f stays the caller's.
func OpenFile(f *debuginfo.File, opts *Options) (*Object, error) {
	finder, own := opts.finder()
	return openFile(f, finder, own)
}

// finder returns the Finder of opts, or a new one the Object owns.
func (opts *Options) finder() (f *debuginfo.Finder, own bool) {
	if opts == nil || opts.Finder == nil {
		return &debuginfo.Finder{}, true
	}
	return opts.Finder, false
}

// openFile indexes the ELF file f. It returns an Object whatever it could
// read; the error says why it answers nothing (ErrNoDebugInfo).
func openFile(f *debuginfo.File, finder *debuginfo.Finder, ownFinder bool) (*Object, error) {
	path := f.Path
	ef := f.ELF
	o := &Object{path: path, debugPath: path, finder: finder, ownFinder: ownFinder}
	o.addFile(f.Mapped())
	dwarfFile := f
	o.buildID = f.BuildID
	o.addDamage(path, f.Damage)
	// The symbol table is read while the DWARF sections inflate: on a Go
	// binary it is 8 ms of one core that the inflaters leave idle.
	syms := readSymtabAsync(ef, f)
	// Whatever way openFile returns, the reader is done with f first (a
	// caller closes f when no Object comes of it).
	defer func() { <-syms.done }()
	symDamage := len(o.damage)

	if !f.HasDWARF() {
		if df, derr := finder.DebugFile(f); derr == nil {
			if df.HasDWARF() {
				dwarfFile = df
				o.debugFile = df
				o.addDamage(df.Path, df.Damage)
				o.addFile(df.Mapped())
				o.debugPath = df.Path
				if ds, _ := readSymtab(df.ELF, df.Bytes()); len(ds.syms) > 0 {
					o.debugSyms = &ds
				}
				releaseSymtab(df.ELF, df.Mapped())
				// The symbol table stays the binary's own, as in
				// llvm-symbolizer 14: names come from the debug
				// file's DWARF.
			} else {
				df.Close()
			}
		}
	}
	if dwarfFile.HasDWARF() {
		o.loadDWARF(dwarfFile)
	}
	var serr error
	o.syms, serr = syms.wait()
	if serr != nil {
		// In file order: after the binary's own damage, before its DWARF's.
		o.damage = slices.Insert(o.damage, symDamage, fmt.Errorf("%s: %w", path, fmt.Errorf(".symtab: %w; symbol table ignored", serr)))
	}
	if mini, found, merr := readMiniDebug(ef, f.Bytes()); merr != nil {
		o.damage = slices.Insert(o.damage, symDamage, fmt.Errorf("%s: %w", path, merr))
	} else if found {
		o.syms = o.syms.withMiniDebug(mini)
	}
	if o.dw == nil && len(o.syms.syms) == 0 {
		if len(o.damage) > 0 {
			return o, fmt.Errorf("symbolize: open %s: %w: %w", path, ErrNoDebugInfo, o.Damage())
		}
		return o, fmt.Errorf("symbolize: open %s: %w", path, ErrNoDebugInfo)
	}
	return o, nil
}

// loadDWARF reads the DWARF of df, recording what it cannot read in
// o.damage: a section that cannot be read costs what needs it, a unit that
// cannot be read costs that unit.
func (o *Object) loadDWARF(df *debuginfo.File) {
	f := df.ELF
	o.zdebug = f.Section(".debug_info") == nil && f.Section(".zdebug_info") != nil
	dw, damage := dwarf.Load(f, df.Mapped(), df.Path)
	o.addDamage(df.Path, damage)
	if dw == nil {
		return
	}
	o.dw = dw
	o.supErr = o.loadSup(df)
	o.addDamage(df.Path, dw.IndexUnits())
	o.looked = make([]atomic.Bool, len(dw.Units()))
}

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
	o.addFile(sf.Mapped())
	o.addDamage(sf.Path, sf.Damage)
	o.addDamage(sf.Path, o.dw.AddSupplementary(sf.ELF, sf.Mapped(), sf.Path))
	return nil
}

// addDamage records what could not be read of the file at path.
func (o *Object) addDamage(path string, damage []error) {
	for _, d := range damage {
		o.damage = append(o.damage, fmt.Errorf("%s: %w", path, d))
	}
}

// maxDamageShown bounds how many problems Damage spells out.
const maxDamageShown = 3

// Damage says, in one line, what of the object's files could not be read
// and was left out at open (damaged headers, sections, compilation
// units); nil for sound files. The object still answers from the rest: a
// face reports this once per module as a warning, not as a failure.
func (o *Object) Damage() error {
	if o == nil || len(o.damage) == 0 {
		return nil
	}
	return newDamageError(o.damage)
}

// newDamageError makes the one line of errs: the first few of them.
func newDamageError(errs []error) *DamageError {
	var b strings.Builder
	for i, d := range errs[:min(len(errs), maxDamageShown)] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Error())
	}
	if n := len(errs) - maxDamageShown; n > 0 {
		fmt.Fprintf(&b, " (and %d more problems)", n)
	}
	return &DamageError{Errs: errs, line: b.String()}
}

// A DamageError lists the parts of a file left out because they could not
// be read; its text is one line, the first few of them.
type DamageError struct {
	Errs []error
	line string
}

func (e *DamageError) Error() string   { return e.line }
func (e *DamageError) Unwrap() []error { return e.Errs }

// SupplementaryError says why the dwz supplementary file the DWARF names
// could not be used (its frames then lack the names and inline calls kept
// there); nil when there is none or it was found (what of it is damaged
// is in Damage).
func (o *Object) SupplementaryError() error {
	if o == nil {
		return nil
	}
	return o.supErr
}

// Close releases the object. Lookups after Close are not allowed.
func (o *Object) Close() error {
	if o == nil {
		return nil
	}
	o.dw, o.syms = nil, symtab{}
	var err error
	o.filesMu.Lock()
	for _, m := range o.files {
		if cerr := m.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("symbolize: close %s: %w", o.path, cerr)
		}
	}
	o.files = nil
	o.mapped.Store(0)
	o.filesMu.Unlock()
	if o.ownFinder {
		o.finder.Close()
	}
	return err
}

// ReleaseResident hands back to the kernel the mapped pages of the
// sections that lookups read at random (range lists, address tables, line
// strings): what a lookup keeps is copied out of them, and a long batch
// would otherwise keep them all resident. (.debug_str, the biggest, is
// read with pread and never becomes resident: see dwarfbuf.File.CStringAt.)
// Pages read again come back from the page cache. For a caller that has
// answered many lookups since it last called it; it costs a system call
// per section.
func (o *Object) ReleaseResident() {
	if o.dw != nil {
		o.dw.ReleaseResident()
	}
}

// Path returns the path the object was opened from.
func (o *Object) Path() string { return o.path }

// BuildID returns the GNU build-id of the binary, nil if it has none.
func (o *Object) BuildID() []byte { return o.buildID }

// DebugFile returns the separate debug file the DWARF came from; nil when
// the binary holds its own DWARF or has none.
func (o *Object) DebugFile() *debuginfo.File { return o.debugFile }

// DebugPath returns the file the DWARF came from: a separate debug file or
// Path().
func (o *Object) DebugPath() string { return o.debugPath }
