package dwarf

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// lineProg assembles a DWARF 4 line program with one file, "a.c", for
// tests of how rows are stored.
type lineProg struct{ ops []byte }

func (p *lineProg) uleb(v uint64) {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			c |= 0x80
		}
		p.ops = append(p.ops, c)
		if v == 0 {
			return
		}
	}
}

func (p *lineProg) setAddress(a uint64) {
	p.ops = append(p.ops, 0, 9, 2)
	p.ops = binary.LittleEndian.AppendUint64(p.ops, a)
}
func (p *lineProg) advancePC(n uint64)   { p.ops = append(p.ops, 2); p.uleb(n) }
func (p *lineProg) advanceLine(n uint64) { p.ops = append(p.ops, 3); p.uleb(n) }
func (p *lineProg) setFile(n uint64)     { p.ops = append(p.ops, 4); p.uleb(n) }
func (p *lineProg) setColumn(n uint64)   { p.ops = append(p.ops, 5); p.uleb(n) }
func (p *lineProg) setDiscr(n uint64)    { p.ops = append(p.ops, 0, 2, 4); p.uleb(n) }
func (p *lineProg) copyRow()             { p.ops = append(p.ops, 1) }
func (p *lineProg) endSequence()         { p.ops = append(p.ops, 0, 1, 1) }
func (p *lineProg) defineFile(name string) {
	p.ops = append(p.ops, 0, byte(len(name)+5), 3)
	p.ops = append(p.ops, name...)
	p.ops = append(p.ops, 0, 0, 0, 0)
}

func (p *lineProg) bytes() []byte {
	header := []byte{1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1}
	header = append(header, 0)                         // no include directories
	header = append(header, 'a', '.', 'c', 0, 0, 0, 0) // one file
	header = append(header, 0)
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(2+4+len(header)+len(p.ops)))
	b = binary.LittleEndian.AppendUint16(b, 4)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	b = append(b, header...)
	return append(b, p.ops...)
}

// TestLineRowStorage checks that rows read back as they were written
// whether the table keeps them packed or, when one does not fit a
// packedRow, wide.
func TestLineRowStorage(t *testing.T) {
	type want struct {
		pc                     uint64
		ok                     bool
		line, col, discr, file uint32
	}
	for _, tc := range []struct {
		name  string
		build func(p *lineProg)
		wide  bool
		want  []want
	}{
		{"packed with discriminators", func(p *lineProg) {
			p.setAddress(0x1000)
			p.setDiscr(3)
			p.copyRow()
			p.advancePC(0x10)
			p.advanceLine(4)
			p.setColumn(7)
			p.copyRow()
			p.advancePC(0x10)
			p.setDiscr(9)
			p.copyRow()
			p.advancePC(0x10)
			p.endSequence()
		}, false, []want{
			{pc: 0xfff},
			{pc: 0x1000, ok: true, line: 1, discr: 3, file: 1},
			{pc: 0x100f, ok: true, line: 1, discr: 3, file: 1},
			{pc: 0x1010, ok: true, line: 5, col: 7, file: 1},
			{pc: 0x102f, ok: true, line: 5, col: 7, discr: 9, file: 1},
			{pc: 0x1030},
		}},
		{"a column above 65535 after a closed sequence", func(p *lineProg) {
			p.setAddress(0x2000)
			p.setDiscr(2)
			p.copyRow()
			p.advancePC(8)
			p.endSequence()
			p.setAddress(0x1000)
			p.copyRow()
			p.advancePC(4)
			p.setColumn(70000)
			p.copyRow()
			p.advancePC(4)
			p.endSequence()
		}, true, []want{
			{pc: 0x1000, ok: true, line: 1, file: 1},
			{pc: 0x1004, ok: true, line: 1, col: 70000, file: 1},
			{pc: 0x2007, ok: true, line: 1, discr: 2, file: 1},
		}},
		{"a row below its sequence's first address", func(p *lineProg) {
			p.setAddress(0x1010)
			p.copyRow()
			p.setAddress(0x1000)
			p.advanceLine(1)
			p.copyRow()
			p.setAddress(0x1020)
			p.endSequence()
		}, true, []want{
			{pc: 0x1010, ok: true, line: 2, file: 1},
		}},
		{"a file index above 16383", func(p *lineProg) {
			p.setAddress(0x1000)
			p.copyRow()
			p.setFile(20000)
			p.advancePC(2)
			p.copyRow()
			p.advancePC(2)
			p.endSequence()
		}, true, []want{
			{pc: 0x1001, ok: true, line: 1, file: 1},
			{pc: 0x1002, ok: true, line: 1, file: 20000},
		}},
		{"a sequence longer than 4 GiB", func(p *lineProg) {
			p.setAddress(0x1000)
			p.copyRow()
			p.advancePC(1 << 33)
			p.advanceLine(1)
			p.copyRow()
			p.advancePC(1)
			p.endSequence()
		}, true, []want{
			{pc: 0x1000 + 1<<32, ok: true, line: 1, file: 1},
			{pc: 0x1000 + 1<<33, ok: true, line: 2, file: 1},
		}},
		{"a packed sequence ending more than 4 GiB after its last row", func(p *lineProg) {
			p.setAddress(0x1000)
			p.copyRow()
			p.advancePC(1 << 33)
			p.endSequence()
		}, false, []want{
			{pc: 0x1000 + 1<<32 + 5, ok: true, line: 1, file: 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p lineProg
			tc.build(&p)
			lt, err := decodeLineProgram(lineProgramInput{line: p.bytes(), bo: binary.LittleEndian})
			if err != nil {
				t.Fatal(err)
			}
			if got := lt.wide != nil; got != tc.wide {
				t.Errorf("wide = %v, want %v", got, tc.wide)
			}
			for _, w := range tc.want {
				r, ok := lt.Lookup(w.pc)
				if file, _ := r.File(); ok != w.ok || r.line != w.line || r.col != w.col || r.discr != w.discr || file != w.file {
					t.Errorf("lookup(%#x) = %+v, %v; want %+v", w.pc, r, ok, w)
				}
			}
		})
	}
}

// TestLineRowBuckets checks that a lookup through a sequence's row
// buckets finds the row a binary search over all the rows finds: in long
// sequences in address order (with rows at one address, and a gap that
// leaves buckets empty and one bucket holding many rows), in one whose
// rows go back (searched as before), and in short ones.
func TestLineRowBuckets(t *testing.T) {
	var p lineProg
	// In address order, runs of rows at one address.
	p.setAddress(0x10000)
	for i := 0; i < 1000; i++ {
		p.advanceLine(1)
		p.copyRow()
		if i%7 != 0 {
			p.advancePC(uint64(1 + i%5))
		}
		if i == 500 {
			p.advancePC(0x4000)
		}
	}
	p.advancePC(3)
	p.endSequence()
	// Rows that go back, above the sequence's first address.
	p.setAddress(0x20000)
	for i := 0; i < 600; i++ {
		p.advanceLine(1)
		p.copyRow()
		p.advancePC(2)
		if i == 400 {
			p.setAddress(0x20100)
		}
	}
	p.endSequence()
	// A short sequence.
	p.setAddress(0x30000)
	for i := 0; i < 20; i++ {
		p.advanceLine(1)
		p.copyRow()
		p.advancePC(4)
	}
	p.endSequence()
	in := lineProgramInput{line: p.bytes(), bo: binary.LittleEndian}
	lt, err := decodeLineProgram(in)
	if err != nil {
		t.Fatal(err)
	}
	if lt.wide != nil || len(lt.buckets) != 1 {
		t.Fatalf("wide %v, %d sequences indexed: want packed rows and the first sequence indexed (the second goes back, the third is short)", lt.wide != nil, len(lt.buckets))
	}
	ref, _ := decodeLineProgram(in)
	ref.buckets = nil // every sequence binary searched
	n := 0
	for _, s := range lt.seqs {
		for pc := s.start - 1; pc <= s.end; pc++ {
			got, gok := lt.Lookup(pc)
			want, wok := ref.Lookup(pc)
			if got != want || gok != wok {
				t.Fatalf("lookup(%#x) = %+v, %v; a search of every row finds %+v, %v", pc, got, gok, want, wok)
			}
			n++
		}
	}
	if n < 3000 {
		t.Fatalf("only %d addresses checked", n)
	}
}

// TestJoinFileNames checks that the shared form gives what the two joins
// give, over every kind of directory and name, and so does pathCache.
func TestJoinFileNames(t *testing.T) {
	dirs := []string{"/abs/cu", "rel/dir", "/abs/inc", ""}
	var paths pathCache
	for _, version := range []int{4, 5} {
		for _, compDir := range []string{"", "/c", "c/"} {
			for dir := uint64(0); dir <= uint64(len(dirs)); dir++ {
				for _, name := range []string{"a.c", "/abs/a.c", "sub/a.c"} {
					f := rawFile{name: name, dir: dir, valid: true}
					full, rel := joinFileNames(version, compDir, dirs, f)
					if want := joinFileName(version, compDir, dirs, f, false); full != want {
						t.Errorf("v%d %q dir %d %q: full %q, want %q", version, compDir, dir, name, full, want)
					}
					if want := joinFileName(version, compDir, dirs, f, true); rel != want {
						t.Errorf("v%d %q dir %d %q: rel %q, want %q", version, compDir, dir, name, rel, want)
					}
					// Interned, in a cache that has seen every join
					// so far: the same two names.
					var files, rels [2]string
					paths.joinAll(version, compDir, dirs, []rawFile{{}, f}, files[:], rels[:])
					if files != [2]string{"", full} || rels != [2]string{"", rel} {
						t.Errorf("v%d %q dir %d %q: interned %q, %q; want %q, %q", version, compDir, dir, name, files[1], rels[1], full, rel)
					}
				}
			}
		}
	}
}

// TestDefineFile checks DW_LNE_define_file's names, with and without a
// compilation directory (where the relative names are the same strings).
func TestDefineFile(t *testing.T) {
	for _, compDir := range []string{"", "/c"} {
		var p lineProg
		p.setAddress(0x1000)
		p.defineFile("b.c")
		p.copyRow()
		p.advancePC(1)
		p.endSequence()
		lt, err := decodeLineProgram(lineProgramInput{line: p.bytes(), compDir: compDir, bo: binary.LittleEndian})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{compDir + "/a.c", compDir + "/b.c"} {
			want = strings.TrimPrefix(want, "/")
			if compDir != "" {
				want = "/" + want
			}
			rel := strings.TrimPrefix(want, compDir+"/")
			if got, _ := lt.FileName(uint32(i+1), PathFull); got != want {
				t.Errorf("comp dir %q: file %d = %q, want %q", compDir, i+1, got, want)
			}
			if got, _ := lt.FileName(uint32(i+1), PathRelative); got != rel {
				t.Errorf("comp dir %q: relative file %d = %q, want %q", compDir, i+1, got, rel)
			}
		}
	}
}

// TestLineParts decodes every line table of a Go binary, whose
// compressed .debug_line is kept in parts: the parts whose programs are
// all decoded are let go, and a program decoded again afterwards (as for
// two units naming one table) or read at an offset where no program
// starts comes from the section inflated again, with the same result.
func TestLineParts(t *testing.T) {
	dw := openData(t, fx.ELF(t, "go-trimpath"))
	p := dw.sec.lineParts
	if p == nil {
		t.Fatal("go-trimpath's compressed .debug_line is not kept in parts")
	}
	for _, u := range dw.Units() {
		dw.LineTable(u)
	}
	dropped := 0
	for _, b := range p.units.Bufs {
		if b == nil {
			dropped++
		}
	}
	if dropped == 0 {
		t.Errorf("no part of %d let go", len(p.units.Bufs))
	}
	decoded := 0
	for _, u := range dw.Units() {
		if u.stmtList < 0 || u.lines == nil {
			continue
		}
		decoded++
		again, err := decodeLineProgram(dw.lineInput(dw.sec, u))
		if err != nil {
			t.Fatalf("unit at 0x%x: decoded again: %v", u.h.off, err)
		}
		if !slices.Equal(again.seqs, u.lines.seqs) || !slices.Equal(again.rows, u.lines.rows) || !slices.Equal(again.files, u.lines.files) || !slices.Equal(again.discrs, u.lines.discrs) {
			t.Errorf("unit at 0x%x: decoded again, the table differs", u.h.off)
		}
	}
	if decoded == 0 || p.whole == nil {
		t.Errorf("%d tables decoded; the whole section read again: %v", decoded, p.whole != nil)
	}
	// An offset inside a program: read from the whole section.
	if line, base, _ := dw.sec.lineAt(uint64(dw.Units()[0].stmtList) + 1); base != 0 || len(line) != len(p.whole) {
		t.Errorf("an offset inside a program: %d bytes from 0x%x", len(line), base)
	}
	t.Logf("%d of %d parts let go; %d tables decoded again", dropped, len(p.units.Bufs), decoded)
}

// TestRandomMapped: the sections lookups read at random (strings, range
// lists, addresses), stored uncompressed, are the ones ReleaseResident
// hands back.
func TestRandomMapped(t *testing.T) {
	dw := openData(t, fx.ELF(t, "cxx-O2-dw5"))
	if len(dw.sec.randomMapped) == 0 {
		t.Fatal("no section to hand back: the fixture's .debug_str is stored uncompressed")
	}
}

// TestPathForms: Go's DWARF 5 line tables name the compilation directory
// "." and directory 0 "." again: a file of directory 0 comes with both
// (PathFull), with the directory alone (PathFullDir0), or bare
// (PathRelative); a file of another directory has one spelling in both
// full forms.
func TestPathForms(t *testing.T) {
	dw := openData(t, fx.ELF(t, "go-trimpath"))
	checked := 0
	for _, u := range dw.Units() {
		lt, err := dw.LineTable(u)
		if err != nil || u.CompDir() != "." {
			continue
		}
		for i := range uint32(len(lt.files)) {
			full, ok := lt.FileName(i, PathFull)
			dir0, _ := lt.FileName(i, PathFullDir0)
			rel, _ := lt.FileName(i, PathRelative)
			if !ok || rel == "" || strings.HasPrefix(rel, "/") {
				continue
			}
			switch {
			case full == "././"+rel:
				checked++
				if dir0 != "./"+rel {
					t.Fatalf("unit at 0x%x, file %d: %q in full, %q with directory 0 alone, want %q", u.Offset(), i, full, dir0, "./"+rel)
				}
			case dir0 != full:
				t.Fatalf("unit at 0x%x, file %d: %q in full, %q with directory 0 alone", u.Offset(), i, full, dir0)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no file of directory 0 in the fixture's tables")
	}
}
