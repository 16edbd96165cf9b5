// Package dwarfbuf gives the bytes of an ELF file's debug sections to the
// decoders that read them (the DWARF engine in symbolize, the call-frame
// unwinder in cfi): it maps the file, loads a section decompressed (zlib
// or zstd SHF_COMPRESSED, legacy .zdebug_), and reads the bytes with
// Reader, a sticky-error decoder in the style of debug/dwarf's buf.
//
// It knows the encodings DWARF shares between sections (fixed-size
// integers in the file's byte order, LEB128, NUL-terminated strings), not
// what any section means.
package dwarfbuf
