package symbolize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// rustNamesFile is a golden recorded from the reference tools (-update
// rewrites it from llvm-cxxfilt-14 and c++filt -i).
var rustNamesFile = filepath.Join(golden.Dir("symbolize"), "rust-names.tsv")

// TestRustNamesMatchReferenceTools checks Rust symbol names (the Rust
// fixtures' symbols and DWARF linkage names, legacy names of a -O0 and an
// -O3 build, a sample of rustc 1.95's own v0 names, and hand-made edge
// cases) against the outputs recorded in rustNamesFile:
// name, llvm-cxxfilt-14 (what llvm-symbolizer 14 prints) and c++filt -i
// from binutils 2.40 (libiberty without DMGL_VERBOSE, as addr2line -C).
// -update re-records the two outputs from the tools.
func TestRustNamesMatchReferenceTools(t *testing.T) {
	rows := readRustNames(t)
	if golden.Updating() {
		rows = recordRustNames(t, rows)
	}
	var c demangleCache
	bad := map[demangler]int{}
	for _, r := range rows {
		for _, w := range []struct {
			style demangler
			want  string
		}{{demangleLLVM14, r[1]}, {demangleGNU, r[2]}} {
			if got := c.demangle(r[0], w.style); got != w.want {
				bad[w.style]++
				if bad[w.style] <= 10 {
					t.Errorf("%s (style %d):\n got  %s\n want %s", r[0], w.style, got, w.want)
				}
			}
		}
	}
	t.Logf("%d names: %d differ from llvm-cxxfilt-14, %d from c++filt -i", len(rows), bad[demangleLLVM14], bad[demangleGNU])
}

func readRustNames(t *testing.T) [][3]string {
	t.Helper()
	data, err := os.ReadFile(rustNamesFile)
	if err != nil {
		t.Fatalf("read %s: %v", rustNamesFile, err)
	}
	_, table := golden.Table(t, rustNamesFile, data, 3)
	rows := make([][3]string, len(table))
	for i, r := range table {
		rows[i] = [3]string{r[0], r[1], r[2]}
	}
	return rows
}

// recordRustNames re-runs the reference tools on the names and rewrites
// the file.
func recordRustNames(t *testing.T, rows [][3]string) [][3]string {
	t.Helper()
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r[0]
	}
	run := func(name string, args ...string) []string { return filterAll(t, reftool.Need(t, name), names, args...) }
	llvm, gnu := run("llvm-cxxfilt-14"), run("c++filt", "-i")
	var out strings.Builder
	for i := range rows {
		rows[i][1], rows[i][2] = llvm[i], gnu[i]
		out.WriteString(rows[i][0] + "\t" + llvm[i] + "\t" + gnu[i] + "\n")
	}
	if err := os.WriteFile(rustNamesFile, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return rows
}

// FuzzDemangleNames feeds arbitrary names to both styles' demangling: no
// panic, and a name that does not look mangled comes back unchanged.
func FuzzDemangleNames(f *testing.F) {
	for _, s := range []string{
		"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17hdbee5a3fa7ab6636E.llvm.8787314375221781632",
		"_ZN4core3ops8function6FnOnce40call_once$u7b$$u7b$vtable.shim$u7d$$u7d$17hb12ac75f187c2ba6E",
		"_RINvCs1_3foo3barKj1234_Kb1_Kc61_Kc27_Kc1f600_Ka7f_Kan80_Kyffffffffffffffff_Kxn1_Ko10000000000000000_KpEB3_",
		"_RNvNCNKNvNvMNtNtCsjrHSEGnQ3l9_3std4hash6randomNtBa_11RandomState3new4KEYS0s_023___RUST_STD_INTERNAL_VAL",
		"_RNvCs1_3foou3bcd_4kva.cold.1",
		"_ZN3foo3barE.a.b.c",
		"main.(*Stack[go.shape.string]).Push",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		var c demangleCache
		for _, style := range []demangler{demangleLLVM14, demangleGNU} {
			out := c.demangle(name, style)
			if !strings.HasPrefix(name, "_Z") && !strings.HasPrefix(name, "_R") && out != name {
				t.Fatalf("%q changed to %q", name, out)
			}
		}
	})
}
