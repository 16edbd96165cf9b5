package dropin

import (
	"debug/dwarf"
	"debug/elf"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// The goldens under testdata/golden/{symbolize,addr2line} are the outputs
// of llvm-symbolizer 14 and binutils 2.40 addr2line on the committed
// fixtures, recorded with -update. The tests run sanitrace on the same
// inputs and compare byte for byte, so they need neither tool and still
// measure against the reference.

type faceGoldenFixture struct {
	name     string   // under testdata/elf
	src      string   // where the addresses come from ("" = the fixture)
	ref      string   // what the reference tools read ("" = the fixture)
	extra    []string // flags for both tools
	maxFuncs int
	maxInl   int
	// textOnly keeps the addresses inside executable sections: rustc's
	// DWARF places functions the linker discarded at 0, and llvm 14 finds
	// them there through .debug_aranges (docs/differences.md).
	textOnly bool
	// known masks a documented difference in one case's output (both the
	// golden and ours go through it); the test fails once the raw outputs
	// agree, so that the mask is dropped with the fix.
	known map[string]func(string) string
	// inlRanges adds the edges of the ranges of inlined subroutines that
	// have DW_AT_ranges instead of a low_pc (clang's multi-range inlines).
	inlRanges int
	// faces limits the recorded faces (by case name); nil = all.
	faces []string
	// full is the unstripped binary of a stripped fixture with a
	// separate debug file: where llvm-symbolizer 14 on the fixture names
	// no function (code the DWARF does not describe, which the llvm faces
	// name from the debug file's richer symbol table: docs/differences.md),
	// the reference is its answer on the full binary; the addr2line face
	// keeps the fixture's.
	full string
}

var faceGoldenFixtures = []faceGoldenFixture{
	{name: "libfix.so"},
	{name: "c-O0-dw4-nopie"},
	{name: "c-O2-dw5-pie"},
	{name: "c-O2-dw4-pie"},
	{name: "c-O2-dw5-clang"},
	{name: "cxx-O2-dw5", maxFuncs: 20, maxInl: 8},
	{name: "cxx-O0-dw4-nopie", maxFuncs: 20, maxInl: 8},
	{name: "cxx-O2-clang-dw4", maxFuncs: 20, maxInl: 8},
	{name: "c-O2-zlib"},
	// llvm-symbolizer 14 cannot read zstd sections: its answer on the
	// uncompressed twin (same code, same addresses) is the reference.
	{name: "c-O2-zstd", ref: "c-O2-dw5-pie"},
	{name: "c-O2-zdebug"},
	{name: "c-O2-stripped", src: "c-O2-dw5-pie"},
	{name: "c-O2-stripped-all", src: "c-O2-dw5-pie"},
	{name: "debuglink/prog", src: "c-O2-dw5-pie", full: "c-O2-dw5-pie"},
	{name: "buildid/prog", src: "cxx-O2-dw5", full: "cxx-O2-dw5", maxFuncs: 20, maxInl: 8,
		extra: []string{"--debug-file-directory=" + faceFixtureDir + "/buildid/debug"}},
	// Split DWARF: the same binary with its .dwo next to it (found by
	// sanitrace only: the recorded DW_AT_comp_dir does not exist) and with
	// a .dwp package (found by llvm-symbolizer too, so the reference).
	// addr2line reads neither and answers from the skeletons.
	{name: "split-dw5-dwp/prog", src: "cxx-O2-dw5", maxFuncs: 20, maxInl: 8},
	{name: "split-dw5/prog", src: "cxx-O2-dw5", ref: "split-dw5-dwp/prog", maxFuncs: 20, maxInl: 8},
	{name: "split-dw4-dwp/prog", src: "c-O2-dw4-pie"},
	{name: "split-dw4/prog", src: "c-O2-dw4-pie", ref: "split-dw4-dwp/prog"},
	// Rust (rustc 1.95, DWARF 4): legacy "_ZN...17h<hash>E" names, which
	// llvm 14 demangles as Itanium names and addr2line with libiberty's
	// Rust demangler, and v0 "_R" names.
	{name: "rust-legacy-O", maxInl: 150, textOnly: true},
	{name: "rust-v0-O", maxInl: 150, textOnly: true},
	// Go 1.26 (DWARF 5, zlib sections, no linkage names); addr2line 2.40
	// cannot parse its range lists and answers from the symbol table.
	{name: "go-trimpath", maxFuncs: 150, maxInl: 40},
	// clang 14 C++ with deep standard-library inline chains (stl.cc), in
	// every combination of -O1..-O3, DWARF 4/5, PIE/static. Their DWARF 5
	// inlined subroutines with several ranges use DW_FORM_rnglistx, which
	// bfd 2.40 cannot read: addr2line still prints them as callers.
	{name: "stl-O1-dw4-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O1-dw5-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O2-dw4-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O2-dw5-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O3-dw4-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O3-dw5-pie", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O1-dw4-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O1-dw5-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O2-dw4-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O2-dw5-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O3-dw4-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	{name: "stl-O3-dw5-static", maxFuncs: 20, maxInl: 12, inlRanges: 16, faces: stlFaces},
	// dwz: the same gcc 12 programs after `dwz -m` (GNU forms) and `dwz
	// --dwarf-5 -m` (DW_FORM_*_sup). The llvm face must answer as
	// llvm-symbolizer does on the programs before dwz (llvm 14 reads no
	// supplementary file); the GNU face as addr2line on the dwz output,
	// which it reads, and for the _sup forms, which binutils 2.40 cannot
	// read, as addr2line on the programs before dwz (docs/differences.md).
	{name: "dwz/gnu/stl", ref: "dwz/orig/stl", maxFuncs: 30, maxInl: 20, faces: []string{"json"}},
	{name: "dwz/gnu/stl", maxFuncs: 30, maxInl: 20, faces: []string{"fiCa"}},
	{name: "dwz/gnu/tmpl", ref: "dwz/orig/tmpl", maxFuncs: 40, maxInl: 30, faces: []string{"json"}},
	{name: "dwz/gnu/tmpl", maxFuncs: 40, maxInl: 30, faces: []string{"fiCa"}},
	{name: "dwz/sup/stl", ref: "dwz/orig/stl", maxFuncs: 30, maxInl: 20, faces: []string{"json", "fiCa"}},
	{name: "dwz/sup/tmpl", ref: "dwz/orig/tmpl", maxFuncs: 40, maxInl: 30, faces: []string{"json", "fiCa"}},
}

// stlFaces: the stl fixtures are there for addr2line's inline chains, each
// block a dozen frames deep; the llvm faces (identical to llvm-symbolizer on
// them too) would triple the goldens' size.
var stlFaces = []string{"fiCa"}

// faceInlineRangeAddresses returns, for up to max inlined subroutines
// whose addresses are a DW_AT_ranges list, the first, second and last byte
// of each range.
func faceInlineRangeAddresses(t *testing.T, bin string, max int) []uint64 {
	t.Helper()
	f := fixture.OpenELF(t, bin)
	d, err := f.DWARF()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	var out []uint64
	r := d.Reader()
	for n := 0; n < max; {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		if e.Tag != dwarf.TagInlinedSubroutine || e.AttrField(dwarf.AttrRanges) == nil {
			continue
		}
		rs, err := d.Ranges(e)
		if err != nil || len(rs) == 0 {
			continue
		}
		for _, rg := range rs {
			out = append(out, rg[0], rg[0]+1, rg[1]-1)
		}
		n++
	}
	return out
}

// faceTextOnly keeps the addresses that lie in an executable section.
func faceTextOnly(t *testing.T, bin string, addrs []uint64) []uint64 {
	t.Helper()
	f := fixture.OpenELF(t, bin)
	var out []uint64
	for _, a := range addrs {
		for _, s := range f.Sections {
			if s.Flags&elf.SHF_EXECINSTR != 0 && a >= s.Addr && a-s.Addr < s.Size {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// recordSymbolOnlyFromFull records llvm-symbolizer's answers for a
// stripped fixture one address at a time: its answer on the fixture
// (ref), or on the full binary where that one names no function.
func recordSymbolOnlyFromFull(t *testing.T, tool string, args func(string) []string, bin, ref, full string, addrs []uint64, argv bool) string {
	t.Helper()
	var b strings.Builder
	for _, a := range addrs {
		one := faceHexList([]uint64{a}, "0x")[0]
		ask := func(obj string) string {
			a := args(obj)
			in := one + "\n"
			if argv {
				a, in = append(a[:len(a)-len(addrs)], one), ""
			}
			out, _, _ := reftool.Run(t, tool, a, in)
			return strings.ReplaceAll(out, `"ModuleName":"`+obj+`"`, `"ModuleName":"`+bin+`"`)
		}
		out := ask(ref)
		if strings.HasPrefix(out, "??\n") || strings.Contains(out, `"FunctionName":""`) && !strings.Contains(out, "},{") {
			out = ask(full)
		}
		b.WriteString(out)
	}
	return b.String()
}

func faceGoldenPath(tool, fixture, name string) string {
	return filepath.Join(golden.Dir(""), tool, strings.ReplaceAll(fixture, "/", "_"), name+".golden")
}

// TestSymbolizeGoldens covers the three output styles and addr2line on
// every fixture.
func TestSymbolizeGoldens(t *testing.T) {
	faceChdir(t)
	for _, fx := range faceGoldenFixtures {
		t.Run(strings.ReplaceAll(fx.name, "/", "_"), func(t *testing.T) {
			bin := faceFixtureDir + "/" + fx.name
			ref := bin
			if fx.ref != "" {
				ref = faceFixtureDir + "/" + fx.ref
			}
			src := bin
			if fx.src != "" {
				src = faceFixtureDir + "/" + fx.src
			}
			maxFuncs := fx.maxFuncs
			if maxFuncs == 0 {
				maxFuncs = 1000
			}
			maxInl := fx.maxInl
			if maxInl == 0 {
				maxInl = 30
			}
			addrs := faceFixtureAddresses(t, src, maxFuncs, maxInl)
			if fx.inlRanges > 0 {
				addrs = append(addrs, faceInlineRangeAddresses(t, src, fx.inlRanges)...)
			}
			if fx.textOnly {
				addrs = faceTextOnly(t, src, addrs)
			}
			stdin := strings.Join(faceHexList(addrs, "0x"), "\n") + "\n"

			cases := []struct {
				tool, name string
				args       []string // "BIN" stands for the binary
				argv       bool     // addresses on argv instead of stdin
			}{
				{"symbolize", "llvm", []string{"--obj=BIN"}, true},
				{"symbolize", "gnu", []string{"--obj=BIN", "--output-style=GNU"}, false},
				{"symbolize", "json", []string{"--obj=BIN", "--output-style=JSON"}, false},
				{"addr2line", "fiCa", []string{"-e", "BIN", "-f", "-i", "-C", "-a"}, false},
			}
			for _, c := range cases {
				if fx.faces != nil && !slices.Contains(fx.faces, c.name) {
					continue
				}
				t.Run(c.name, func(t *testing.T) {
					args := func(b string) []string {
						var a []string
						for _, s := range c.args {
							a = append(a, strings.ReplaceAll(s, "BIN", b))
						}
						if c.tool == "symbolize" {
							a = append(a, fx.extra...)
						}
						if c.argv {
							a = append(a, faceHexList(addrs, "0x")...)
						}
						return a
					}
					in := stdin
					if c.argv {
						in = ""
					}
					argv0, tool := "llvm-symbolizer", "llvm-symbolizer"
					if c.tool == "addr2line" {
						argv0, tool = "addr2line", "addr2line"
					}
					got, _, _ := faceRunFace(t, argv0, args(bin), in)
					path := faceGoldenPath(c.tool, fx.name, c.name)
					record := func() string {
						reftool.Need(t, tool)
						if fx.full != "" && c.tool == "symbolize" {
							return recordSymbolOnlyFromFull(t, tool, args, bin, ref, faceFixtureDir+"/"+fx.full, addrs, c.argv)
						}
						out, _, _ := reftool.Run(t, tool, args(ref), in)
						return strings.ReplaceAll(out, `"ModuleName":"`+ref+`"`, `"ModuleName":"`+bin+`"`)
					}
					if mask := fx.known[c.name]; mask != nil {
						faceCompareGoldenMasked(t, path, got, record, mask)
						return
					}
					golden.CheckWant(t, path, got, record)
				})
			}
		})
	}
}

// TestSymbolizeFlagGoldens covers flag combinations and query forms on two
// fixtures: one C (inlining, DATA) and one C++ (demangling).
func TestSymbolizeFlagGoldens(t *testing.T) {
	faceChdir(t)
	type flagCase struct {
		name  string
		args  []string
		stdin string // "" = the code addresses, one per line; "-" = none
	}
	for _, fixture := range []string{"c-O2-dw5-pie", "cxx-O2-dw5", "c-O0-dw4-nopie"} {
		bin := faceFixtureDir + "/" + fixture
		maxFuncs, maxInl := 25, 20
		if strings.HasPrefix(fixture, "cxx") {
			maxFuncs, maxInl = 6, 4
		}
		code := faceFixtureAddresses(t, bin, maxFuncs, maxInl)
		data := faceDataAddresses(t, bin)
		codeLines := strings.Join(faceHexList(code, "0x"), "\n") + "\n"
		var moduleLines, dataLines strings.Builder
		for i, a := range code {
			switch i % 4 {
			case 0:
				moduleLines.WriteString(bin + " 0x" + faceHexList([]uint64{a}, "")[0] + "\n")
			case 1:
				moduleLines.WriteString(`CODE "` + bin + `" 0x` + faceHexList([]uint64{a}, "")[0] + "\n")
			case 2:
				moduleLines.WriteString(`'` + bin + `' ` + faceHexList([]uint64{a}, "0x")[0] + " trailing words\n")
			case 3:
				// FRAME is answered without locals (docs/differences.md),
				// so it is only compared at address 0, in the data lines.
				moduleLines.WriteString(bin + " 0X" + faceHexList([]uint64{a}, "")[0] + "\n")
			}
		}
		for _, a := range data {
			dataLines.WriteString(`DATA "` + bin + `" ` + faceHexList([]uint64{a}, "0x")[0] + "\n")
		}
		dataLines.WriteString("DATA ../../testdata/no-such-module 0x10\nno-such-module 0x10\nFRAME " + bin + " 0\n")
		cases := []flagCase{
			{"addresses-pretty", []string{"--obj=" + bin, "-a", "-p"}, ""},
			{"gnu-addresses-pretty", []string{"--obj=" + bin, "--output-style=GNU", "-ap"}, ""},
			{"no-inlines", []string{"--obj=" + bin, "--no-inlines"}, ""},
			{"gnu-no-inlines", []string{"--obj=" + bin, "--output-style=GNU", "--inlining=false"}, ""},
			{"functions-short", []string{"-f=short", "-e", bin}, ""},
			{"functions-none", []string{"--functions=none", "--exe=" + bin}, ""},
			{"no-demangle", []string{"-demangle=false", "--obj", bin}, ""},
			{"basenames", []string{"-s", "-e" + bin}, ""},
			{"relativenames", []string{"--obj=" + bin, "--relativenames"}, ""},
			{"relativenames-json", []string{"--obj=" + bin, "--relativenames", "--output-style=JSON"}, ""},
			{"json-pretty", []string{"--obj=" + bin, "--output-style=JSON", "--pretty-print"}, ""},
			{"json-argv-pretty", append([]string{"--obj=" + bin, "--output-style=JSON", "-p"}, faceHexList(code[:4], "0x")...), "-"},
			{"verbose", []string{"--obj=" + bin, "--verbose"}, ""},
			{"adjust-vma", append([]string{"--obj=" + bin, "--adjust-vma=0x1000", "-a"}, faceHexList(faceAddOffset(code, 0x1000), "0x")...), "-"},
			{"relative-address", []string{"--obj=" + bin, "--relative-address"}, ""},
			{"module-per-line", nil, moduleLines.String()},
			{"module-per-line-json", []string{"--output-style=JSON"}, moduleLines.String()},
			{"data", nil, dataLines.String()},
			{"data-gnu", []string{"--output-style=GNU"}, dataLines.String()},
			{"data-json", []string{"--output-style=JSON"}, dataLines.String()},
			{"radix", []string{"--obj=" + bin, faceHexList(code[:1], "0x")[0], faceHexList(code[:1], "0X")[0],
				faceDecimal(code[0]), "0" + faceOctal(code[0]), "junk", "0x"}, "-"},
		}
		for _, c := range cases {
			t.Run(fixture+"/"+c.name, func(t *testing.T) {
				in := c.stdin
				if in == "" {
					in = codeLines
				} else if in == "-" {
					in = ""
				}
				got, _, _ := faceRunFace(t, "llvm-symbolizer", c.args, in)
				golden.CheckWant(t, faceGoldenPath("symbolize", fixture, c.name), got, func() string {
					reftool.Need(t, "llvm-symbolizer")
					out, _, _ := reftool.Run(t, "llvm-symbolizer", c.args, in)
					return out
				})
			})
		}
		a2l := []flagCase{
			{"argv", append([]string{"-e", bin}, faceHexList(code, "")...), "-"},
			{"pfia", []string{"-pfia", "-e", bin}, ""},
			{"fe-basenames", []string{"-s", "-fe", bin}, ""},
			{"long", []string{"--exe=" + bin, "--functions", "--inlines", "--demangle=gnu-v3", "--pretty-print", "--addresses"}, ""},
			{"section", []string{"-j", ".text", "-fa", "-e", bin, "0", "10", "ffffffff"}, "-"},
			{"data", []string{"-f", "-e", bin}, strings.Join(faceHexList(data, ""), "\n") + "\n"},
			{"symbol-offset", []string{"-a", "-e", bin}, "main\nmain+10\nmain+0x10\n+0x10\n-10\nzz+10\n 1060\n1060+5\n+\n++5\nmain+\n_start+1\n"},
			{"odd-input", []string{"-af", "-e", bin}, "  0x10\n\nzz\n" + faceHexList(code[:1], "")[0] + " junk\n-1\n" + strings.Repeat("1", 150) + "\n"},
		}
		for _, c := range a2l {
			t.Run(fixture+"/addr2line-"+c.name, func(t *testing.T) {
				in := c.stdin
				if in == "" {
					in = codeLines
				} else if in == "-" {
					in = ""
				}
				got, _, _ := faceRunFace(t, "addr2line", c.args, in)
				golden.CheckWant(t, faceGoldenPath("addr2line", fixture, c.name), got, func() string {
					reftool.Need(t, "addr2line")
					out, _, _ := reftool.Run(t, "addr2line", c.args, in)
					return out
				})
			})
		}
	}
}

func faceAddOffset(addrs []uint64, off uint64) []uint64 {
	r := make([]uint64, len(addrs))
	for i, a := range addrs {
		r[i] = a + off
	}
	return r
}

func faceDecimal(v uint64) string { return strconv.FormatUint(v, 10) }
func faceOctal(v uint64) string   { return strconv.FormatUint(v, 8) }

// faceCompareGoldenMasked compares got with a golden of a case with a
// known difference: the golden holds the reference's raw output, the
// comparison passes both through mask, and the test fails once the raw
// outputs agree (the difference is gone: drop the mask).
func faceCompareGoldenMasked(t *testing.T, path, got string, record func() string, mask func(string) string) {
	t.Helper()
	want := golden.Read(t, path, record)
	if want == got {
		t.Errorf("%s: output now matches the reference byte for byte: drop the known-difference mask", path)
		return
	}
	if w, g := mask(want), mask(got); w != g {
		t.Errorf("%s: output differs from the reference beyond the known difference (%d vs %d bytes)\n%s", path, len(got), len(want), golden.FirstDiff(w, g))
	}
}
