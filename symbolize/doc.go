// Package symbolize answers "what source location is this address?" for ELF
// objects: DWARF 2–5 line tables and inline chains, the ELF symbol tables for
// code without DWARF, and DATA queries for globals. Its answers follow the
// naming rules of llvm-symbolizer 14 (StyleLLVM) or GNU addr2line 2.40
// (StyleGNU), so the drop-in faces only have to format frames.
//
// An Object is opened once per ELF file. Opening reads the section headers,
// the symbol tables and the root DIE of every compilation unit, nothing more;
// each unit's line table and function/inline tree are decoded on the first
// lookup that needs them and cached, errors included. Lookups are safe for
// concurrent use.
//
// debug/elf and debug/dwarf are used as decoders only: the line program is
// decoded here (debug/dwarf normalises paths with path.Join, which
// llvm-symbolizer does not) and every index is our own sorted table searched
// by binary search. The stdlib decoders may panic on adversarial input, so
// every entry point recovers and turns a panic into an error for that object.
package symbolize
