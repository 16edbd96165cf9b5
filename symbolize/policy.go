package symbolize

import "github.com/sanitrace/sanitrace/symbolize/dwarf"

// A Policy is one reference tool's way of answering from the same DWARF
// and symbol tables: which of the DWARF it reads, which file a line row
// names and how file names are joined, which name each frame of an inline
// chain shows (the DWARF's or the ELF symbol table's), and how names are
// demangled. Each field is one rule; lookup consults them in one place.
// The tools sanitrace answers as are the values LLVM14, LLVM19, GNU240 and
// GDB.
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
	// aliases: which symbol of a table names an address, and so which of
	// the names that share an address (symtab.lookup).
	aliases aliasRule
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
	// symbolsBFD: bfd 2.40's naming (bfd.go): a DWARF function with
	// a linkage name is named from the DWARF, another from the symbol
	// table, which then renames it; the answer depends on the queries
	// before it.
	symbolsBFD
)

// aliasRule is how a tool picks the symbol holding an address, and with
// it which of several symbols at one address (an interceptor and its weak
// alias: __interceptor_pthread_create and pthread_create) names it. None
// of the tools looks at the names, the binding or the type: table order
// and size decide (verified at the 1,654 interceptor addresses of clang
// 14's five runtimes linked into a program and the 2,888 of the shared
// runtimes, testdata/sanitizers).
type aliasRule uint8

const (
	// aliasLastLargest: llvm-symbolizer 14's SymbolizableObjectFile sorts
	// its symbols stably by (address, size), in symbol-table order, and
	// keeps the last of each address: the largest, and of the largest the
	// last in the table (symtab.find). In tsan's .symtab pthread_create
	// (weak) comes before __interceptor_pthread_create, which is named;
	// usleep comes after __interceptor_usleep and is named.
	aliasLastLargest aliasRule = iota
	// aliasFirstLargest: bfd 2.40's elf_find_function walks the table in
	// order and replaces its best candidate only by a strictly larger one
	// (size 0 counting as 1): the first of the largest, among the
	// possible functions of the address's section (symtab.findGNU). So
	// addr2line names pthread_create and __interceptor_usleep.
	aliasFirstLargest
	// aliasLastName: gdb's minimal symbols at one address are sorted by
	// name and the last is preferred among those of the same size
	// (symtab.findGDB): "raise" rather than "gsignal".
	aliasLastName
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
	// demangleLLVM19: llvm-cxxfilt 19's, which is 14's but for the space
	// 14 writes between two template closers (">>", not "> >";
	// TemplateArgs::printLeft), its expressions (parenthesised by
	// precedence) and an ABI-tagged class's constructors (cxxfilt.LLVM19).
	demangleLLVM19
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
		aliases:         aliasLastLargest,
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
		aliases:               aliasFirstLargest,
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
		// A backtrace shows a symtab's filename (dwarf.PathGDB):
		// "./nptl/pthread_kill.c" where the full path is
		// "./nptl/./nptl/pthread_kill.c", "mt_abort.c" for the
		// program's own unit.
		paths:    dwarf.PathGDB,
		symbols:  symbolsFallback,
		aliases:  aliasLastName,
		demangle: demangleGDB,
	}
)

// LLVM19 is llvm-symbolizer 19 (Debian's 19.1.7) where its answers
// differ from 14's (docs/differences.md, "llvm-symbolizer 19 versus 14"):
// a DWARF 5 file in directory 0 is not put after the compilation
// directory a second time ("./a.go", not "././a.go"; Go's DWARF names
// directory 0 "."), legacy .zdebug_ sections are no longer read, and its
// demangler closes nested template argument lists without a space
// (">>", where 14 writes "> >").
var LLVM19 = &Policy{
	name:            "llvm-symbolizer 19",
	readsSplitUnits: true,
	paths:           dwarf.PathFullDir0,
	symbols:         symbolsOverride,
	aliases:         aliasLastLargest,
	demangle:        demangleLLVM19,
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
