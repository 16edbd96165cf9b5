package symbolize

import (
	"debug/dwarf"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// mangledNames collects the distinct "_Z" names of an ELF file: symbol-table
// names and DWARF linkage names, the two sources of function names.
func mangledNames(t *testing.T, path string, into map[string]bool) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		return // not ELF (debug directories, sources)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	dyn, _ := f.DynamicSymbols()
	for _, s := range append(syms, dyn...) {
		if strings.HasPrefix(s.Name, "_Z") && !strings.Contains(s.Name, "@") {
			into[s.Name] = true
		}
	}
	d, err := f.DWARF()
	if err != nil {
		return
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		if n, ok := e.Val(dwarf.AttrLinkageName).(string); ok && strings.HasPrefix(n, "_Z") {
			into[n] = true
		}
	}
}

// filterAll pipes names, one per line, through a c++filt-like tool.
func filterAll(t *testing.T, bin string, names []string) []string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(names, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(names) {
		t.Fatalf("%s: %d lines for %d names", bin, len(lines), len(names))
	}
	return lines
}

// TestDemangleMatchesReferenceTools demangles every mangled name of the
// fixtures (and of the shared corpus binaries, when present) and compares
// with llvm-cxxfilt 14 (the demangler of llvm-symbolizer 14) and binutils'
// c++filt (addr2line -C's), byte for byte: "> >" spacing, empty packs,
// inheriting constructors, unresolved names.
func TestDemangleMatchesReferenceTools(t *testing.T) {
	llvm := tool(t, "llvm-cxxfilt-14")
	gnu := tool(t, "c++filt")
	set := map[string]bool{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "elf", "*"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "elf", "*", "*"))
	paths = append(paths, more...)
	// The corpus binaries add gcc's and the sanitizer runtimes' names; the
	// fixtures alone still make a meaningful test without them.
	shared := os.Getenv("SANITRACE_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	corpus, _ := filepath.Glob(filepath.Join(shared, "corpus", "symbolize", "*", "*"))
	paths = append(paths, corpus...)
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			mangledNames(t, p, set)
		}
	}
	if len(set) == 0 {
		t.Skip("no mangled names found in the fixtures")
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	var c nameCache
	for _, ref := range []struct {
		style NameStyle
		want  []string
		tool  string
	}{
		{StyleLLVM, filterAll(t, llvm, names), "llvm-cxxfilt-14"},
		{StyleGNU, filterAll(t, gnu, names), "c++filt"},
	} {
		bad := 0
		for i, n := range names {
			if got := c.demangle(n, ref.style); got != ref.want[i] {
				bad++
				if bad <= 10 {
					t.Errorf("%s %s:\n got  %s\n want %s", ref.tool, n, got, ref.want[i])
				}
			}
		}
		t.Logf("%s: %d of %d names identical", ref.tool, len(names)-bad, len(names))
	}
}
