package cxxfilt

import (
	"bufio"
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// The Rust v0 name tables: each line a name, what llvm-cxxfilt 14 prints
// for it (llvm-symbolizer 14's demangler) and what c++filt -i 2.40 prints
// (addr2line -C's), gzipped. -update re-records both columns from the
// installed tools, never from this package.
var (
	// rustV0FixtureNames holds every distinct "_R" symbol and DWARF
	// linkage name of the v0 fixtures (rustV0Fixtures).
	rustV0FixtureNames = filepath.Join(golden.Dir("cxxfilt"), "rust-v0-fixture.tsv.gz")
	// rustV0EdgeNames holds names made by rustV0EdgeCases: every path,
	// type and constant shape of the grammar, damaged copies, punycode,
	// nesting at both tools' depth limits, back references anywhere.
	rustV0EdgeNames = filepath.Join(golden.Dir("cxxfilt"), "rust-v0-edges.tsv.gz")
)

// rustV0Fixtures are the committed v0 binaries, relative to the
// repository's testdata (a ".gz" one is unpacked first).
var rustV0Fixtures = []string{"rustv0/rustv0.gz", "elf/rust-v0-O"}

// TestRustV0Names compares both styles with the recorded outputs of the
// reference tools on the fixtures' names and on the edge cases.
func TestRustV0Names(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		names      func(t *testing.T) []string
	}{
		{"fixtures", rustV0FixtureNames, rustV0FixtureSymbols},
		{"edges", rustV0EdgeNames, func(*testing.T) []string { return rustV0EdgeCases() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if golden.Updating() {
				recordNames(t, tc.path, tc.names(t))
			}
			checkNames(t, tc.path)
		})
	}
}

// TestRustV0Rules has one name per rule of the v0 demangler: the module's
// misreadings it replaces, and each field of v0Policy where LLVM 14 and
// libiberty 2.40 part ways. llvm and gnu are what llvm-cxxfilt-14 and
// c++filt -i print (the name itself where the tool cannot demangle it).
func TestRustV0Rules(t *testing.T) {
	const (
		gimli  = "std::backtrace_rs::symbolize::gimli::"
		either = gimli + "Either<" + gimli + "Mapping, " + gimli + "Context>"
		quota  = "<core::slice::iter::SplitN<u8, std::sys::thread::unix::cgroups::quota::{closure#1}::{closure#0}> as core::iter::traits::iterator::Iterator::advance_by::SpecAdvanceBy>::spec_advance_by"
	)
	for _, tc := range []struct{ rule, name, llvm, gnu string }{
		{"an internal namespace's empty name prints nothing (a variant's constructor, issue 24)",
			"_RINvMNtCsgEmfK2I1SDS_4core6optionINtB3_6OptionNtNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimli7ContextE3mapINtBK_6EitherNtBK_7MappingBI_ENcNtB1P_s_1B0EBQ_",
			"<core::option::Option<" + gimli + "Context>>::map::<" + either + ", " + either + "::B>",
			"<core::option::Option<" + gimli + "Context>>::map::<" + either + ", " + either + "::B>"},
		{"a decimal number that starts with 0 is 0: 00 is two empty identifiers",
			"_RNCNCNCNvNtCsjrHSEGnQ3l9_3std2rt19lang_start_internal00s_0B9_",
			"std::rt::lang_start_internal::{closure#0}::{closure#0}::{closure#1}",
			"std::rt::lang_start_internal::{closure#0}::{closure#0}::{closure#1}"},
		{"an empty identifier before a length",
			"_RNvNCNKNvNtNtCsjrHSEGnQ3l9_3std2io5stdio14OUTPUT_CAPTURE0023___RUST_STD_INTERNAL_VAL",
			"std::io::stdio::OUTPUT_CAPTURE::{K#0}::{closure#0}::__RUST_STD_INTERNAL_VAL",
			"std::io::stdio::OUTPUT_CAPTURE::{K#0}::{closure#0}::__RUST_STD_INTERNAL_VAL"},
		{"identifier bytes shaped like a back reference (By15spec_) are bytes",
			"_RNvXs_NvNtNtNtNtCsgEmfK2I1SDS_4core4iter6traits8iterator8Iterator10advance_byINtNtNtBe_5slice4iter6SplitNhNCNCNvNtNtNtNtCsjrHSEGnQ3l9_3std3sys6thread4unix7cgroups5quotas_00ENtB4_13SpecAdvanceBy15spec_advance_byB1U_",
			quota, quota},
		{"longHexShifted: more than 16 hex digits, the low 64 bits 0",
			"_RINvCs32gj3y4fnmh_4main6constsKb1_Kcdf_Kln7_Kyffffffffffffffff_Knn80000000000000000000000000000000_EB2_",
			`main::consts::<true, '\u{df}', -7, 18446744073709551615, -0x80000000000000000000000000000000>`,
			`main::consts::<true, '\u{df}', -7, 18446744073709551615, -0x0000000000000000000000000000000_>`},
		{"suffixInParens",
			"_RNvC3foo3bar.llvm.123", "foo::bar (.llvm.123)", "foo::bar"},
		{"signOnUnsigned",
			"_RINvC3foo3barKjn1_EB2_", "foo::bar::<-1>", "_RINvC3foo3barKjn1_EB2_"},
		{"zeroPadding",
			"_RINvC3foo3barKj01_EB2_", "_RINvC3foo3barKj01_EB2_", "foo::bar::<1>"},
		{"rustCharEscapes",
			"_RINvC3foo3barKc5c_Kc27_Kc20_Kc7e_EB2_", `foo::bar::<'\\', '\'', ' ', '~'>`, `foo::bar::<'\', ''', '\u{20}', '\u{7e}'>`},
		{"charMaxDigits",
			"_RINvC3foo3barKc1100000_EB2_", "_RINvC3foo3barKc1100000_EB2_", `foo::bar::<'\u{1100000}'>`},
		{"checkedLifetimes: an index past the binders",
			"_RINvC3foo3barRL1_hEB2_", "_RINvC3foo3barRL1_hEB2_", "foo::bar::<&'_18446744073709551614 u8>"},
		{"dashAllUnderscores",
			"_RINvC3foo3barFK4a__bEuEB2_", `foo::bar::<extern "a--b" fn()>`, `foo::bar::<extern "a-_b" fn()>`},
		{"dashAllUnderscores: an empty ABI",
			"_RINvC3foo3barFK0_EuEB2_", `foo::bar::<extern "" fn()>`, "_RINvC3foo3barFK0_EuEB2_"},
		{"rawBindingNames",
			"_RINvC3foo3barDNtC3std3Anypu3abcuEL_EB2_", "foo::bar::<dyn std::Any<abc = ()>>", "foo::bar::<dyn std::Any<\u0082\u0081\u0080 = ()>>"},
		{"lenientPunycode: an empty punycode identifier",
			"_RNvNtC3foo3baru0", "foo::bar", "_RNvNtC3foo3baru0"},
		{"lenientPunycode: punycode that ends inside a number",
			"_RNvC3foou6rksuhz", "_RNvC3foou6rksuhz", "foo::"},
		{"lenientPunycode: a code point past U+10FFFF",
			"_RNvC3foou5yy09z", "_RNvC3foou5yy09z", "foo::\xfd\x9c\x97\xbc"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			for i, style := range []Style{LLVM, GNU} {
				if got, want := Demangle(tc.name, style), [2]string{tc.llvm, tc.gnu}[i]; got != want {
					t.Errorf("%s (%s):\n got  %q\n want %q", tc.name, [2]string{"llvm", "gnu"}[i], got, want)
				}
			}
		})
	}
}

// checkNames compares both styles with the table at path.
func checkNames(t *testing.T, path string) {
	t.Helper()
	rows := readNames(t, path)
	bad := [2]int{}
	for _, r := range rows {
		for i, style := range []Style{LLVM, GNU} {
			if got := Demangle(r[0], style); got != r[1+i] {
				bad[i]++
				if bad[i] <= 10 {
					t.Errorf("%s (%s):\n got  %q\n want %q", r[0], [2]string{"llvm", "gnu"}[i], got, r[1+i])
				}
			}
		}
	}
	t.Logf("%d names: %d differ from llvm-cxxfilt-14, %d from c++filt -i", len(rows), bad[0], bad[1])
}

// readNames reads a gzipped name table: name, llvm-cxxfilt-14's output,
// c++filt -i's.
func readNames(t *testing.T, path string) [][3]string {
	t.Helper()
	_, table := golden.Table(t, path, fixture.Gunzip(t, path), 3) // name, llvm, gnu
	rows := make([][3]string, len(table))
	for i, r := range table {
		rows[i] = [3]string{r[0], r[1], r[2]}
	}
	return rows
}

// recordNames writes the table of names with both tools' outputs.
func recordNames(t *testing.T, path string, names []string) {
	t.Helper()
	slices.Sort(names)
	names = slices.Compact(names)
	filter := func(tool string, args ...string) []string {
		out, stderr, code := reftool.Run(t, reftool.Need(t, tool), args, strings.Join(names, "\n")+"\n")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(lines) != len(names) {
			t.Fatalf("%s: exit %d, %d lines for %d names: %s", tool, code, len(lines), len(names), stderr)
		}
		return lines
	}
	llvm, gnu := filter("llvm-cxxfilt-14"), filter("c++filt", "-i")
	var b strings.Builder
	for i, n := range names {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", n, llvm[i], gnu[i])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, fixture.Gzip(t, []byte(b.String())), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rustV0FixtureSymbols returns the "_R" symbol and DWARF linkage names of
// the fixtures.
func rustV0FixtureSymbols(t *testing.T) []string {
	t.Helper()
	root, err := fixture.Root()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, rel := range rustV0Fixtures {
		p := filepath.Join(root, "testdata", rel)
		if strings.HasSuffix(p, ".gz") {
			unpacked := filepath.Join(t.TempDir(), "bin")
			if err := os.WriteFile(unpacked, fixture.Gunzip(t, p), 0o644); err != nil {
				t.Fatal(err)
			}
			p = unpacked
		}
		f := fixture.OpenELF(t, p)
		syms, err := f.Symbols()
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, s := range syms {
			if strings.HasPrefix(s.Name, "_R") {
				names = append(names, s.Name)
			}
		}
		names = append(names, linkageNames(t, f, rel)...)
	}
	return names
}

func linkageNames(t *testing.T, f *elf.File, rel string) []string {
	d, err := f.DWARF()
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	var names []string
	for r := d.Reader(); ; {
		e, err := r.Next()
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if e == nil {
			return names
		}
		if n, ok := e.Val(dwarf.AttrLinkageName).(string); ok && strings.HasPrefix(n, "_R") {
			names = append(names, n)
		}
	}
}

// rustV0EdgeCases makes the edge-case names, the same on every run: random
// names from the v0 grammar (every production, back references to
// earlier paths and types, odd identifiers and constants) and damaged
// copies of them, punycode identifiers, nesting around both tools' depth
// limits (500 and 1024), and back references and numbers at the edges.
// Names with a binder of three or more base-62 digits are left out:
// libiberty binds that many lifetimes one by one (minutes of c++filt).
func rustV0EdgeCases() []string {
	g := v0Gen{r: rand.New(rand.NewPCG(24, 1))}
	seen := map[string]bool{}
	add := func(s string) {
		if !bigBinder.MatchString(s) {
			seen[s] = true
		}
	}
	for len(seen) < 6000 {
		add(g.symbol(len(seen) >= 3000))
	}
	for _, s := range g.punycode(1000) {
		add(s)
	}
	for _, s := range v0Deep() {
		add(s)
	}
	for _, s := range v0Numbers() {
		add(s)
	}
	names := make([]string, 0, len(seen))
	for s := range seen {
		names = append(names, s)
	}
	return names
}

var bigBinder = regexp.MustCompile(`G[0-9a-zA-Z]{3,}`)

// v0Gen writes random v0 names.
type v0Gen struct {
	r     *rand.Rand
	out   strings.Builder
	marks []int // offsets (after "_R") of the paths and types written
}

func base62(v int) string {
	if v == 0 {
		return "_"
	}
	v--
	s := ""
	for {
		s = string("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[v%62]) + s
		v /= 62
		if v == 0 {
			return s + "_"
		}
	}
}

func (g *v0Gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *v0Gen) symbol(damage bool) string {
	g.out.Reset()
	g.marks = g.marks[:0]
	g.path(0)
	if g.r.IntN(10) < 3 {
		g.path(0) // an instantiating crate
	}
	body := g.out.String()
	if damage {
		b := []byte(body)
		const alphabet = "0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			i, c := g.r.IntN(len(b)+1), alphabet[g.r.IntN(len(alphabet))]
			switch op := g.r.IntN(3); {
			case op == 0 && i < len(b):
				b[i] = c
			case op == 1:
				b = slices.Insert(b, i, c)
			case i < len(b):
				b = slices.Delete(b, i, i+1)
			}
		}
		body = string(b)
	}
	if g.r.IntN(20) == 0 {
		body += g.pick(".llvm.123", ".cold", ".0")
	}
	return "_R" + body
}

func (g *v0Gen) ident(punyOK bool) string {
	s := g.pick("foo", "bar", "Either", "_x", "x_", "9lives", "a", "__", "Z", "abc_def", "", "rksuh", "ab_cd", "0", "_0", "std", "core", "a1b2", "ab_", "_ab", "tschs_Ka", "grss_7ka")
	if g.r.IntN(10) == 0 {
		b := make([]byte, g.r.IntN(7))
		for i := range b {
			b[i] = "abcxyz019_"[g.r.IntN(10)]
		}
		s = string(b)
	}
	pre, sep := "", ""
	if punyOK && g.r.IntN(100) < 15 {
		pre = "u"
	}
	if s != "" && (s[0] == '_' || isDigit(s[0])) || g.r.IntN(20) == 0 {
		sep = "_"
	}
	return fmt.Sprintf("%s%d%s%s", pre, len(s), sep, s)
}

func (g *v0Gen) dis() string {
	if g.r.IntN(10) < 6 {
		return ""
	}
	return "s" + base62([]int{0, 0, 1, 2, 61, 62, 63, 3843, 3844, 1000000}[g.r.IntN(10)])
}

func (g *v0Gen) backref() string { return "B" + base62(g.marks[g.r.IntN(len(g.marks))]) }

func (g *v0Gen) path(depth int) {
	start := g.out.Len()
	switch r := g.r.IntN(100); {
	case depth > 4 || r < 25:
		g.out.WriteString("C" + g.dis() + g.ident(false))
	case r < 50:
		g.out.WriteString("N" + string("CSvtcKxXIsAZ"[g.r.IntN(12)]))
		g.path(depth + 1)
		g.out.WriteString(g.dis() + g.ident(true))
	case r < 62:
		g.out.WriteString("I")
		g.path(depth + 1)
		for n := g.r.IntN(4); n > 0; n-- {
			g.genericArg(depth + 1)
		}
		g.out.WriteString("E")
	case r < 70:
		g.out.WriteString("M" + g.dis())
		g.path(depth + 1)
		g.typ(depth + 1)
	case r < 78:
		g.out.WriteString("X" + g.dis())
		g.path(depth + 1)
		g.typ(depth + 1)
		g.path(depth + 1)
	case r < 84:
		g.out.WriteString("Y")
		g.typ(depth + 1)
		g.path(depth + 1)
	case len(g.marks) > 0:
		g.out.WriteString(g.backref())
	default:
		g.out.WriteString("C" + g.ident(false))
	}
	g.marks = append(g.marks, start)
}

func (g *v0Gen) genericArg(depth int) {
	switch r := g.r.IntN(10); {
	case r == 0:
		g.out.WriteString("L" + base62([]int{0, 1, 2, 3, 27, 30}[g.r.IntN(6)]))
	case r < 3:
		g.out.WriteString("K")
		g.constant()
	default:
		g.typ(depth)
	}
}

func (g *v0Gen) constant() {
	switch r := g.r.IntN(20); {
	case r == 0:
		g.out.WriteString("p")
		return
	case r == 1 && len(g.marks) > 0:
		g.out.WriteString(g.backref())
		return
	}
	t := "hthmyojasslxnibbccccc"[g.r.IntN(21)]
	g.out.WriteByte(t)
	switch t {
	case 'c':
		v := []uint64{0, 9, 10, 13, 0x20, 0x22, 0x27, 0x5c, 0x61, 0x7e, 0x7f, 0xdf, 0x3b1, 0xd800, 0x10ffff, 0x110000, 0x1100000, 0x11000000}[g.r.IntN(18)]
		pad := ""
		if g.r.IntN(10) == 0 {
			pad = "0"
		}
		fmt.Fprintf(&g.out, "%s%x_", pad, v)
	case 'b':
		g.out.WriteString(g.pick("0_", "1_", "2_", "00_", "01_", "_"))
	default:
		if g.r.IntN(10) < 3 {
			g.out.WriteString("n")
		}
		h := g.pick("0", "1", "7", "ff", "8000000000000000", "ffffffffffffffff", "10000000000000000",
			"80000000000000000000000000000000", "ffffffffffffffffffffffffffffffff", "100000000000000000")
		if g.r.IntN(10) == 0 {
			h = "0" + h
		}
		if g.r.IntN(20) == 0 {
			h = ""
		}
		g.out.WriteString(h + "_")
	}
}

func (g *v0Gen) typ(depth int) {
	start := g.out.Len()
	switch r := g.r.IntN(100); {
	case depth > 5 || r < 35:
		g.out.WriteByte("abcdefhijlmnostuvxyzp"[g.r.IntN(21)])
	case r < 45:
		g.out.WriteString(g.pick("R", "Q") + g.pick("", "L_", "L0_", "L1_", "L2_"))
		g.typ(depth + 1)
	case r < 50:
		g.out.WriteString(g.pick("P", "O"))
		g.typ(depth + 1)
	case r < 55:
		g.out.WriteString("A")
		g.typ(depth + 1)
		g.constant()
	case r < 60:
		g.out.WriteString("S")
		g.typ(depth + 1)
	case r < 67:
		g.out.WriteString("T")
		for n := g.r.IntN(4); n > 0; n-- {
			g.typ(depth + 1)
		}
		g.out.WriteString("E")
	case r < 75:
		g.out.WriteString("F")
		if g.r.IntN(10) < 3 {
			g.out.WriteString("G" + base62([]int{0, 1, 2, 26, 30}[g.r.IntN(5)]))
		}
		if g.r.IntN(10) < 3 {
			g.out.WriteString("U")
		}
		if g.r.IntN(10) < 4 {
			g.out.WriteString("K" + g.pick("C", "0", "4rust", "9rust_call", "4a__b", "5__a_b", "3ab_", "6sysv64", "u3abc", "9C_cmse_ns", "3a_b"))
		}
		for n := g.r.IntN(4); n > 0; n-- {
			g.typ(depth + 1)
		}
		g.out.WriteString("E")
		g.typ(depth + 1)
	case r < 83:
		g.out.WriteString("D")
		if g.r.IntN(10) < 3 {
			g.out.WriteString("G" + base62(g.r.IntN(3)))
		}
		for n := g.r.IntN(3); n > 0; n-- {
			g.path(depth + 1)
			for m := g.r.IntN(3); m > 0; m-- {
				g.out.WriteString("p" + g.ident(true))
				g.typ(depth + 1)
			}
		}
		g.out.WriteString("EL" + base62([]int{0, 0, 1, 2, 5}[g.r.IntN(5)]))
	case r < 90 && len(g.marks) > 0:
		g.out.WriteString(g.backref())
	default:
		g.path(depth + 1)
	}
	g.marks = append(g.marks, start)
}

// punycode returns n names with random punycode identifiers, in a path
// and as a dyn trait's binding.
func (g *v0Gen) punycode(n int) []string {
	var names []string
	for i := 0; i < n; i++ {
		alphabet := "abcdefghijklmnopqrstuvwxyz0123456789"
		if g.r.IntN(10) < 3 {
			alphabet += "_"
		}
		b := make([]byte, 1+g.r.IntN(12))
		for j := range b {
			b[j] = alphabet[g.r.IntN(len(alphabet))]
		}
		s, sep := string(b), ""
		if s[0] == '_' || isDigit(s[0]) {
			sep = "_"
		}
		id := fmt.Sprintf("u%d%s%s", len(s), sep, s)
		names = append(names, "_RNvC3foo"+id, "_RINvC3foo3barDNtB2_3Bazp"+id+"hEL_EB2_")
	}
	return names
}

// v0Deep returns names nesting each construct 490-504 and 1015-1029
// levels deep: LLVM 14 stops at 500 levels counting basic types,
// libiberty at 1024 not counting them.
func v0Deep() []string {
	var names []string
	for _, n := range append(intRange(490, 505), intRange(1015, 1030)...) {
		r := func(s string) string { return strings.Repeat(s, n) }
		names = append(names,
			"_RINvC3foo3bar"+r("DIC1a")+"hE"+r("EL_")+"EB2_",
			"_RINvC3foo3bar"+r("DNtC3std1Fp1a")+"h"+r("EL_")+"EB2_",
			"_RINvC3foo3bar"+r("A")+"h"+r("j1_")+"EB2_",
			"_RINvC3foo3bar"+r("INtC3std1F")+"Kj1_"+r("E")+"EB2_",
			"_RINvC3foo3bar"+r("T")+"h"+r("E")+"EB2_",
			"_RINvC3foo3bar"+r("F")+r("Eh")+"EB2_",
			"_R"+r("Y")+"h"+r("C1a"),
			"_R"+r("M")+"C1a"+r("h"),
			"_R"+r("NC")+"C1a"+r("0"),
		)
		// A chain of references, each to the reference before it.
		body := "INvC3foo3barRh"
		prev := len("INvC3foo3bar")
		for i := 0; i < n; i++ {
			cur := len(body)
			body += "RB" + base62(prev)
			prev = cur
		}
		names = append(names, "_R"+body+"EB2_")
	}
	return names
}

func intRange(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// v0Numbers returns back references to every offset of a short name
// (backward, forward, into identifiers), and decimal and base-62 numbers
// around 2^64 (LLVM fails on overflow, libiberty wraps).
func v0Numbers() []string {
	var names []string
	for k := 0; k < 40; k++ {
		for _, tail := range []string{"", "h", "Rh", "EB2_"} {
			names = append(names, "_RINvC3foo3barB"+base62(k)+tail+"EB2_")
		}
		names = append(names,
			"_RINvC3foo3barRB"+base62(k)+"EB2_",
			"_RINvC3foo3barKB"+base62(k)+"EB2_",
			"_RNvB"+base62(k)+"3foo",
			"_RNvC3fooB"+base62(k))
	}
	for _, dec := range []string{"9999999999999999999", "99999999999999999999", "18446744073709551615", "18446744073709551616", "18446744073709551619", "36893488147419103235"} {
		names = append(names, "_RNvC3foo"+dec+"a")
	}
	for _, b := range []string{"LygUckEyS0", "LygUckEyS1", "LygUckEyS2", "zzzzzzzzzzz", "ZZZZZZZZZZ", "ZZZZZZZZZZZ", "1"} {
		names = append(names,
			"_RNCNvC3foo3bars"+b+"_0",
			"_RINvC3foo3barL"+b+"_EB2_",
			"_RINvC3foo3barB"+b+"_EB2_")
	}
	return names
}

// BenchmarkRustV0 demangles the fixtures' v0 names in both styles.
func BenchmarkRustV0(b *testing.B) {
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(fixture.Gunzip(b, rustV0FixtureNames)))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		names = append(names, strings.SplitN(sc.Text(), "\t", 2)[0])
	}
	for _, style := range []struct {
		name  string
		style Style
	}{{"llvm", LLVM}, {"gnu", GNU}} {
		b.Run(style.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, n := range names {
					Demangle(n, style.style)
				}
			}
		})
	}
}
