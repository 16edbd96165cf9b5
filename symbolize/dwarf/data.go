package dwarf

import (
	"debug/elf"
	"encoding/binary"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// Data is the DWARF of one file: its sections and their byte order, the
// unit index, the abbreviation tables, and the strings of the .dwo and
// supplementary files added to it. Each unit's line table and function
// index are decoded on first use and kept, errors included. Its methods
// are safe for concurrent use once IndexUnits has returned.
type Data struct {
	byteOrder   binary.ByteOrder
	sec         *debugSections
	path        string    // the file the DWARF is in, for errors
	elf         *elf.File // its headers, for the sections read later (location lists)
	ext         extStrings
	sup         *supFile // dwz supplementary file; nil when none
	abbrevCache abbrevCache
	// aranges reads .debug_aranges, whose sets name where units start: a
	// unit whose length cannot be used is skipped by it (nil: not read).
	aranges func() []byte
	// paths interns the file names of the line tables.
	paths pathCache
	units unitIndex
	// unpacked: see UnpackedSize.
	unpacked int64

	// Location-list sections, read (and inflated) once, on the first
	// location list asked for.
	locsOnce sync.Once
	locs     *locSections
	locsErr  error
}

// Load reads the DWARF sections of f, whose bytes m maps, the file at
// path. A section that cannot be read (past the end of the file, failing
// to inflate) is left out and its error is in damage: what needs it fails
// later, the rest still answers. d is nil when there is no .debug_info to
// read. The units are indexed by IndexUnits, after AddSupplementary when
// the DWARF names a supplementary file.
func Load(f *elf.File, m *dwarfbuf.File, path string) (d *Data, damage []error) {
	sec, damage := readDebugSections(f, m)
	if len(sec.info) == 0 {
		return nil, damage
	}
	d = &Data{byteOrder: f.ByteOrder, sec: sec, path: path, elf: f, unpacked: unpackedSize(f)}
	d.aranges = func() []byte {
		b, _ := dwarfbuf.Section(f, m.Bytes(), ".debug_aranges")
		return b
	}
	return d, damage
}

// Sections are the bytes of the DWARF sections a Data reads, inflated.
type Sections struct {
	Info, Abbrev, Line, Str, LineStr, Ranges, Rnglists, Addr, StrOffsets []byte
}

// New returns the DWARF whose sections s holds, in byte order bo, as
// read from the file at path (named in errors); nil when s has no
// .debug_info. Its units are indexed by IndexUnits.
func New(s Sections, bo binary.ByteOrder, path string) *Data {
	if len(s.Info) == 0 {
		return nil
	}
	return &Data{byteOrder: bo, path: path, sec: &debugSections{info: s.Info, abbrev: s.Abbrev, line: s.Line, str: s.Str,
		lineStr: s.LineStr, ranges: s.Ranges, rnglists: s.Rnglists, addr: s.Addr, strOffsets: s.StrOffsets}}
}

// IndexUnits reads the header and root DIE of every compilation unit and
// sorts their address ranges for UnitFor. A unit that cannot be read is
// left out and its error is in damage.
func (dw *Data) IndexUnits() (damage []error) {
	dw.units, damage = dw.buildUnitIndex()
	return damage
}

// Path returns the path of the file the DWARF is in.
func (dw *Data) Path() string { return dw.path }

// ByteOrder returns the byte order of the DWARF's file.
func (dw *Data) ByteOrder() binary.ByteOrder { return dw.byteOrder }

// ReleaseResident hands back to the kernel the mapped pages of the
// sections that lookups read at random (range lists, address tables,
// line strings): what a lookup keeps is copied out of them. Pages read
// again come back from the page cache. It costs a system call per
// section.
func (dw *Data) ReleaseResident() { dw.sec.releaseRandom() }

// UnpackedSize is the sum of the sizes of the file's DWARF sections as
// they are when read (a SHF_COMPRESSED section's unpacked size, a legacy
// .zdebug_ section's stored one): what the decoded sections and the
// indexes built from them can take on the heap, for a cache that bounds
// its modules by their footprint. It is summed once, by Load.
func (d *Data) UnpackedSize() int64 { return d.unpacked }

// unpackedSize sums UnpackedSize from f's section headers.
func unpackedSize(f *elf.File) int64 {
	var n int64
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			n += int64(s.Size)
		}
	}
	return n
}
