package dwarf

import (
	"debug/elf"
	"fmt"
	"slices"
	"sort"
	"sync"

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

	// lineParts holds a compressed .debug_line (line is nil then), in
	// parts that are let go once their programs are decoded.
	lineParts *lineParts

	// randomMapped: the file ranges of the sections stored uncompressed
	// that lookups read at random (strings, range lists, addresses).
	randomMapped [][2]uint64

	// strStored: where .debug_str lies in the file when it is stored
	// uncompressed ([0, 0) otherwise); its names are then read from the
	// file (dwarfbuf.File.CStringAt), not through the mapping.
	strStored [2]uint64
}

// unitWants names the sections a unit's DIEs are decoded from, in a file
// whose DWARF section names end in suffix (".dwo" in split DWARF's files),
// .debug_info first.
func (ds *debugSections) unitWants(suffix string) []dwarfbuf.Want {
	return []dwarfbuf.Want{
		{Name: ".debug_info" + suffix, Dst: &ds.info},
		{Name: ".debug_abbrev" + suffix, Dst: &ds.abbrev},
		{Name: ".debug_str" + suffix, Dst: &ds.str},
		{Name: ".debug_str_offsets" + suffix, Dst: &ds.strOffsets},
		{Name: ".debug_rnglists" + suffix, Dst: &ds.rnglists},
	}
}

// readDebugSections loads the sections; one that cannot be read (past the
// end of the file, failing to inflate) is left empty and its error is in
// damage: what needs it fails later, the rest still answers.
func readDebugSections(f *elf.File, m *dwarfbuf.File) (*debugSections, []error) {
	ds := debugSections{file: m}
	var lines dwarfbuf.Units
	ds.infoOff, ds.infoMapped = dwarfbuf.Uncompressed(f, ".debug_info")
	ds.lineOff, ds.lineMapped = dwarfbuf.Uncompressed(f, ".debug_line")
	want := append(ds.unitWants(""),
		dwarfbuf.Want{Name: ".debug_line", Dst: &ds.line, Units: &lines},
		dwarfbuf.Want{Name: ".debug_line_str", Dst: &ds.lineStr},
		dwarfbuf.Want{Name: ".debug_ranges", Dst: &ds.ranges},
		dwarfbuf.Want{Name: ".debug_addr", Dst: &ds.addr},
	)
	errs := dwarfbuf.Sections(f, m.Bytes(), want)
	if len(lines.Offs) > 0 {
		ds.lineParts = newLineParts(lines, func() []byte {
			b, _ := dwarfbuf.Section(f, m.Bytes(), ".debug_line")
			return b
		})
	}
	for _, w := range want {
		off, end, compressed, ok := dwarfbuf.Stored(f, w.Name)
		switch {
		case !ok:
		case compressed:
			// Its stored bytes were read once, to inflate it (6 MB of
			// go-large's resident pages): hand them back.
			m.Release(off, end)
		case w.Dst == &ds.str:
			ds.strStored = [2]uint64{off, end}
		case w.Dst != &ds.info && w.Dst != &ds.abbrev && w.Dst != &ds.line:
			// Read at random by lookups (strings, range lists,
			// addresses): see releaseRandom.
			ds.randomMapped = append(ds.randomMapped, [2]uint64{off, end})
		}
	}
	var damage []error
	for i, err := range errs {
		if err != nil {
			if want[i].Dst == &ds.str {
				ds.strStored = [2]uint64{}
			}
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
	if ds.lineParts != nil {
		ds.lineParts.decoded(off)
		return
	}
	if ds.lineMapped && off < end {
		ds.file.Release(ds.lineOff+off, ds.lineOff+end)
	}
}

// lineAt returns bytes of .debug_line that hold the line program at off,
// the section offset where they start, and the section's size.
func (ds *debugSections) lineAt(off uint64) (line []byte, base, size uint64) {
	if ds.lineParts != nil {
		return ds.lineParts.at(off)
	}
	return ds.line, 0, uint64(len(ds.line))
}

// lineParts is a compressed .debug_line inflated in parts of whole line
// programs (dwarfbuf.Units). A part is let go once every program in it is
// decoded, as the pages of a section stored uncompressed are handed back:
// the rows and names are copied out, and on a Go binary the inflated
// section was a twelfth of the session's heap. A program asked for again
// after that (two units naming one table), or at an offset where no
// program starts, is read from the whole section, inflated again once.
type lineParts struct {
	mu    sync.Mutex
	units dwarfbuf.Units
	left  []int32 // programs of each part not yet decoded; -1: keep
	whole []byte
	again func() []byte // inflates the whole section
}

func newLineParts(u dwarfbuf.Units, again func() []byte) *lineParts {
	p := &lineParts{units: u, left: make([]int32, len(u.Offs)), again: again}
	for _, off := range u.Starts {
		p.left[p.partOf(off)]++
	}
	return p
}

// partOf returns the index of the part that holds section offset off.
func (p *lineParts) partOf(off uint64) int {
	return sort.Search(len(p.units.Offs), func(i int) bool { return p.units.Offs[i] > off }) - 1
}

// part returns the index of the part that holds the program at off, or
// -1 when no program starts there or its part was let go.
func (p *lineParts) part(off uint64) int {
	if _, found := slices.BinarySearch(p.units.Starts, off); !found {
		return -1
	}
	if i := p.partOf(off); p.units.Bufs[i] != nil {
		return i
	}
	return -1
}

func (p *lineParts) at(off uint64) ([]byte, uint64, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := p.part(off); i >= 0 {
		return p.units.Bufs[i], p.units.Offs[i], p.units.Size
	}
	if p.whole == nil {
		p.whole = p.again()
	}
	return p.whole, 0, uint64(len(p.whole))
}

// decoded notes that the program at off is decoded.
func (p *lineParts) decoded(off uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := p.part(off); i >= 0 && p.left[i] > 0 {
		if p.left[i]--; p.left[i] == 0 {
			p.units.Bufs[i] = nil
		}
	}
}

// releaseRandom hands back the pages of the sections lookups read at
// random (see Data.ReleaseResident).
func (ds *debugSections) releaseRandom() {
	for _, r := range ds.randomMapped {
		ds.file.Release(r[0], r[1])
	}
}
