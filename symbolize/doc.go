// Package symbolize answers "what source location is this address?" for ELF
// objects: DWARF 2–5 line tables and inline chains, the ELF symbol tables for
// code without DWARF, DATA queries for globals, FRAME queries for locals,
// and function bounds from call frame information. Its answers follow the
// naming rules of llvm-symbolizer 14 (StyleLLVM) or GNU addr2line 2.40
// (StyleGNU), so the drop-in faces only have to format frames.
//
// An Object is opened once per ELF file. The file is mapped, not read;
// opening parses the section headers and the symbol tables, finds the DWARF
// (in the file, a separate debug file, .dwo files and .dwp packages, a dwz
// supplementary file, as debuginfo finds them) and hands it to package
// dwarf, which decodes it: the root DIE of every compilation unit at open,
// each unit's line table and function/inline index on the first lookup
// that needs them (a unit's very first lookup only probes it for its one
// address: firstlookup.go), cached with their errors. This package keeps
// the files, the symbol tables, and what the reference tools make of the
// DWARF: names resolved through abstract origins and declarations, the
// symbol-table fallbacks, bfd's quirks, demangling; resolved and demangled
// names are cached per DIE and per symbol. Lookups are safe for concurrent
// use. docs/performance.md has the measurements.
//
// Decoders may panic on adversarial input, so every entry point recovers and
// turns a panic into an error for that object.
package symbolize
