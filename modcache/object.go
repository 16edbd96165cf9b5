package modcache

import (
	"errors"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Object is what the commands ask of an opened module: the drop-in faces
// (dropin) answer queries with it, resolve fills in report frames. Every
// method is safe for concurrent use. *symbolize.Object is one; tests use
// tables.
type Object interface {
	// Symbolize returns the frames for addr, innermost first (one empty
	// Frame for an unknown address); SymbolizeMany the answers of many
	// addresses, aligned with them.
	Symbolize(addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error)
	SymbolizeMany(addrs []uint64, opts symbolize.LookupOptions) [][]symbolize.Frame
	// Data returns the global containing addr, from the symbol table.
	Data(addr uint64) (symbolize.DataSymbol, bool)
	// Frame lists the locals of the function at addr (llvm-symbolizer's
	// FRAME query).
	Frame(addr uint64) ([]symbolize.Local, error)
	// SymbolAddresses are the addresses of the symbols named name, plus
	// offset (llvm-symbolizer 18's queries by symbol).
	SymbolAddresses(name string, offset uint64) []uint64

	// FuncStart is the start of the FDE covering addr: the bounds of code
	// that neither DWARF nor a symbol names. CFI is the module's call
	// frame information (nil when none) and CodeAt the bytes of its
	// loaded image at addr (nil outside it), which tell whether a stack
	// was cut short at code without frame pointers.
	FuncStart(addr uint64) (uint64, bool)
	CFI() *cfi.Table
	CodeAt(addr uint64, n int) []byte

	// Damage says what of the file was left out at open (nil: nothing);
	// SupplementaryError why a dwz supplementary file the DWARF names
	// could not be used; SplitDWARFErrors the split units whose .dwo or
	// .dwp could not be read (or was read without damaged parts), in
	// the order lookups met them.
	Damage() error
	SupplementaryError() error
	SplitDWARFErrors() []error

	// ExpectManyLookups says a batch follows, so the object indexes a
	// unit at once rather than probing it for one address.
	// ReleaseResident hands back the pages lookups read at random.
	ExpectManyLookups()
	ReleaseResident()

	// Footprint is the bytes of memory the object can keep resident, as
	// it estimates them (symbolize.Object.Footprint): what it costs
	// against Options.MaxBytes.
	Footprint() int64

	Close() error
}

var _ Object = (*symbolize.Object)(nil)

// Opener opens the module at path. An Object returned together with an
// error is usable, the error a warning; the Cache keeps both.
type Opener func(path string) (Object, error)

// Engine opens modules with sanitrace's symbolizer, the files through
// finder (which hands over the file a search opened and finds debug
// files). A file with neither DWARF nor a symbol table is an error
// wrapping symbolize.ErrNoDebugInfo.
func Engine(finder *debuginfo.Finder) Opener {
	opts := &symbolize.Options{Finder: finder}
	return func(path string) (Object, error) {
		return object(symbolize.Open(path, opts))
	}
}

// Memory opens a module held in memory (a binary inside an archive) as
// Engine opens one on disk; name labels it.
func Memory(name string, data []byte, finder *debuginfo.Finder) (Object, error) {
	return object(symbolize.OpenMemory(name, data, &symbolize.Options{Finder: finder}))
}

// object is the Opener's answer for what symbolize returned: no object
// when it has nothing to answer with (not a *symbolize.Object(nil) inside
// the interface either).
func object(o *symbolize.Object, err error) (Object, error) {
	if errors.Is(err, symbolize.ErrNoDebugInfo) {
		o.Close()
		return nil, err
	}
	if o == nil {
		return nil, err
	}
	return o, err
}
