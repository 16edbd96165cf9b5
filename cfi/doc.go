// Package cfi reads DWARF Call Frame Information: it parses .eh_frame
// (looked up through .eh_frame_hdr's search table when present) and
// .debug_frame (32- and 64-bit, versions 1, 3 and 4, compressed or not),
// evaluates the row of unwind rules in force at a pc, rolls a register set
// back one frame over a memory image (Table.Step), lists FDE ranges as
// function bounds for stripped code, and dumps everything in the exact
// format of binutils 2.40 `readelf --debug-dump=frames[-interp]`.
//
// Malformed entries never stop the rest: each one becomes an error kept in
// Table.Errors (or a line in the dump) and parsing goes on with the next
// entry when its length can be trusted.
package cfi
