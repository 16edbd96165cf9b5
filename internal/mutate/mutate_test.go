package mutate

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// firstValue is the first value of the stream ("elf", "testdata/elf/libfix.so", "0").
const firstValue = 0x326d0b2ffc8507fb

func TestRandIsReproducible(t *testing.T) {
	a, b := NewRand("log", "seed", "7"), NewRand("log", "seed", "7")
	c := NewRand("log", "seed", "8")
	same := true
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		if x != y {
			t.Fatal("two streams of the same name differ")
		}
		same = same && x == z
	}
	if same {
		t.Fatal("streams of different names are the same")
	}
	// The name's parts are kept apart: ("ab", "c") is not ("a", "bc").
	if NewRand("ab", "c").Uint64() == NewRand("a", "bc").Uint64() {
		t.Fatal("parts run together")
	}
	// The first value of a stream is fixed: a finding's mutant is the same
	// on every machine and Go version.
	if got := NewRand("elf", "testdata/elf/libfix.so", "0").Uint64(); got != firstValue {
		t.Errorf("first value 0x%x, want 0x%x", got, uint64(firstValue))
	}
	r := NewRand("range")
	for range 1000 {
		if v := r.Range(3, 5); v < 3 || v > 5 {
			t.Fatalf("Range(3, 5) = %d", v)
		}
		if v := r.Small(100); v < 1 || v > 100 {
			t.Fatalf("Small(100) = %d", v)
		}
	}
}

func TestMutateIsReproducible(t *testing.T) {
	data := []byte(strings.Repeat("==1==ERROR: AddressSanitizer: heap-use-after-free\n    #0 0x4011 in f a.c:3\n", 20))
	tg := &Target{Data: data, Text: true}
	donor := [][]byte{[]byte("goroutine 1 [running]:\nmain.main()\n")}
	for i := range 200 {
		m1 := Mutate(NewRand("t", fmt.Sprint(i)), tg, donor, 2)
		m2 := Mutate(NewRand("t", fmt.Sprint(i)), tg, donor, 2)
		if !bytes.Equal(m1.Data, m2.Data) || strings.Join(m1.Ops, "|") != strings.Join(m2.Ops, "|") {
			t.Fatalf("mutant %d differs between two runs", i)
		}
		if len(m1.Ops) != 2 {
			t.Fatalf("mutant %d: %d ops, want 2", i, len(m1.Ops))
		}
	}
	if !bytes.Equal(tg.Data, data) {
		t.Fatal("Mutate changed its seed")
	}
}

// TestEveryMutatorRuns: over enough mutants, every text and byte
// mutator is used, and each changes the data.
func TestEveryMutatorRuns(t *testing.T) {
	data := []byte("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010\n" +
		"    #0 0x4011b6 in crash /src/a.c:12:3\n    #1 0x7f00 in main\n" +
		"~m#IF0BmagugNDWgCnkhdAYpQa6wAAV\n{{{bt:0:0x562f47382c1c}}}\r\n")
	tg := &Target{Data: data, Text: true, Fields: []Field{{Off: 4, Size: 4, Name: "f"}, {Off: 10, Size: 0, Name: "l"}}}
	ops := map[string]int{}
	wholes := 0
	for i := range 3000 {
		m := Mutate(NewRand("every", fmt.Sprint(i)), tg, [][]byte{[]byte("donor line\nanother\n")}, 1)
		op := m.Ops[0]
		verb := strings.Fields(op)[0]
		if m.Whole != 0 {
			wholes++
			if m.Whole != 1 || !bytes.Contains(m.Data, []byte("donor line\nanother\n")) {
				t.Errorf("mutant %d (%s): Whole %d", i, op, m.Whole)
			}
		}
		ops[verb]++
		if bytes.Equal(m.Data, data) && !strings.Contains(op, "-> 0") && verb != "repeat" && verb != "swap" && verb != "~m#" && verb != "markup" {
			t.Errorf("mutant %d (%s) left the data as it was", i, op)
		}
	}
	if wholes == 0 {
		t.Error("no donor inserted whole")
	}
	for _, want := range []string{"flip", "set", "insert", "delete", "splice", "truncate", "duplicate", "LEB128",
		"repeat", "swap", "cut", "join", "number", "LF", "CRLF", "~m#", "markup"} {
		if ops[want] == 0 {
			t.Errorf("no %q edit in 3000 mutants (have %v)", want, ops)
		}
	}
}

// TestWindowsKeepTheRest: a windowed mutant differs from its seed only
// inside the windows, and has the seed's size.
func TestWindowsKeepTheRest(t *testing.T) {
	data := bytes.Repeat([]byte{0xaa}, 4096)
	ws := []Window{{Lo: 100, Hi: 300, Name: "a"}, {Lo: 1000, Hi: 1010, Name: "b"}}
	tg := &Target{Data: data, Windows: ws, Fields: []Field{{Off: 104, Size: 4, Name: "len"}, {Off: 1002, Size: 0, Name: "leb"}, {Off: 2000, Size: 8, Name: "outside"}}}
	for i := range 2000 {
		m := Mutate(NewRand("win", fmt.Sprint(i)), tg, [][]byte{bytes.Repeat([]byte{1}, 10000)}, 3)
		if len(m.Data) != len(data) {
			t.Fatalf("mutant %d (%v): size %d, want %d", i, m.Ops, len(m.Data), len(data))
		}
		for j := range data {
			in := j >= 100 && j < 300 || j >= 1000 && j < 1010
			if !in && m.Data[j] != data[j] {
				t.Fatalf("mutant %d (%v) changed byte %d outside the windows", i, m.Ops, j)
			}
		}
	}
}

func TestIntFieldAndLEB(t *testing.T) {
	for i := range 500 {
		data := make([]byte, 16)
		binary.LittleEndian.PutUint32(data[4:], 0x1234)
		b := &buf{data: append([]byte(nil), data...), fields: []Field{{Off: 4, Size: 4, Name: "len"}}}
		op := intField(NewRand("int", fmt.Sprint(i)), b)
		if bytes.Equal(b.data, data) {
			t.Fatalf("%s: data unchanged", op)
		}
	}
	for _, v := range []uint64{0, 1, 127, 128, 300, 1<<63 + 5, ^uint64(0)} {
		enc := appendULEB(nil, v)
		got, n := uleb(enc)
		if got != v || n != len(enc) {
			t.Errorf("uleb(appendULEB(%d)) = %d, %d bytes; want %d, %d", v, got, n, v, len(enc))
		}
	}
	// A number cut by the end spans the rest.
	if _, n := uleb([]byte{0x80, 0x80}); n != 2 {
		t.Errorf("unterminated uleb: length %d, want 2", n)
	}
}

// TestParseELF checks the structured fields against debug/elf's reading
// of a real binary: the header and section-header fields sit where the
// values are, and the DWARF and CFI walkers find the first unit's length
// at the start of its section.
func TestParseELF(t *testing.T) {
	path := fixture.ELF(t, "c-O2-dw5-pie")
	data := readFile(t, path)
	ref, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseELF(data)
	if err != nil {
		t.Fatal(err)
	}
	if e.Class != 64 || len(e.Sections) != len(ref.Sections) {
		t.Fatalf("class %d, %d sections; debug/elf reads %d", e.Class, len(e.Sections), len(ref.Sections))
	}
	fields := map[string]Field{}
	for _, f := range e.HeaderFields() {
		fields[f.Name] = f
	}
	for i, s := range ref.Sections {
		if e.Sections[i].Name != s.Name {
			t.Errorf("section %d: name %q, debug/elf %q", i, e.Sections[i].Name, s.Name)
		}
		f, ok := fields[fmt.Sprintf("shdr[%d].sh_offset", i)]
		if !ok || getLE(data[f.Off:], f.Size) != s.Offset {
			t.Errorf("section %d: sh_offset field %+v does not hold 0x%x", i, f, s.Offset)
		}
	}
	if f := fields["e_shnum"]; getLE(data[f.Off:], f.Size) != uint64(len(ref.Sections)) {
		t.Errorf("e_shnum field %+v", f)
	}
	if len(e.Notes) == 0 {
		t.Error("no notes (the build-id note)")
	}
	ws := e.Windows(".debug_info", ".eh_frame", ".debug_abbrev")
	if len(ws) != 3 {
		t.Fatalf("windows %v", ws)
	}
	sf := e.SectionFields(data, ws)
	for _, w := range ws {
		want := w.Name + " unit[0].unit_length"
		if w.Name == ".eh_frame" {
			want = w.Name + " unit[0].length"
		}
		if w.Name == ".debug_abbrev" {
			want = w.Name + " unit[0].code"
		}
		found := false
		for _, f := range sf {
			if f.Name == want && f.Off == w.Lo {
				found = true
			}
		}
		if !found {
			t.Errorf("no field %q at 0x%x", want, w.Lo)
		}
	}
	// The first unit's version in .debug_info is 5.
	for _, f := range sf {
		if f.Name == ".debug_info unit[0].version" && getLE(data[f.Off:], 2) != 5 {
			t.Errorf("version field at 0x%x holds %d", f.Off, getLE(data[f.Off:], 2))
		}
	}
}

func TestParseELFRejects(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not an ELF file at all, not at all, no, not at all...."), append([]byte("\x7fELF\x02\x02"), make([]byte, 64)...)} {
		if _, err := ParseELF(data); err == nil {
			t.Errorf("ParseELF(%q) gave no error", data)
		}
	}
	// Damaged headers are read as far as they go, never past the data.
	path := fixture.ELF(t, "libfix.so")
	data := readFile(t, path)
	for i := range 300 {
		m := Mutate(NewRand("parse", fmt.Sprint(i)), &Target{Data: data}, nil, 3)
		if e, err := ParseELF(m.Data); err == nil {
			e.SectionFields(m.Data, e.Windows(".debug_info", ".debug_line", ".eh_frame", ".debug_abbrev", ".eh_frame_hdr"))
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
