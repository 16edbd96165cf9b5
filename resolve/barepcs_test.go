package resolve

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/reftool"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

func TestParseLoadAddress(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"", 0, true},
		{"0x55d0c0a00000", 0x55d0c0a00000, true},
		{"55d0c0a00000", 0x55d0c0a00000, true},
		{"0X7F00", 0x7f00, true},
		{"0x", 0, false},
		{"12g", 0, false},
		{"0x1ffffffffffffffff", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseLoadAddress(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseLoadAddress(%q) = %#x, %v; want %#x, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestOpenPCSymbolizerErrors(t *testing.T) {
	if m, err := OpenPCSymbolizer(filepath.Join(t.TempDir(), "nope"), 0, nil); m != nil || err == nil {
		t.Errorf("missing file: %v, %v", m, err)
	}
	if m, err := OpenPCSymbolizer(filepath.Join("..", "testdata", "README.md"), 0, nil); m != nil || err == nil {
		t.Errorf("not an ELF file: %v, %v", m, err)
	}
}

// pieFixture is a PIE with inline chains; pieBase a load address for it.
var pieFixture = filepath.Join("..", "testdata", "elf", "c-O2-dw4-pie")

const pieBase = 0x55d0c0a00000

// symbolAddr is a function's link-time address, from the symbol table.
func symbolAddr(t *testing.T, bin, name string) uint64 {
	t.Helper()
	f := fixture.OpenELF(t, bin)
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range syms {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("%s has no symbol %s", bin, name)
	return 0
}

// Address: pc less base less the return-address adjustment, only inside
// an executable segment.
func TestStaticAddress(t *testing.T) {
	m, err := OpenPCSymbolizer(pieFixture, pieBase, nil)
	if m == nil {
		t.Fatal(err)
	}
	defer m.Close()
	main := symbolAddr(t, pieFixture, "main")
	tests := []struct {
		pc, adjust uint64
		want       uint64
		ok         bool
	}{
		{pieBase + main + 1, 1, main, true},
		{pieBase + main, 0, main, true},
		{pieBase, 1, 0, false},         // below the module
		{pieBase - 0x10, 0, 0, false},  // below the load address
		{pieBase + 0x500, 0, 0, false}, // the read-only segment before .text
		{0x7f3a9be29d90, 1, 0, false},  // libc
	}
	for _, tt := range tests {
		got, ok := m.Address(tt.pc, tt.adjust)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Address(%#x, %d) = %#x, %v; want %#x, %v", tt.pc, tt.adjust, got, ok, tt.want, tt.ok)
		}
	}
}

// A heap-dump record through the Resolver with Options.Static and through
// PCSymbolizer.Frames: pcs inside the binary get the inline chains that
// llvm-symbolizer gives for pc-base-1, with module and offset; the others
// stay bare; frames that name a module are not the static module's.
func TestStaticResolve(t *testing.T) {
	m, err := OpenPCSymbolizer(pieFixture, pieBase, nil)
	if m == nil {
		t.Fatal(err)
	}
	defer m.Close()
	var addrs []uint64
	for _, s := range []struct {
		name string
		off  uint64
	}{{"main", 0x10}, {"fill", 0x20}, {"accumulate.constprop.0", 0x8}} {
		addrs = append(addrs, symbolAddr(t, pieFixture, s.name)+s.off)
	}
	want := reftool.LLVMChains(t, pieFixture, addrs)
	const libc = 0x7f3a9be29d90
	var pcs []string
	for _, a := range addrs {
		pcs = append(pcs, fmt.Sprintf("%#x", pieBase+a+1)) // return addresses
	}
	log := fmt.Sprintf("~b#size: 48, %s %#x\n", strings.Join(pcs, " "), uint64(libc))
	rep, err := parse.NewScanner(strings.NewReader(log), "dump.log").Next()
	if err != nil {
		t.Fatal(err)
	}
	named := report.Frame{Index: 9, PC: pieBase + addrs[0] + 1, HasPC: true, Module: "<unknown module>"}
	rep.Stacks[0].Frames = append(rep.Stacks[0].Frames, named)

	r := New(Options{BarePCs: m, Cache: testCache(t, func(string) (modcache.Object, error) { t.Fatal("no module should be located"); return nil, nil })})
	defer r.Close()
	r.Report(rep)

	check := func(what string, frames []report.Frame) {
		t.Helper()
		var got, wantAll []string
		for _, f := range frames {
			if f.Symbolized == report.SymbolizedSanitrace {
				if f.Module != pieFixture || f.Offset != f.PC-pieBase || !f.HasOffset {
					t.Errorf("%s: frame %#x: module %q offset %#x", what, f.PC, f.Module, f.Offset)
				}
				got = append(got, fmt.Sprintf("%s %s:%d:%d", f.Function, f.File, f.Line, f.Column))
				continue
			}
			if f.Module != "" && f.Module != "<unknown module>" || f.Function != "" {
				t.Errorf("%s: frame %+v should be bare", what, f)
			}
			got = append(got, fmt.Sprintf("bare %#x", f.PC))
		}
		for _, c := range want {
			wantAll = append(wantAll, c...)
		}
		wantAll = append(wantAll, fmt.Sprintf("bare %#x", uint64(libc)))
		if what == "resolver" {
			wantAll = append(wantAll, fmt.Sprintf("bare %#x", named.PC))
		}
		if strings.Join(got, "\n") != strings.Join(wantAll, "\n") {
			t.Errorf("%s:\n got\n\t%s\nllvm-symbolizer\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(wantAll, "\n\t"))
		}
	}
	check("resolver", rep.Stacks[0].Frames)
	var raw []uint64
	for _, a := range addrs {
		raw = append(raw, pieBase+a+1)
	}
	check("Frames", m.Frames(append(raw, libc)))
}

// FuzzParseLoadAddress: a --base value. An accepted value prints back (in
// hex, with or without 0x) to the same address; a refused one names the
// flag and the value.
func FuzzParseLoadAddress(f *testing.F) {
	for _, s := range []string{"", "0x7f0000000000", "7F00", "0X10", "0x", "-1", "0x1_0", "ffffffffffffffff", "10000000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseLoadAddress(s)
		if err != nil {
			if !strings.Contains(err.Error(), "--base") {
				t.Fatalf("error %q does not name --base", err)
			}
			return
		}
		if s == "" {
			if v != 0 {
				t.Fatalf("empty --base gave 0x%x", v)
			}
			return
		}
		back, err := ParseLoadAddress(strconv.FormatUint(v, 16))
		if err != nil || back != v {
			t.Fatalf("%q gave 0x%x, which reads back as 0x%x (%v)", s, v, back, err)
		}
	})
}
