// Package symbolize answers "what source location is this address?" for ELF
// objects: DWARF 2–5 line tables and inline chains, the ELF symbol tables for
// code without DWARF, and DATA queries for globals. Its answers follow the
// naming rules of llvm-symbolizer 14 (StyleLLVM) or GNU addr2line 2.40
// (StyleGNU), so the drop-in faces only have to format frames.
//
// An Object is opened once per ELF file. The file is mapped, not read;
// opening parses the section headers, the symbol tables and the root DIE of
// every compilation unit, and inflates compressed DWARF sections (once,
// concurrently). Each unit's line table and function/inline index are
// decoded on the first lookup that needs them and cached, errors included
// (a unit's very first lookup only probes it for its one address:
// firstlookup.go);
// resolved and demangled names are cached per DIE and per symbol. Lookups
// are safe for concurrent use. docs/performance.md has the measurements.
//
// debug/elf is used for the ELF structure and to inflate sections. DWARF is
// read by this package (info.go, lineprog.go): debug/dwarf copies every
// attribute and string of every DIE, which dominated both time and memory on
// big C++ units, and normalises paths with path.Join, which llvm-symbolizer
// does not. Every index is our own sorted table searched by binary search.
// Decoders may panic on adversarial input, so every entry point recovers and
// turns a panic into an error for that object.
package symbolize
