package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// Object answers lookups for one ELF file. It is safe for concurrent use.
type Object struct {
	path      string
	debugPath string
	buildID   []byte
	byteOrder binary.ByteOrder

	files   []*dwarfbuf.File // the binary, its debug file and .dwo files, unmapped by Close
	filesMu sync.Mutex       // .dwo files are added by lookups
	ext     extStrings       // the strings of .dwo files
	dwpPath string           // Options.DWPPath
	dwpOnce sync.Once
	dwp     dwpState
	// splitErrs: split units whose DIEs could not be read.
	splitErrs splitErrors

	sec         *debugSections // nil without DWARF
	sup         *supFile       // dwz supplementary file; nil when none or not found
	supErr      error          // why a named supplementary file could not be used
	units       unitIndex
	abbrevCache abbrevCache
	syms        symtab
	// debugSyms is the separate debug file's symbol table: binutils names
	// functions from it (dwarf2.c _bfd_dwarf2_stash_syms), llvm does not.
	debugSyms *symtab
	// zdebug: the DWARF is in legacy .zdebug_* sections, which binutils
	// 2.40's addr2line does not read (StyleGNU answers from symbols only).
	zdebug bool

	demangled demangleCache
	gnu       gnuState
	gnuSeqs   gnuSeqIndex
	gnuVars   gnuVarIndex

	// Call frame information, read once on the first FuncStart.
	fdeOnce sync.Once
	fdes    fdeState

	// Location-list sections, read (and inflated) once, on the first FRAME
	// query that needs them.
	locsOnce sync.Once
	locs     *locSections
	locsErr  error
}

// Open opens the ELF file at path and indexes it: symbol tables and the root
// DIE of every compilation unit, from the file itself or from its separate
// debug file (found through .gnu_debuglink or the build-id). opts may be nil.
func Open(path string, opts *Options) (o *Object, err error) {
	if opts == nil {
		opts = &Options{}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("symbolize: open %s: %w", path, err)
	}
	defer f.Close()
	m, err := dwarfbuf.Map(f)
	if err != nil {
		return nil, fmt.Errorf("symbolize: open %s: %w", path, err)
	}
	return openMapped(path, m, opts)
}

// OpenMemory is Open for an ELF file held in memory, such as a binary read
// out of a CI artifact that is never written to disk. name labels the object
// in answers and errors; separate debug files are still searched by build-id
// in opts.DebugFileDirectories. data must not change while the object is open.
func OpenMemory(name string, data []byte, opts *Options) (*Object, error) {
	if opts == nil {
		opts = &Options{}
	}
	return openMapped(name, dwarfbuf.Memory(data), opts)
}

// openMapped indexes the ELF file whose bytes m holds; m is released when
// opening fails.
func openMapped(path string, m *dwarfbuf.File, opts *Options) (o *Object, err error) {
	defer func() {
		if p := recover(); p != nil {
			o, err = nil, fmt.Errorf("symbolize: open %s: corrupt ELF or DWARF (decoder panic: %v)", path, p)
		}
		if o == nil {
			m.Close()
		}
	}()
	ef, err := elf.NewFile(bytes.NewReader(m.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("symbolize: open %s: %w", path, err)
	}
	o = &Object{path: path, debugPath: path, byteOrder: ef.ByteOrder, files: []*dwarfbuf.File{m}, dwpPath: opts.DWPPath}
	dwarfData := m
	o.buildID = BuildIDOf(ef)
	o.syms, _ = readSymtab(ef)

	dwarfFile := ef
	if !hasDWARF(ef) {
		if dpath, derr := findDebugFile(path, ef, o.buildID, opts); derr == nil {
			df, ferr := os.Open(dpath)
			if ferr == nil {
				defer df.Close()
				dm, merr := dwarfbuf.Map(df)
				var def *elf.File
				var eerr error = merr
				if merr == nil {
					def, eerr = elf.NewFile(bytes.NewReader(dm.Bytes()))
				}
				if eerr == nil && hasDWARF(def) {
					dwarfFile = def
					dwarfData = dm
					o.files = append(o.files, dm)
					o.debugPath = dpath
					if ds, err := readSymtab(def); err == nil && len(ds.syms) > 0 {
						o.debugSyms = &ds
					}
					// The symbol table stays the binary's own, as in
					// llvm-symbolizer 14: names come from the debug
					// file's DWARF.
				}
			}
		}
	}
	if hasDWARF(dwarfFile) {
		if err := o.loadDWARF(dwarfFile, dwarfData, opts); err != nil {
			o.sec = nil
			o.units = unitIndex{}
			return o, fmt.Errorf("symbolize: open %s: %w", o.debugPath, err)
		}
	}
	if o.sec == nil && len(o.syms.syms) == 0 {
		return o, fmt.Errorf("symbolize: open %s: %w", path, ErrNoDebugInfo)
	}
	return o, nil
}

func hasDWARF(f *elf.File) bool {
	for _, n := range []string{".debug_info", ".zdebug_info"} {
		if s := f.Section(n); s != nil && s.Type != elf.SHT_NOBITS && s.Size > 0 {
			return true
		}
	}
	return false
}

func (o *Object) loadDWARF(f *elf.File, file *dwarfbuf.File, opts *Options) error {
	o.zdebug = f.Section(".debug_info") == nil && f.Section(".zdebug_info") != nil
	sec, err := readDebugSections(f, file)
	if err != nil {
		return err
	}
	if len(sec.info) == 0 {
		return nil
	}
	o.sec = sec
	o.supErr = o.loadSup(f, o.debugPath, opts)
	return o.buildUnitIndex()
}

// SupplementaryError says why the dwz supplementary file the DWARF names
// could not be used (its frames then lack the names and inline calls kept
// there); nil when there is none or it was read.
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
	o.sec, o.units, o.syms = nil, unitIndex{}, symtab{}
	var err error
	o.filesMu.Lock()
	for _, m := range o.files {
		if cerr := m.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("symbolize: close %s: %w", o.path, cerr)
		}
	}
	o.files = nil
	o.filesMu.Unlock()
	return err
}

// Path returns the path the object was opened from.
func (o *Object) Path() string { return o.path }

// BuildID returns the GNU build-id of the binary, nil if it has none.
func (o *Object) BuildID() []byte { return o.buildID }

// DebugPath returns the file the DWARF came from: a separate debug file or
// Path().
func (o *Object) DebugPath() string { return o.debugPath }

// Symbolize returns the frames for addr, innermost first. An address nothing
// knows gives one empty Frame and no error.
func (o *Object) Symbolize(addr uint64, opts LookupOptions) (frames []Frame, err error) {
	if o == nil {
		return []Frame{{}}, errors.New("symbolize: nil object")
	}
	defer func() {
		if p := recover(); p != nil {
			frames, err = []Frame{{}}, fmt.Errorf("symbolize: %s: address 0x%x: decoder panic: %v", o.debugPath, addr, p)
		}
	}()
	frames = o.lookup(addr, opts)
	if len(frames) == 0 {
		frames = []Frame{{}}
	}
	return frames, nil
}

// SymbolizeMany symbolizes addrs; the result is aligned with addrs. Equal
// addresses are looked up once, and the work is spread over the CPUs, except
// in StyleGNU, whose answers depend on query order.
func (o *Object) SymbolizeMany(addrs []uint64, opts LookupOptions) [][]Frame {
	out := make([][]Frame, len(addrs))
	if opts.Style == StyleGNU {
		// bfd's naming depends on the order of queries (gnunames.go):
		// answer them one by one in input order, as addr2line does.
		for i, a := range addrs {
			out[i], _ = o.Symbolize(a, opts)
		}
		return out
	}
	uniq := make([]uint64, 0, len(addrs))
	seen := make(map[uint64]int, len(addrs))
	for _, a := range addrs {
		if _, ok := seen[a]; !ok {
			seen[a] = len(uniq)
			uniq = append(uniq, a)
		}
	}
	// Sorting keeps each unit's lookups together (and its decode on one
	// worker, usually).
	sorted := append([]uint64(nil), uniq...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	res := make(map[uint64][]Frame, len(sorted))
	workers := runtime.GOMAXPROCS(0)
	if workers > 4 {
		workers = 4
	}
	if len(sorted) < 64 {
		workers = 1
	}
	chunk := (len(sorted) + workers - 1) / workers
	parts := make([][][]Frame, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, (w+1)*chunk
		if hi > len(sorted) {
			hi = len(sorted)
		}
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			p := make([][]Frame, 0, hi-lo)
			for _, a := range sorted[lo:hi] {
				f, _ := o.Symbolize(a, opts)
				p = append(p, f)
			}
			parts[w] = p
		}(w, lo, hi)
	}
	wg.Wait()
	for w := 0; w < workers; w++ {
		lo := w * chunk
		for i, f := range parts[w] {
			res[sorted[lo+i]] = f
		}
	}
	for i, a := range addrs {
		out[i] = res[a]
	}
	return out
}

// Data answers a DATA query: the global object containing addr, from the
// symbol table.
func (o *Object) Data(addr uint64) (ds DataSymbol, ok bool) {
	if o == nil {
		return DataSymbol{}, false
	}
	defer func() {
		if recover() != nil {
			ds, ok = DataSymbol{}, false
		}
	}()
	s, found := o.syms.findData(addr)
	if !found {
		return DataSymbol{}, false
	}
	return DataSymbol{Name: s.name, Demangled: o.demangled.demangle(s.name, StyleLLVM), Start: s.addr, Size: s.size}, true
}

func (opts *Options) debugDirs() []string {
	if opts.DebugFileDirectories == nil {
		return []string{"/usr/lib/debug"}
	}
	return opts.DebugFileDirectories
}
