package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The isolation rules, each with hand-made damage to a fixture: a damaged
// section costs what depends on it, a damaged unit that unit, a damaged
// section header that section; bad program headers do not stop
// section-based reading; a decompression error costs that section; where
// the DWARF cannot answer, the symbol table does (.symtab, then .dynsym).
// Each case also holds the message that says what was left out.

// damaged is a fixture's bytes with helpers to find and damage its headers.
type damaged struct {
	t    *testing.T
	data []byte
	f    *elf.File
}

func damage(t *testing.T, fixture string) *damaged {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", fixture))
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return &damaged{t: t, data: data, f: f}
}

// sec returns the section and the file offset of its header.
func (d *damaged) sec(name string) (*elf.Section, uint64) {
	d.t.Helper()
	shoff := binary.LittleEndian.Uint64(d.data[0x28:])
	for i, s := range d.f.Sections {
		if s.Name == name {
			return s, shoff + uint64(i)*64
		}
	}
	d.t.Fatalf("no section %s", name)
	return nil, 0
}

func (d *damaged) put64(off, v uint64) { binary.LittleEndian.PutUint64(d.data[off:], v) }
func (d *damaged) put32(off uint64, v uint32) {
	binary.LittleEndian.PutUint32(d.data[off:], v)
}
func (d *damaged) put16(off uint64, v uint16) {
	binary.LittleEndian.PutUint16(d.data[off:], v)
}

// symbol returns the address of the named function in the pristine file.
func (d *damaged) symbol(name string) uint64 {
	d.t.Helper()
	syms, _ := d.f.Symbols()
	for _, s := range syms {
		if s.Name == name && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			return s.Value + min(4, s.Size/2)
		}
	}
	d.t.Fatalf("no function %s", name)
	return 0
}

func (d *damaged) open() (*Object, error) {
	d.t.Helper()
	o, err := openBytes(d.t, d.t.TempDir(), d.data)
	if o != nil {
		d.t.Cleanup(func() { o.Close() })
	}
	return o, err
}

// answer is the outermost frame of addr, as llvm-symbolizer asks.
func answer(t *testing.T, o *Object, addr uint64) Frame {
	t.Helper()
	fr, err := o.Symbolize(addr, LookupOptions{Inlines: true, Demangle: true})
	if err != nil {
		t.Fatalf("0x%x: %v", addr, err)
	}
	return fr[len(fr)-1]
}

func TestIsolation(t *testing.T) {
	type check struct {
		fn       string
		wantLine bool // file:line still known (the DWARF still answers)
		wantDecl bool // the function's DIE still found (its DW_AT_decl_line)
	}
	cases := []struct {
		name    string
		fixture string
		damage  func(d *damaged)
		// the one-line account of what was left out
		wantDamage string
		checks     []check
	}{{
		name: "section header: bad name index costs that section", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			_, h := d.sec(".got")
			d.put32(h, 0xffffff)
		},
		wantDamage: "bad section name index 0xffffff; the section has no name",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: "section header: bad name index on .strtab, the symbol table still reads it", fixture: "c-O2-stripped",
		damage: func(d *damaged) {
			_, h := d.sec(".strtab")
			d.put32(h, 0xffffff)
		},
		wantDamage: "bad section name index 0xffffff; the section has no name",
		checks:     []check{{fn: "main", wantLine: false}, {fn: "fill", wantLine: false}},
	}, {
		name: "program headers past the end of the file: sections still read", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			d.put16(0x38, 0xffff)
		},
		wantDamage: "program header table goes past the end of the file (offset 0x40, size 0x37ffc8); program headers ignored",
		checks:     []check{{fn: "main", wantLine: true}},
	}, {
		name: "program header offset past 2^63", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			d.put64(0x20, ^uint64(0))
		},
		wantDamage: "program header table goes past the end of the file (offset 0xffffffffffffffff, size 0x2d8)",
		checks:     []check{{fn: "main", wantLine: true}},
	}, {
		name: ".debug_str past the end of the file: names from the symbol table", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_str")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: ".debug_str: section goes past the end of the file (offset 0x7fff0000, size 0x2bf",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: "zlib checksum: .debug_line_str lost, rows kept", fixture: "c-O2-zlib",
		damage: func(d *damaged) {
			s, _ := d.sec(".debug_line_str")
			d.data[s.Offset+s.FileSize-1] ^= 0xff // the Adler-32 trailer
		},
		wantDamage: ".debug_line_str: zlib decompression: zlib: invalid checksum; section ignored",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: "zstd: .debug_info lost, the symbol table answers", fixture: "c-O2-zstd",
		damage: func(d *damaged) {
			s, _ := d.sec(".debug_info")
			clear(d.data[s.Offset+24 : s.Offset+64]) // past the compression header
		},
		wantDamage: ".debug_info: zstd decompression:",
		checks:     []check{{fn: "main", wantLine: false}, {fn: "fill", wantLine: false}},
	}, {
		name: ".zdebug: .zdebug_line lost, functions from DWARF", fixture: "c-O2-zdebug",
		damage: func(d *damaged) {
			s, _ := d.sec(".zdebug_line")
			clear(d.data[s.Offset+12 : s.Offset+40]) // past "ZLIB" and the size
		},
		wantDamage: ".zdebug_line: zlib decompression (.zdebug): ",
		checks:     []check{{fn: "main", wantLine: false}, {fn: "fill", wantLine: false}},
	}, {
		name: ".zdebug cut short: the section lost, said with its extent", fixture: "c-O2-zdebug",
		damage: func(d *damaged) {
			s, h := d.sec(".zdebug_line")
			d.put64(h+32, s.FileSize/2)
		},
		wantDamage: ".zdebug_line: zlib decompression (.zdebug): the compressed stream ends early (offset 0x3634, size 0xa9); section ignored",
		checks:     []check{{fn: "main"}, {fn: "fill"}},
	}, {
		name: ".symtab unreadable: .dynsym and DWARF answer", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			_, h := d.sec(".symtab")
			d.put32(h+40, 0xfff) // sh_link: no such string table
		},
		wantDamage: ".symtab: its string table's section index 4095 is out of range; symbol table ignored",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: ".strtab flagged compressed: read as it is, as llvm does", fixture: "c-O2-stripped",
		damage: func(d *damaged) {
			_, h := d.sec(".strtab")
			d.put64(h+8, uint64(elf.SHF_COMPRESSED))
		},
		checks: []check{{fn: "main", wantLine: false}, {fn: "fill", wantLine: false}},
	}, {
		name: ".debug_abbrev lost: the unit is lost, the symbol table answers", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_abbrev")
			d.put64(h+32, 0x7fff0000)
		},
		wantDamage: ".debug_abbrev: section goes past the end of the file",
		checks:     []check{{fn: "main", wantLine: false}},
	}, {
		name: ".debug_line damaged: the unit's rows lost, functions kept", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			s, _ := d.sec(".debug_line")
			d.put16(s.Offset+4, 0) // the line program's version
		},
		checks: []check{{fn: "main", wantLine: false}, {fn: "fill", wantLine: false}},
	}, {
		name: ".debug_rnglists lost: unit ranges from the line table", fixture: "c-O2-dw5-clang",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_rnglists")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: ".debug_rnglists: section goes past the end of the file",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: ".debug_rnglists and .debug_line lost: unit ranges from its functions", fixture: "c-O2-dw5-pie",
		damage: func(d *damaged) {
			for _, n := range []string{".debug_rnglists", ".debug_line"} {
				_, h := d.sec(n)
				d.put64(h+24, 0x7fff0000)
			}
		},
		wantDamage: ".debug_line: section goes past the end of the file",
		checks:     []check{{fn: "main", wantLine: false, wantDecl: true}, {fn: "fill", wantLine: false, wantDecl: true}},
	}, {
		name: ".debug_addr lost: addresses of DIEs unknown, lines and symbols answer", fixture: "c-O2-dw5-clang",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_addr")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: ".debug_addr: section goes past the end of the file",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}, {
		name: ".debug_str_offsets lost: names from the symbol table", fixture: "c-O2-dw5-clang",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_str_offsets")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: ".debug_str_offsets: section goes past the end of the file",
		checks:     []check{{fn: "main", wantLine: true}, {fn: "fill", wantLine: true}},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := damage(t, tc.fixture)
			addrs := make([]uint64, len(tc.checks))
			for i, c := range tc.checks {
				addrs[i] = d.symbol(c.fn)
			}
			tc.damage(d)
			o, err := d.open()
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			got := ""
			if derr := o.Damage(); derr != nil {
				got = derr.Error()
			}
			if tc.wantDamage != "" && !strings.Contains(got, tc.wantDamage) {
				t.Errorf("Damage() = %q, want it to contain %q", got, tc.wantDamage)
			}
			if strings.Contains(got, "\n") {
				t.Errorf("Damage() spans lines: %q", got)
			}
			for i, c := range tc.checks {
				f := answer(t, o, addrs[i])
				if f.Function != c.fn {
					t.Errorf("0x%x: function %q, want %q (damage: %s)", addrs[i], f.Function, c.fn, got)
				}
				if c.wantDecl && f.StartLine == 0 {
					t.Errorf("0x%x (%s): no DW_AT_decl_line; the unit's DIEs should still be found (damage: %s)", addrs[i], c.fn, got)
				}
				if c.wantLine && f.Line == 0 {
					t.Errorf("0x%x (%s): no line; the DWARF should still answer (damage: %s)", addrs[i], c.fn, got)
				}
			}
		})
	}
}

// A unit with an unsupported version costs that unit: the others still
// answer from their DWARF, and the damaged unit's code from the symbol
// table.
func TestIsolationUnit(t *testing.T) {
	d := damage(t, "rust-v0-O")
	pristine, err := d.open()
	if err != nil {
		t.Fatal(err)
	}
	// One address whose unit is the first, one in another unit.
	var inFirst, inOther uint64
	var firstOff uint64
	for i, s := range pristine.syms.syms {
		if s.typ() != elf.STT_FUNC || s.size < 8 {
			continue
		}
		a := pristine.syms.addrs[i] + s.size/2
		u := pristine.dw.UnitFor(a)
		if u == nil {
			continue
		}
		if f := answer(t, pristine, a); f.Line == 0 || f.Function == "" {
			continue
		}
		switch {
		case inFirst == 0:
			inFirst, firstOff = a, u.Offset()
		case inOther == 0 && u.Offset() != firstOff:
			inOther = a
		}
	}
	if inFirst == 0 || inOther == 0 {
		t.Fatal("fixture has no two units with code")
	}
	before := answer(t, pristine, inOther)
	firstName := answer(t, pristine, inFirst).Function
	info, _ := d.sec(".debug_info")
	if info.Flags&elf.SHF_COMPRESSED != 0 {
		t.Fatal(".debug_info is compressed in the fixture")
	}
	pristineBytes := append([]byte(nil), d.data...)
	// The unit's version: its length still says where the next one is.
	// Its length: reserved, so the next unit is found through the
	// .debug_aranges set that names it.
	ar, _ := d.sec(".debug_aranges")
	arData, _ := ar.Data()
	var next uint64
	// Each set's header: its length (32-bit here), version, unit offset.
	for off := 0; off+10 <= len(arData); off += 4 + int(binary.LittleEndian.Uint32(arData[off:])) {
		if u := uint64(binary.LittleEndian.Uint32(arData[off+6:])); u > firstOff && (next == 0 || u < next) {
			next = u
		}
	}
	if next == 0 {
		t.Fatal("no unit after the first in .debug_aranges")
	}
	for _, tc := range []struct {
		name       string
		damage     func()
		wantDamage string
	}{
		{"version", func() { d.put16(info.Offset+firstOff+4, 0) },
			fmt.Sprintf(": .debug_info unit at 0x%x: unsupported version 0; unit ignored", firstOff)},
		{"length", func() { d.put32(info.Offset+firstOff, 0xfffffff5) },
			fmt.Sprintf(": .debug_info unit at 0x%x: reserved unit length 0xfffffff5; unit ignored, reading resumes at 0x%x (the next unit .debug_aranges names)", firstOff, next)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.data = append([]byte(nil), pristineBytes...)
			tc.damage()
			o, err := d.open()
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if derr := o.Damage(); derr == nil || !strings.Contains(derr.Error(), tc.wantDamage) {
				t.Errorf("Damage() = %v, want %q", derr, tc.wantDamage)
			}
			if got := answer(t, o, inOther); got.Function != before.Function || got.Line != before.Line || got.File != before.File {
				t.Errorf("other unit: 0x%x answers %+v, want %+v", inOther, got, before)
			}
			if got := answer(t, o, inFirst); got.Function == "" || got.Line != 0 {
				t.Errorf("damaged unit: 0x%x answers %+v, want the symbol table's name (%q) without a line", inFirst, got, firstName)
			}
		})
	}
}

// A section header table past the end of the file leaves nothing to read:
// the error says where it was supposed to be.
func TestDamageSectionHeaderTable(t *testing.T) {
	d := damage(t, "c-O2-dw5-pie")
	d.put64(0x28, uint64(len(d.data))+0x1000)
	_, err := d.open()
	want := fmt.Sprintf(": section header table goes past the end of the file (offset 0x%x, size 0x", len(d.data)+0x1000)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("open: %v, want %q", err, want)
	}
}

// A file cut inside its headers is named as such: never a bare EOF.
func TestDamageTruncatedHeaders(t *testing.T) {
	d := damage(t, "c-O2-dw5-pie")
	d.data = d.data[:40]
	_, err := d.open()
	if err == nil || !strings.Contains(err.Error(), "file too small for an ELF header (0x28 bytes)") {
		t.Fatalf("open: %v", err)
	}
}
