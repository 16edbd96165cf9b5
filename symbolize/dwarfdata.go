package symbolize

import "encoding/binary"

// dwarfData is an object's DWARF as the decoders see it: its sections and
// their byte order, the strings of its .dwo and supplementary files, and
// the abbreviation tables. Its methods are the decoding layer, the
// dependency running one way: the unit index and line tables (units.go,
// lineprog.go), each unit's function index (funcs.go) and split unit
// headers (split.go) over DIE readers, strings, addresses and ranges
// (info.go) over the bytes. None of them reaches the Object, which
// composes dwarfData and adds lookups, naming rules, FRAME locals and
// the files it owns.
type dwarfData struct {
	byteOrder   binary.ByteOrder
	sec         *debugSections // nil without DWARF
	ext         extStrings     // the strings of .dwo and supplementary files
	sup         *supFile       // dwz supplementary file; nil when none or not found
	abbrevCache abbrevCache
	debugPath   string // the file the DWARF came from: a separate debug file or the binary
	// aranges reads .debug_aranges, whose sets name where units start: a
	// unit whose length cannot be used is skipped by it (nil: not read).
	aranges func() []byte
	// paths interns the file names of the line tables.
	paths pathCache
}
