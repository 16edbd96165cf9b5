package symbolize

import (
	"sync"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// Object answers lookups for one ELF file. It is safe for concurrent use.
// This file holds what an Object is, its fields and the types of the
// state they keep; opening and closing it are in open.go, the lookups in
// lookup.go and the files named in the fields' comments.
type Object struct {
	path    string
	buildID []byte
	// dw is the DWARF, from the binary or its separate debug file; nil
	// when there is none to read.
	dw *dwarf.Data
	// debugPath is the file the DWARF came from: a separate debug file or
	// the binary.
	debugPath string

	files   []*dwarfbuf.File // the binary, its debug file and .dwo files, unmapped by Close
	filesMu sync.Mutex       // .dwo files are added by lookups
	// mapped is the summed size of files, kept with it (addFile), so
	// that Footprint, asked at the end of every lookup's lease, is a load.
	mapped    atomic.Int64
	debugFile *debuginfo.File   // the separate debug file; nil when none
	finder    *debuginfo.Finder // where the .dwp and .dwo files are
	ownFinder bool              // the Finder is the Object's own, closed by Close
	// The .dwp package and why split units could not be read (split.go).
	dwpOnce   sync.Once
	dwp       dwpState
	splitErrs splitErrors

	supErr error // why a named supplementary file could not be used
	// damage: the parts of the file that could not be read and were left
	// out at open (headers, sections, units); see Damage.
	damage []error
	// looked: by unit (dwarf.Unit.Index), whether a lookup has been
	// answered in it; probes counts the first lookups answered without
	// indexing their unit (lookup.go's probeUnit).
	looked []atomic.Bool
	probes atomic.Int32
	syms   symtab
	// globals: the DWARF's global variables, for DATA declarations
	// (datadecl.go), read on the first query that asks.
	globals globalsIndex
	// debugSyms is the separate debug file's symbol table: binutils names
	// functions from it (dwarf2.c _bfd_dwarf2_stash_syms), llvm does not.
	debugSyms *symtab
	// zdebug: the DWARF is in legacy .zdebug_* sections, which binutils
	// 2.40's addr2line does not read (Policy.readsZdebug).
	zdebug bool

	demangled demangleCache // naming.go
	// bfd's naming state and indexes (bfd.go).
	gnu     gnuState
	gnuSeqs gnuSeqIndex
	gnuVars gnuVarIndex

	// Call frame information, read once on the first FuncStart (fdes.go).
	fdeOnce sync.Once
	fdes    fdeState
}

// dwpState is an object's package, opened on the first split unit's lookup.
type dwpState struct {
	path string
	d    *dwarf.DWO
	idx  *dwarf.PackageIndex
	err  error
}

// splitErrors collects why split units could not be read, in the order
// their lookups met them.
type splitErrors struct {
	mu      sync.Mutex
	errs    []error
	damaged map[string]bool // files whose damage is in errs
}

// demangleCache demangles each distinct name once per style: big C++
// binaries repeat the same few thousand names across millions of frames,
// and demangling costs more than reading the DWARF. It is the only cache of
// demangled text, keyed two ways: by the mangled name (ELF symbols), and
// by the DWARF string reference a linkage name comes from, so that a
// repeated frame costs one small-key lookup instead of hashing (and first
// copying) a name that can run to kilobytes in C++ binaries. (The per-DIE
// and per-symbol slots of naming.go keep what a frame prints, demangled
// through here.)
//
// Plain maps under a mutex rather than sync.Maps: a sync.Map boxes every
// key and value and adds a node per entry, some 200,000 small objects of
// pointers on a big C++ binary that every collection must mark again; a
// map keeps its entries in a few large arrays. The locks are taken only on
// a miss of the per-DIE slots, and never while demangling.
type demangleCache struct {
	byName lockedStrings[nameKey]
	byRef  lockedStrings[refKey]
}

// lockedStrings is a map to strings under a lock of its own, made on the
// first put.
type lockedStrings[K comparable] struct {
	mu sync.Mutex
	m  map[K]string
}

func (s *lockedStrings[K]) get(k K) (string, bool) {
	s.mu.Lock()
	v, ok := s.m[k]
	s.mu.Unlock()
	return v, ok
}

func (s *lockedStrings[K]) put(k K, v string) {
	s.mu.Lock()
	if s.m == nil {
		s.m = make(map[K]string)
	}
	s.m[k] = v
	s.mu.Unlock()
}

type nameKey struct {
	style demangler
	name  string
}

type refKey struct {
	style demangler
	ref   dwarf.StrRef
}

// gnuState is bfd's naming state for one object (bfd.go).
type gnuState struct {
	mu    sync.Mutex
	funcs map[uint64]*gnuFunc // by DIE offset

	unitsOnce sync.Once
	lostFrom  uint64 // .debug_info offset of the first unit bfd cannot parse (gnuReadable)
}

// gnuFunc is bfd's struct funcinfo state for one function DIE.
type gnuFunc struct {
	linkage bool   // is_linkage: print the DWARF name
	renamed string // the symbol name bfd replaced the DWARF name with
}

// gnuSeqIndex maps addresses to units through their line-table sequences.
// binutils 2.40 adds every sequence of a decoded line table to its unit's
// address ranges (decode_line_info, DW_LNE_end_sequence), so an address in
// padding that a CU's DW_AT_ranges leaves out but its line table covers is
// still answered ("main" / "file.c:12"). llvm only trusts DW_AT_ranges.
type gnuSeqIndex struct {
	once sync.Once
	idx  dwarf.UnitRanges
}

// gnuVar is a variable with a fixed address (DW_OP_addr) and its
// declaration, which binutils 2.40 reports for the variable's first byte
// (file:line, with the function name from the symbol table or "??").
type gnuVar struct {
	u        *dwarf.Unit
	declFile int64
	declLine int64
}

type gnuVarIndex struct {
	once sync.Once
	vars map[uint64]gnuVar
}

// fdeState is an Object's call frame information, read on the first
// FuncStart: only code without symbols needs it.
type fdeState struct {
	table *cfi.Table
	err   error
}
