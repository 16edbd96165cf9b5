package symbolize

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// fixtureAddrs returns every 5th address of the fixture's executable
// sections plus a few beyond them, so lookups cover functions, padding and
// unknown addresses.
func fixtureAddrs(t testing.TB, path string) []uint64 {
	t.Helper()
	f := fx.OpenELF(t, path)
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

// runLLVM runs llvm-symbolizer in JSON mode over addrs with extra flags.
func runLLVM(t *testing.T, bin, obj string, addrs []uint64, flags ...string) []llvmJSON {
	t.Helper()
	var in bytes.Buffer
	for _, a := range addrs {
		fmt.Fprintf(&in, "0x%x\n", a)
	}
	args := append([]string{"--obj=" + obj, "--output-style=JSON"}, flags...)
	out, stderr, code := reftool.Run(t, bin, args, in.String())
	if code != 0 {
		t.Fatalf("%s %v: exit %d: %s", bin, args, code, stderr)
	}
	var res []llvmJSON
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var j llvmJSON
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("llvm-symbolizer output: %v", err)
		}
		res = append(res, j)
	}
	if len(res) != len(addrs) {
		t.Fatalf("llvm-symbolizer gave %d answers for %d addresses", len(res), len(addrs))
	}
	return res
}

// TestFixturesAgainstLLVM compares every fixture with llvm-symbolizer run
// live, under several flag combinations. Compressed fixtures llvm 14 can't
// read (zstd) are compared with the answers for their uncompressed twin.
func TestFixturesAgainstLLVM(t *testing.T) {
	bin := reftool.Need(t, "llvm-symbolizer")
	// full: the unstripped binary of a stripped fixture with a debug
	// file, whose answers are the reference where llvm-symbolizer names
	// no function on the fixture (the llvm policy names such code from
	// the debug file's richer symbol table: docs/differences.md).
	cases := []struct {
		fixture, reference, full string
	}{
		{"c-O0-dw4-nopie", "", ""},
		{"c-O2-dw5-pie", "", ""},
		{"c-O2-dw4-pie", "", ""},
		{"c-O2-dw5-clang", "", ""},
		{"cxx-O2-dw5", "", ""},
		{"cxx-O0-dw4-nopie", "", ""},
		{"cxx-O2-clang-dw4", "", ""},
		{"libfix.so", "", ""},
		{"c-O2-zlib", "", ""},
		{"c-O2-zstd", "c-O2-dw5-pie", ""},
		{"c-O2-zdebug", "", ""},
		{"c-O2-stripped", "", ""},
		{"c-O2-stripped-all", "", ""},
		{"debuglink/prog", "", "c-O2-dw5-pie"},
	}
	variants := []struct {
		name  string
		flags []string
		opts  LookupOptions
	}{
		{"inlines-demangle", []string{"--inlines", "--demangle"}, LookupOptions{Inlines: true, Demangle: true}},
		{"no-inlines", []string{"--no-inlines", "--demangle"}, LookupOptions{Demangle: true}},
		{"no-demangle", []string{"--inlines", "--no-demangle"}, LookupOptions{Inlines: true}},
		{"short", []string{"--inlines", "--functions=short"}, LookupOptions{Inlines: true, Demangle: true, Functions: FunctionsShort}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.fixture, "/", "_"), func(t *testing.T) {
			path := fx.ELF(t, c.fixture)
			ref := path
			if c.reference != "" {
				ref = fx.ELF(t, c.reference)
			}
			obj := openObject(t, path, noDebugDirs())
			addrs := fixtureAddrs(t, path)
			for _, v := range variants {
				want := runLLVM(t, bin, ref, addrs, v.flags...)
				if c.full != "" {
					full := runLLVM(t, bin, fx.ELF(t, c.full), addrs, v.flags...)
					for i := range want {
						if len(want[i].Symbol) == 1 && want[i].Symbol[0].FunctionName == "" {
							want[i] = full[i]
						}
					}
				}
				got := obj.SymbolizeMany(addrs, v.opts)
				same, shown := 0, 0
				for i := range addrs {
					g, w := llvmText(got[i]), llvmTextFromJSON(want[i])
					endMarker := len(want[i].Symbol) == 1 && want[i].Symbol[0].FunctionName == "_end" && got[i][0] == (Frame{})
					if g == w || endMarker {
						same++
					} else if shown < 3 {
						shown++
						t.Errorf("%s 0x%x:\n got:\n%s want:\n%s", v.name, addrs[i], g, w)
					}
				}
				t.Logf("%s: %d/%d identical", v.name, same, len(addrs))
			}
		})
	}
}

// TestDataAgainstLLVM compares DATA answers with llvm-symbolizer's for every
// 3rd address of the loaded sections, code too (llvm names a function
// there).
func TestDataAgainstLLVM(t *testing.T) {
	bin := reftool.Need(t, "llvm-symbolizer")
	for _, name := range []string{"c-O0-dw4-nopie", "c-O2-dw5-pie", "cxx-O2-dw5", "libfix.so"} {
		t.Run(name, func(t *testing.T) {
			path := fx.ELF(t, name)
			f, err := elf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			var addrs []uint64
			for _, s := range f.Sections {
				if s.Flags&elf.SHF_ALLOC != 0 && s.Addr != 0 {
					for a := s.Addr; a < s.Addr+s.Size; a += 3 {
						addrs = append(addrs, a)
					}
				}
			}
			f.Close()
			var in bytes.Buffer
			for _, a := range addrs {
				fmt.Fprintf(&in, "DATA 0x%x\n", a)
			}
			out, stderr, code := reftool.Run(t, bin, []string{"--obj=" + path, "--output-style=JSON"}, in.String())
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", bin, code, stderr)
			}
			obj := openObject(t, path, noDebugDirs())
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != len(addrs) {
				t.Fatalf("%d answers for %d addresses", len(lines), len(addrs))
			}
			bad := 0
			for i, l := range lines {
				var j struct {
					Data struct{ Name, Start, Size string }
				}
				if err := json.Unmarshal([]byte(l), &j); err != nil {
					t.Fatal(err)
				}
				d, _ := obj.Data(addrs[i])
				g := fmt.Sprintf("%s 0x%x 0x%x", d.Demangled, d.Start, d.Size)
				w := fmt.Sprintf("%s %s %s", j.Data.Name, j.Data.Start, j.Data.Size)
				if g != w {
					bad++
					if bad <= 5 {
						t.Errorf("DATA 0x%x: got %q, want %q", addrs[i], g, w)
					}
				}
			}
			t.Logf("DATA: %d/%d identical", len(addrs)-bad, len(addrs))
		})
	}
}
