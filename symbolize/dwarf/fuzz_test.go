package dwarf

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzLineProgram feeds arbitrary bytes to the line-program decoder.
func FuzzLineProgram(f *testing.F) {
	if s := fixtureSections(f, "c-O2-dw5-pie"); s != nil {
		line := s.Line
		if len(line) > 4096 {
			line = line[:4096]
		}
		f.Add(line, s.LineStr)
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0}, []byte(nil))
	f.Fuzz(func(t *testing.T, line, lineStr []byte) {
		in := lineProgramInput{line: line, lineStr: lineStr, compDir: "/c", bo: binary.LittleEndian}
		lt, err := decodeLineProgram(in)
		pcs := []uint64{0, 0x1130}
		if lt != nil {
			lt.Lookup(0x1130)
			for _, s := range lt.seqs {
				for i := s.first; i < s.first+s.n; i += max(1, s.n/8) {
					a := lt.row(int(i), s.start).addr
					pcs = append(pcs, a, a+1)
				}
			}
			// The packed rows read back as the same table kept wide.
			wide := in
			wide.wide = true
			wt, werr := decodeLineProgram(wide)
			if fmt.Sprint(werr) != fmt.Sprint(err) || wt == nil || !slices.Equal(wt.seqs, lt.seqs) {
				t.Fatalf("kept wide, the table fails with %v (seqs %v), packed with %v (seqs %v)", werr, wt != nil && slices.Equal(wt.seqs, lt.seqs), err, lt.seqs)
			}
			for _, s := range lt.seqs {
				for i := s.first; i < s.first+s.n; i++ {
					if r, w := lt.row(int(i), s.start), wt.row(int(i), s.start); r != w {
						t.Fatalf("row %d: packed %+v, wide %+v", i, r, w)
					}
				}
			}
			for i := range lt.files {
				for _, form := range []PathForm{PathFull, PathFullDir0, PathRelative} {
					lt.FileName(uint32(i), form)
				}
			}
		}
		// A probe for one address (the first lookup of a unit) fails as
		// the decoder does and, when it answers, answers as the table.
		for _, pc := range pcs {
			p := &lineProbe{pc: pc, ok: true}
			in.probe = p
			pt, perr := decodeLineProgram(in)
			if fmt.Sprint(perr) != fmt.Sprint(err) || (pt == nil) != (lt == nil) {
				t.Fatalf("pc 0x%x: the probe fails with %v (table %v), the decoder with %v (table %v)", pc, perr, pt != nil, err, lt != nil)
			}
			if pt == nil || !p.ok {
				continue
			}
			row, ok := lt.Lookup(pc)
			prow, pok := pt.Lookup(pc)
			if row != prow || ok != pok || !slices.Equal(lt.files, pt.files) || !slices.Equal(lt.rel, pt.rel) || lt.version != pt.version {
				t.Fatalf("pc 0x%x: the probe gives %+v %v, the table %+v %v (or their files differ)", pc, prow, pok, row, ok)
			}
		}
	})
}

// FuzzCUIndex feeds arbitrary bytes to the .debug_cu_index decoder of DWARF
// packages: no panic, and a decoded index has no more rows than hash slots.
func FuzzCUIndex(f *testing.F) {
	for _, name := range []string{"split-dw5-dwp/prog.dwp", "split-dw4-dwp/prog.dwp"} {
		ef, err := elf.Open(filepath.Join("..", "..", "testdata", "elf", name))
		if err != nil {
			continue
		}
		if s := ef.Section(".debug_cu_index"); s != nil {
			if data, err := s.Data(); err == nil {
				f.Add(data)
			}
		}
		ef.Close()
	}
	f.Add([]byte{5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, sec []byte) {
		idx, err := parseCUIndex(sec, binary.LittleEndian)
		if err != nil {
			return
		}
		slots := uint64(binary.LittleEndian.Uint32(sec[12:]))
		if uint64(len(idx.rows)) > slots {
			t.Fatalf("%d rows from %d slots", len(idx.rows), slots)
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
		dw := &Data{byteOrder: binary.LittleEndian, sec: &debugSections{}}
		dw.locsOnce.Do(func() { dw.locs = &locSections{loc: loc, loclists: loclists} })
		sizes := []int{1, 2, 4, 8}
		u := &Unit{h: Header{version: 4 + int(version%2), addrSize: sizes[addrSize%4]}}
		hasBase := version&2 != 0
		exprs, err := dw.LocationList(u, off, hasBase)
		if err == nil {
			for _, e := range exprs {
				if len(e) > len(loc)+len(loclists) {
					t.Fatalf("expression of %d bytes from sections of %d and %d", len(e), len(loc), len(loclists))
				}
			}
		}
		if p, ok := dw.LoclistOffset(u, off%64, idx); ok {
			dw.LocationList(u, p, hasBase)
		}
	})
}

// fixtureLoclists returns a fixture's .debug_loclists.
func fixtureLoclists(tb testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elf", name))
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
	if ef, err := elf.Open(filepath.Join("..", "..", "testdata", "elf", "rust-v0-O")); err == nil {
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

// FuzzUnits: arbitrary .debug_info, .debug_abbrev and .debug_str (the
// other sections a fixture's): the unit index, every unit's function
// index and line table, and a probe for a few addresses. No panic or
// hang; the unit index holds only units whose headers could be read, and
// a probe that answers finds the chain the full index finds.
func FuzzUnits(f *testing.F) {
	var base *Sections
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
		probe, full := New(sec, binary.LittleEndian, "fuzz"), New(sec, binary.LittleEndian, "fuzz")
		if probe == nil {
			return
		}
		for _, d := range probe.IndexUnits() {
			if d == nil || d.Error() == "" {
				t.Fatal("empty damage")
			}
		}
		full.IndexUnits()
		for _, u := range probe.Units() {
			if u.h.end > uint64(len(info)) || u.h.dieOff > u.h.end {
				t.Fatalf("unit at 0x%x: extent [0x%x, 0x%x) outside the section (0x%x)", u.h.off, u.h.dieOff, u.h.end, len(info))
			}
		}
		for _, pc := range []uint64{0x1090, 0x1130, 0x1180, 0x11f0, 0x401126, 0x4011a0} {
			pu, fu := probe.UnitFor(pc), full.UnitFor(pc)
			if (pu == nil) != (fu == nil) {
				t.Fatalf("0x%x: the two indexes disagree on its unit", pc)
			}
			if pu == nil {
				continue
			}
			_, pfi, ok := probe.Probe(pu, pc)
			fi, _ := full.Functions(fu)
			full.LineTable(fu)
			if !ok || fi == nil {
				continue
			}
			got, want := pfi.Chain(pc, nil), fi.Chain(pc, nil)
			if len(got) != len(want) {
				t.Fatalf("0x%x: the probe's chain has %d subroutines, the index's %d", pc, len(got), len(want))
			}
			for i := range got {
				if pfi.Offset(got[i]) != fi.Offset(want[i]) {
					t.Fatalf("0x%x: subroutine %d of the chain at 0x%x, the index's at 0x%x", pc, i, pfi.Offset(got[i]), fi.Offset(want[i]))
				}
			}
		}
	})
}
