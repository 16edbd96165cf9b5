package symbolize

import "github.com/sanitrace/sanitrace/symbolize/dwarf"

// A Policy is one reference tool's way of answering from the same DWARF
// and symbol tables: which of the DWARF it reads, which file a line row
// names and how file names are joined, which name each frame of an inline
// chain shows (the DWARF's or the ELF symbol table's), and how names are
// demangled. Each field is one rule; lookup consults them in one place.
// The tools sanitrace answers as are the values LLVM14, GNU240 and GDB.
type Policy struct {
	name string

	// readsZdebug: DWARF in legacy .zdebug_ sections is read. binutils
	// 2.40's addr2line reads none of it and answers from the symbol
	// table.
	readsZdebug bool
	// readsSplitUnits: a skeleton unit's DIEs are read from its .dwo or
	// the .dwp package; binutils 2.40 answers from the skeleton alone.
	readsSplitUnits bool
	// lineSequenceUnits: an address no unit's DW_AT_ranges holds goes to
	// the unit whose line table has a sequence holding it. bfd adds every
	// sequence of a decoded line table to its unit's ranges
	// (decode_line_info, DW_LNE_end_sequence), so an address in padding
	// that a unit's DW_AT_ranges leaves out is still answered; llvm only
	// trusts DW_AT_ranges.
	lineSequenceUnits bool
	// bfdRangeLists: range lists are read as bfd 2.40's read_rangelist
	// reads them, which knows no DWARF 5 index forms: a unit whose own
	// DW_AT_ranges list holds a DW_RLE_*x entry is lost with every unit
	// after it (gnuReadable), and an innermost subroutine whose
	// DW_AT_ranges is DW_FORM_rnglistx has no ranges (gnuChain).
	bfdRangeLists bool
	// defaultFileZero: a DWARF 5 row before its sequence's first
	// DW_LNS_set_file names file 0, not DWARF's default 1: binutils 2.40
	// initialises its file name with entry 0, so gcc's cold sequences,
	// whose file 1 is a header, show the unit's own file with the
	// header's line.
	defaultFileZero bool
	// paths: how a line table's file names are joined (RelativeNames asks
	// for dwarf.PathRelative whatever the tool).
	paths dwarf.PathForm
	// readsImplicitDeclFile: a DW_AT_decl_file of form
	// DW_FORM_implicit_const names the frame's StartFile. llvm-symbolizer
	// 14 (and 19) prints an empty StartFileName for it: its
	// DWARFFormValue for an implicit constant is created from the signed
	// value, and toUnsigned() on it yields nothing.
	readsImplicitDeclFile bool
	// symbols: when the ELF symbol table names a frame.
	symbols symbolRule
	// demangle: whose spelling demangled names take.
	demangle demangler
}

// symbolRule is when a frame's name comes from the ELF symbol table.
type symbolRule uint8

const (
	// symbolsOverride: with linkage names, the outermost frame takes its
	// name and start from the symbol holding the address whenever there
	// is one (llvm's shouldOverrideWithSymbolTable: "__libc_start_main"
	// for __libc_start_main_impl), and, when the line table gave it no
	// file, a local symbol's STT_FILE.
	symbolsOverride symbolRule = iota
	// symbolsFallback: the DWARF's name stands for code the DWARF
	// describes; a frame the DWARF leaves unnamed takes the name of the
	// symbol holding the address, with gdb's choice among aliases
	// (symtab.findGDB), from the binary's table, then from the separate
	// debug file's (gdb reads both: clone3 and __restore_rt in a stripped
	// library are named from the latter).
	symbolsFallback
	// symbolsBFD: bfd 2.40's naming (gnunames.go): a DWARF function with
	// a linkage name is named from the DWARF, another from the symbol
	// table, which then renames it; the answer depends on the queries
	// before it.
	symbolsBFD
)

// demangler is whose spelling demangled names take (demanglecache.go).
type demangler uint8

const (
	// demangleLLVM14: llvm-cxxfilt 14's Itanium spelling ("(.cold)"
	// suffixes, "> >"); Rust v0 names only.
	demangleLLVM14 demangler = iota
	// demangleGNU: libiberty's (addr2line -C, c++filt -i): "[clone .cold]",
	// both Rust manglings without hashes.
	demangleGNU
	// demangleGDB: libiberty's, without a template function's return type
	// (gdb computes the name from the DWARF, which has none).
	demangleGDB
)

// The reference tools' policies.
var (
	// LLVM14 is llvm-symbolizer 14.
	LLVM14 = &Policy{
		name:            "llvm-symbolizer 14",
		readsZdebug:     true,
		readsSplitUnits: true,
		paths:           dwarf.PathFull,
		symbols:         symbolsOverride,
		demangle:        demangleLLVM14,
	}
	// GNU240 is GNU addr2line 2.40 (binutils' bfd), with its
	// reproducible quirks.
	GNU240 = &Policy{
		name:                  "addr2line 2.40",
		lineSequenceUnits:     true,
		bfdRangeLists:         true,
		defaultFileZero:       true,
		paths:                 dwarf.PathFull,
		readsImplicitDeclFile: true,
		symbols:               symbolsBFD,
		demangle:              demangleGNU,
	}
	// GDB is gdb 13's naming of a backtrace's frames: the DWARF's names,
	// the symbol tables' where the DWARF has none, libiberty's spelling.
	// What its backtraces do not show (declaration files, lines of
	// inlined calls) follows llvm-symbolizer 14, as does which DWARF is
	// read.
	GDB = &Policy{
		name:            "gdb",
		readsZdebug:     true,
		readsSplitUnits: true,
		paths:           dwarf.PathFull,
		symbols:         symbolsFallback,
		demangle:        demangleGDB,
	}
)

// llvm19 is llvm-symbolizer 19 where sanitrace knows its answers: as 14,
// but a DWARF 5 file in directory 0 is not put after the compilation
// directory a second time ("./a.go", not "././a.go"; Go's DWARF names
// directory 0 "."). Its demangler spells ">>" where 14 spells "> >",
// which cxxfilt has no style for yet: until it has, this value names
// C++ template frames as 14 does, and no face offers it.
var llvm19 = &Policy{
	name:            "llvm-symbolizer 19",
	readsZdebug:     true,
	readsSplitUnits: true,
	paths:           dwarf.PathFullDir0,
	symbols:         symbolsOverride,
	demangle:        demangleLLVM14,
}

// String returns the name of the tool p answers as.
func (p *Policy) String() string { return p.name }

// stateful reports whether p's answers depend on the lookups before them
// (bfd's naming): lookups then run one by one, in input order.
func (p *Policy) stateful() bool { return p.symbols == symbolsBFD }

// pathForm is how p spells file names, relative to the compilation
// directory or not (LookupOptions.RelativeNames).
func (p *Policy) pathForm(relative bool) dwarf.PathForm {
	if relative {
		return dwarf.PathRelative
	}
	return p.paths
}

// fileIndex is the index of the file a line row names.
func (p *Policy) fileIndex(r dwarf.LineRow) uint32 {
	i, unset := r.File()
	if unset && p.defaultFileZero {
		return 0
	}
	return i
}
