package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// fixtureSections returns copies of the (inflated) DWARF sections of the
// fixture testdata/elf/name, nil for those it lacks; nil when the fixture
// is missing or has no DWARF.
func fixtureSections(tb testing.TB, name string) *dwarf.Sections {
	f, err := elf.Open(filepath.Join("..", "testdata", "elf", name))
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
	s := &dwarf.Sections{Info: read(".debug_info"), Abbrev: read(".debug_abbrev"), Line: read(".debug_line"), Str: read(".debug_str"),
		LineStr: read(".debug_line_str"), Ranges: read(".debug_ranges"), Rnglists: read(".debug_rnglists"), Addr: read(".debug_addr"),
		StrOffsets: read(".debug_str_offsets")}
	if s.Info == nil {
		return nil
	}
	return s
}

// objectOf returns an Object answering from the DWARF of sec alone (no
// file, no symbol table), its units indexed, and their damage.
func objectOf(sec dwarf.Sections, path string) (*Object, []error) {
	o := &Object{path: path, debugPath: path, dw: dwarf.New(sec, binary.LittleEndian, path)}
	if o.dw == nil {
		return o, nil
	}
	damage := o.dw.IndexUnits()
	o.looked = make([]atomic.Bool, len(o.dw.Units()))
	return o, damage
}

// FuzzDebugInfo: arbitrary .debug_info, .debug_abbrev and .debug_str (the
// other sections the fixture's): the unit index, every unit's function
// index and line table, and lookups through them. No panic or hang; the
// unit index covers only units whose headers could be read.
func FuzzDebugInfo(f *testing.F) {
	var base *dwarf.Sections
	for _, name := range []string{"c-O2-dw5-pie", "c-O0-dw4-nopie", "c-O2-dw5-clang", "cxx-O2-dw5"} {
		s := fixtureSections(f, name)
		if s == nil {
			continue
		}
		if base == nil {
			base = s
		}
		if len(s.Info) < 1<<14 {
			f.Add(s.Info, s.Abbrev, s.Str)
		}
	}
	if base == nil {
		f.Skip("no fixtures")
	}
	f.Add([]byte{0x0b, 0, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 1}, []byte{1, 0x11, 0, 0, 0}, []byte(nil))
	f.Fuzz(func(t *testing.T, info, abbrev, str []byte) {
		sec := *base
		sec.Info, sec.Abbrev, sec.Str = info, abbrev, str
		o, damage := objectOf(sec, "fuzz")
		for _, d := range damage {
			if d == nil || d.Error() == "" {
				t.Fatal("empty damage")
			}
		}
		if o.dw == nil {
			return
		}
		addrs := []uint64{0x1090, 0x1130, 0x1180, 0x11f0, 0x401126, 0x4011a0}
		// The first lookup of a unit (its probe) answers as the full
		// index does, on damaged DIEs too.
		full, _ := objectOf(sec, "fuzz")
		compareFirstLookups(t, o, full, addrs)
		for _, a := range addrs {
			o.lookup(a, LookupOptions{Inlines: true, Demangle: true}, nil)
			o.lookup(a, LookupOptions{Policy: GNU240, Inlines: true}, nil)
		}
	})
}

// FuzzSymbolTable: arbitrary bytes as .symtab and its .strtab (the entry
// size the table's): reading, sorting and every kind of search. A found
// symbol must contain the address by the table's own rule.
func FuzzSymbolTable(f *testing.F) {
	if ef, err := elf.Open(filepath.Join("..", "testdata", "elf", "c-O2-stripped")); err == nil {
		st, ss := ef.Section(".symtab"), ef.Section(".strtab")
		if st != nil && ss != nil {
			tab, _ := st.Data()
			strs, _ := ss.Data()
			f.Add(tab, strs)
		}
		ef.Close()
	}
	f.Add(make([]byte, 48), []byte("\x00main\x00"))
	f.Fuzz(func(t *testing.T, tab, strs []byte) {
		file := elfbuild.Build(
			elfbuild.Section{Name: ".text", Type: elf.SHT_PROGBITS, Flags: elf.SHF_ALLOC | elf.SHF_EXECINSTR, Addr: 0x1000, Data: make([]byte, 0x400)},
			elfbuild.Section{Name: ".symtab", Type: elf.SHT_SYMTAB, Link: 3, Data: tab},
			elfbuild.Section{Name: ".strtab", Type: elf.SHT_STRTAB, Data: strs},
		)
		ef, err := elf.NewFile(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("builder made a file debug/elf refuses: %v", err)
		}
		st, _ := readSymtab(ef, file)
		raw, rerr := rawSymbols(ef, file, elf.SHT_SYMTAB)
		if std, serr := ef.Symbols(); serr == nil && rerr == nil && !reflect.DeepEqual(std, raw) {
			t.Fatalf("rawSymbols read %d symbols, debug/elf %d, or not the same", len(raw), len(std))
		}
		for _, a := range []uint64{0, 0x1000, 0x1090, 0x1200, 0x13ff, 0x2000, ^uint64(0)} {
			if s, ok := st.find(a, nil); ok && a < s.addr {
				t.Fatalf("0x%x found in a symbol at 0x%x", a, s.addr)
			}
			st.findData(a)
			st.findGNU(a)
			st.findGDB(a)
		}
	})
}
