package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
)

// fixtureSections returns the named (inflated) DWARF sections of a
// fixture, nil for those it lacks.
func fixtureSections(tb testing.TB, name string) *debugSections {
	o, err := Open(filepath.Join("..", "testdata", "elf", name), noDebugDirs())
	if err != nil || o.sec == nil {
		tb.Logf("fixture %s: %v", name, err)
		return nil
	}
	tb.Cleanup(func() { o.Close() })
	s := *o.sec
	copied := func(b []byte) []byte { return append([]byte(nil), b...) }
	return &debugSections{info: copied(s.info), abbrev: copied(s.abbrev), line: copied(s.line), str: copied(s.str),
		lineStr: copied(s.lineStr), ranges: copied(s.ranges), rnglists: copied(s.rnglists), addr: copied(s.addr), strOffsets: copied(s.strOffsets)}
}

// FuzzDebugInfo: arbitrary .debug_info, .debug_abbrev and .debug_str (the
// other sections the fixture's): the unit index, every unit's function
// index and line table, and lookups through them. No panic or hang; the
// unit index covers only units whose headers could be read.
func FuzzDebugInfo(f *testing.F) {
	var base *debugSections
	for _, name := range []string{"c-O2-dw5-pie", "c-O0-dw4-nopie", "c-O2-dw5-clang", "cxx-O2-dw5"} {
		s := fixtureSections(f, name)
		if s == nil {
			continue
		}
		if base == nil {
			base = s
		}
		if len(s.info) < 1<<14 {
			f.Add(s.info, s.abbrev, s.str)
		}
	}
	if base == nil {
		f.Skip("no fixtures")
	}
	f.Add([]byte{0x0b, 0, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 1}, []byte{1, 0x11, 0, 0, 0}, []byte(nil))
	f.Fuzz(func(t *testing.T, info, abbrev, str []byte) {
		sec := *base
		sec.info, sec.abbrev, sec.str = info, abbrev, str
		o := &Object{dwarfData: dwarfData{byteOrder: binary.LittleEndian, sec: &sec, debugPath: "fuzz"}}
		var damage []error
		o.units, damage = o.buildUnitIndex()
		for _, d := range damage {
			if d == nil || d.Error() == "" {
				t.Fatal("empty damage")
			}
		}
		for _, u := range o.units.units {
			if u.h.end > uint64(len(info)) || u.h.dieOff > u.h.end {
				t.Fatalf("unit at 0x%x: extent [0x%x, 0x%x) outside the section (0x%x)", u.h.off, u.h.dieOff, u.h.end, len(info))
			}
		}
		addrs := []uint64{0x1090, 0x1130, 0x1180, 0x11f0, 0x401126, 0x4011a0}
		// The first lookup of a unit (its probe) answers as the full
		// index does, on damaged DIEs too.
		full := &Object{dwarfData: dwarfData{byteOrder: binary.LittleEndian, sec: &sec, debugPath: "fuzz"}}
		full.units, _ = full.buildUnitIndex()
		compareFirstLookups(t, o, full, addrs)
		for _, a := range addrs {
			o.lookup(a, LookupOptions{Inlines: true, Demangle: true})
			o.lookup(a, LookupOptions{Style: StyleGNU, Inlines: true})
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
		if std, serr := ef.Symbols(); serr == nil && rerr == nil && len(std) != len(raw) {
			t.Fatalf("rawSymbols read %d symbols, debug/elf %d", len(raw), len(std))
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

// FuzzLocationList: arbitrary .debug_loc and .debug_loclists read as a
// FRAME query reads them (DWARF 4 and 5, each address size): no panic, and
// an answer is the list's expressions, each inside the section.
func FuzzLocationList(f *testing.F) {
	if s := fixtureSections(f, "c-O2-dw5-pie"); s != nil {
		f.Add([]byte(nil), fixtureLoclists(f, "c-O2-dw5-pie"), uint64(0xc), uint8(5), uint8(8), uint64(0))
	}
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x91, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []byte(nil), uint64(0), uint8(4), uint8(8), uint64(0))
	f.Add([]byte(nil), []byte{4, 0, 0x10, 2, 0x91, 0x68, 0}, uint64(0), uint8(5), uint8(8), uint64(0))
	f.Fuzz(func(t *testing.T, loc, loclists []byte, off uint64, version, addrSize uint8, idx uint64) {
		o := &Object{dwarfData: dwarfData{byteOrder: binary.LittleEndian, sec: &debugSections{}}}
		o.locsOnce.Do(func() { o.locs = &locSections{loc: loc, loclists: loclists} })
		sizes := []int{1, 2, 4, 8}
		u := &unit{h: cuHeader{version: 4 + int(version%2), addrSize: sizes[addrSize%4]}}
		w := &frameWalk{o: o, u: u, hasBase: version&2 != 0, hasLoclists: true, loclistsBase: off % 64}
		exprs, err := w.locationList(off)
		if err == nil {
			for _, e := range exprs {
				if len(e) > len(loc)+len(loclists) {
					t.Fatalf("expression of %d bytes from sections of %d and %d", len(e), len(loc), len(loclists))
				}
				exprFrameOffset(e, 6)
			}
		}
		if p, ok := w.loclistOffset(idx); ok {
			w.locationList(p)
		}
		w.frameOffset(attrVal{kind: valSecOff, v: off}, 0, 6)
		w.frameOffset(attrVal{kind: valLoclistx, v: idx}, 0, 6)
	})
}

// fixtureLoclists returns a fixture's .debug_loclists.
func fixtureLoclists(tb testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", name))
	if err != nil {
		return nil
	}
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	if s := ef.Section(".debug_loclists"); s != nil {
		b, _ := s.Data()
		return b
	}
	return nil
}

// FuzzArangesUnits: arbitrary .debug_aranges read for the unit offsets a
// damaged unit length is skipped by: sorted, without repeats, no panic.
func FuzzArangesUnits(f *testing.F) {
	if ef, err := elf.Open(filepath.Join("..", "testdata", "elf", "rust-v0-O")); err == nil {
		if s := ef.Section(".debug_aranges"); s != nil {
			if b, err := s.Data(); err == nil {
				f.Add(b)
			}
		}
		ef.Close()
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x22, 0x72, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, sec []byte) {
		units := arangesUnitOffsets(sec, binary.LittleEndian)
		for i := 1; i < len(units); i++ {
			if units[i] <= units[i-1] {
				t.Fatalf("offsets not sorted and unique: %v", units)
			}
		}
	})
}
