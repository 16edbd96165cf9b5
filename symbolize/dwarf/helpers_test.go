package dwarf

import (
	"debug/elf"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// openData opens the ELF file at path for the rest of the test and
// returns its DWARF, units indexed (no supplementary file); an error or
// a file without DWARF fails the test.
func openData(tb testing.TB, path string) *Data {
	tb.Helper()
	f, err := debuginfo.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	dw, damage := Load(f.ELF, f.Mapped(), f.Path)
	if dw == nil {
		tb.Fatalf("%s: no DWARF (%v)", path, damage)
	}
	if damage := dw.IndexUnits(); len(damage) > 0 {
		tb.Fatalf("%s: %v", path, damage)
	}
	return dw
}

// fixtureAddrs returns every 5th byte of path's executable sections,
// and a few addresses outside them.
func fixtureAddrs(tb testing.TB, path string) []uint64 {
	tb.Helper()
	f := fx.OpenELF(tb, path)
	var out []uint64
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		for a := s.Addr; a < s.Addr+s.Size; a += 5 {
			out = append(out, a)
		}
	}
	return append(out, 0, 0x10, 0xdeadbeef)
}

// fixtureSections returns copies of the (inflated) DWARF sections of the
// fixture testdata/elf/name, nil for those it lacks; nil when the fixture
// is missing or has no DWARF.
func fixtureSections(tb testing.TB, name string) *Sections {
	f, err := elf.Open(filepath.Join("..", "..", "testdata", "elf", name))
	if err != nil {
		tb.Logf("fixture %s: %v", name, err)
		return nil
	}
	defer f.Close()
	read := func(name string) []byte {
		if s := f.Section(name); s != nil {
			b, _ := s.Data()
			return b
		}
		return nil
	}
	s := &Sections{Info: read(".debug_info"), Abbrev: read(".debug_abbrev"), Line: read(".debug_line"), Str: read(".debug_str"),
		LineStr: read(".debug_line_str"), Ranges: read(".debug_ranges"), Rnglists: read(".debug_rnglists"), Addr: read(".debug_addr"),
		StrOffsets: read(".debug_str_offsets")}
	if s.Info == nil {
		return nil
	}
	return s
}
