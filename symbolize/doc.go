// Package symbolize answers "what source location is this address?" for ELF
// objects: DWARF 2–5 line tables and inline chains, the ELF symbol tables for
// code without DWARF, DATA queries for globals, FRAME queries for locals,
// and function bounds from call frame information. Its answers are a
// reference tool's: a Policy value per tool (LLVM14 for llvm-symbolizer 14,
// GNU240 for GNU addr2line 2.40, GDB for gdb's frame names) holds the rules
// in which they differ, and lookup.go consults it in one place, so the faces
// only have to format frames.
//
// An Object is opened once per ELF file. The file is mapped, not read;
// opening parses the section headers and the symbol tables, finds the DWARF
// (in the file, a separate debug file, .dwo files and .dwp packages, a dwz
// supplementary file, as debuginfo finds them) and hands it to package
// dwarf, which decodes it: the root DIE of every compilation unit at open,
// each unit's line table and function/inline index on the first lookup
// that needs them (a unit's very first lookup only probes it for its one
// address), cached with their errors. This package keeps the files, the
// symbol tables, and what the tools make of the DWARF: names resolved
// through abstract origins and declarations (naming.go), the symbol-table
// fallbacks (symtab.go), bfd's quirks (bfd.go), demangling; resolved and
// demangled names are cached per DIE and per symbol. Lookups are safe for
// concurrent use. docs/performance.md has the measurements.
//
// Damaged input costs what depends on it: the decoders return errors,
// which Damage, SplitDWARFErrors and SupplementaryError report, and the
// rest of the file still answers. No decoder recovers a panic; Symbolize
// alone keeps one recover, the last line of defence of a long session
// against a bug of the engine: that answer is lost, with an ErrInternal
// error naming the file and address.
package symbolize
