package symbolize

import (
	"debug/elf"
	"fmt"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// debugSections holds the raw (decompressed) DWARF sections the engine uses.
// Only these are read: elf.File.DWARF would also read and decompress
// .debug_loclists, .debug_frame, .debug_macro and friends.
type debugSections struct {
	info, abbrev, line, str, lineStr, ranges, rnglists, addr, strOffsets []byte

	// file, infoOff and lineOff locate .debug_info and .debug_line in the
	// mapped file when they are stored uncompressed (the flags say so), so
	// the pages of a unit or line table can be handed back once decoded.
	file                   *dwarfbuf.File
	infoOff, lineOff       uint64
	infoMapped, lineMapped bool
}

// readDebugSections loads the sections; one that cannot be read (past the
// end of the file, failing to inflate) is left empty and its error is in
// damage: what needs it fails later, the rest still answers.
func readDebugSections(f *elf.File, m *dwarfbuf.File) (*debugSections, []error) {
	ds := debugSections{file: m}
	ds.infoOff, ds.infoMapped = dwarfbuf.Uncompressed(f, ".debug_info")
	ds.lineOff, ds.lineMapped = dwarfbuf.Uncompressed(f, ".debug_line")
	want := []dwarfbuf.Want{
		{Name: ".debug_info", Dst: &ds.info},
		{Name: ".debug_abbrev", Dst: &ds.abbrev},
		{Name: ".debug_line", Dst: &ds.line},
		{Name: ".debug_str", Dst: &ds.str},
		{Name: ".debug_line_str", Dst: &ds.lineStr},
		{Name: ".debug_ranges", Dst: &ds.ranges},
		{Name: ".debug_rnglists", Dst: &ds.rnglists},
		{Name: ".debug_addr", Dst: &ds.addr},
		{Name: ".debug_str_offsets", Dst: &ds.strOffsets},
	}
	errs := dwarfbuf.Sections(f, m.Bytes(), want)
	// A compressed section's stored bytes were read once, to inflate it
	// (6 MB of go-large's resident pages): hand them back.
	for _, w := range want {
		if _, mapped := dwarfbuf.Uncompressed(f, w.Name); !mapped {
			if off, end, ok := dwarfbuf.Stored(f, w.Name); ok {
				m.Release(off, end)
			}
		}
	}
	var damage []error
	for i, err := range errs {
		if err != nil {
			if want[i].Dst == &ds.info {
				ds.infoMapped = false
			}
			if want[i].Dst == &ds.line {
				ds.lineMapped = false
			}
			damage = append(damage, fmt.Errorf("%w; section ignored", err))
		}
	}
	return &ds, damage
}

// releaseInfo and releaseLine hand the pages of [off, end) of .debug_info
// or .debug_line back to the kernel once decoded (see dwarfbuf.File.Release).
func (ds *debugSections) releaseInfo(off, end uint64) {
	if ds.infoMapped && off < end {
		ds.file.Release(ds.infoOff+off, ds.infoOff+end)
	}
}

func (ds *debugSections) releaseLine(off, end uint64) {
	if ds.lineMapped && off < end {
		ds.file.Release(ds.lineOff+off, ds.lineOff+end)
	}
}
