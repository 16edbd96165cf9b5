package symbolize

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"io"
	"strings"
)

// debugSections holds the raw (decompressed) DWARF sections the engine uses.
// Only these are read: elf.File.DWARF would also read and decompress
// .debug_loclists, .debug_frame, .debug_macro and friends.
type debugSections struct {
	info, abbrev, line, str, lineStr, ranges, rnglists, addr, strOffsets []byte
}

// sectionData returns the decompressed contents of the named DWARF section,
// accepting the legacy ".zdebug_" spelling; nil when absent.
func sectionData(f *elf.File, name string) ([]byte, error) {
	s := f.Section(name)
	if s == nil {
		s = f.Section(".zdebug_" + strings.TrimPrefix(name, ".debug_"))
	}
	if s == nil || s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	// Section.Open handles SHF_COMPRESSED (zlib, zstd) and ".zdebug" (zlib
	// with a "ZLIB" header) transparently.
	r := s.Open()
	var limit int64 = 1 << 32
	data, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.Name, err)
	}
	return data, nil
}

func readDebugSections(f *elf.File) (*debugSections, error) {
	var ds debugSections
	for _, s := range []struct {
		name string
		dst  *[]byte
	}{
		{".debug_info", &ds.info},
		{".debug_abbrev", &ds.abbrev},
		{".debug_line", &ds.line},
		{".debug_str", &ds.str},
		{".debug_line_str", &ds.lineStr},
		{".debug_ranges", &ds.ranges},
		{".debug_rnglists", &ds.rnglists},
		{".debug_addr", &ds.addr},
		{".debug_str_offsets", &ds.strOffsets},
	} {
		b, err := sectionData(f, s.name)
		if err != nil {
			return nil, err
		}
		*s.dst = b
	}
	return &ds, nil
}

// newDWARF builds a dwarf.Data from the sections; nil, nil when the file has
// no .debug_info.
func (ds *debugSections) newDWARF() (*dwarf.Data, error) {
	if len(ds.info) == 0 {
		return nil, nil
	}
	d, err := dwarf.New(ds.abbrev, nil, nil, ds.info, ds.line, nil, ds.ranges, ds.str)
	if err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		data []byte
	}{
		{".debug_addr", ds.addr},
		{".debug_line_str", ds.lineStr},
		{".debug_str_offsets", ds.strOffsets},
		{".debug_rnglists", ds.rnglists},
	} {
		if len(s.data) > 0 {
			if err := d.AddSection(s.name, s.data); err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	return d, nil
}
