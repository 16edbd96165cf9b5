// Package dwarf decodes the DWARF 2–5 of an ELF file for symbolizing: the
// index of its compilation units by address, each unit's line table and
// its index of functions and inlined calls, the DIEs and strings those
// name, range and location lists, split units' .dwo files and .dwp
// packages, and a dwz supplementary file's shared DIEs and strings. It
// reads bytes and says what they mean; which names a frame shows, and how
// a reference tool spells them, is its callers' business (package
// symbolize), and so is finding and opening the files.
//
// A Data is the DWARF of one file (Load, or New from sections in memory).
// IndexUnits reads the header and root DIE of every unit and nothing else:
// a unit's line table (LineTable) and function index (Functions) are
// decoded on first use, once, and kept with their error; Probe answers one
// address of a unit without indexing it. Strings stay references
// (StrRef) into their sections until Str copies one. Every index is a
// sorted table, the big ones (a unit's function begins and DIE offsets, a
// long line sequence) searched through bucket indexes (BucketIndex)
// rather than binary search, whose steps wait on cache misses one after
// another; the line table keeps its rows packed in 12 bytes, the function
// index its inlined calls bucketed by depth and its DIEs packed by kind
// (an inlined call's row holds no names, a subprogram's no call site).
//
// A unit, table or list that cannot be read costs itself, and the rest of
// the file still answers: decoders return errors (naming the section and
// offset, through internal/dwarfbuf's Reader), and the lazy caches keep
// them. Nothing here recovers a panic: the decoders are fuzzed to hold to
// that (go test -fuzz, here and in symbolize).
//
// debug/dwarf is not used: it copies every attribute and string of every
// DIE, which dominated both time and memory on big C++ units, and its
// file names are normalised (path.Join), which symbolizers do not do.
package dwarf
