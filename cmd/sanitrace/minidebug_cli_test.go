package main

import (
	"debug/elf"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// mdiDir holds the MiniDebugInfo fixtures (testdata/minidebuginfo).
const mdiDir = repoRoot + "/testdata/minidebuginfo"

// symtabNames reads <b>.symtab.txt (value, size, binding, name of the
// unstripped binary's function symbols) and returns the name of the
// function holding each address: the last symbol starting at or below it.
func symtabNames(t *testing.T, path string, addrs []uint64) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type sym struct {
		at   uint64
		name string
	}
	var syms []sym
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		v, err := strconv.ParseUint(f[0], 16, 64)
		if len(f) != 4 || err != nil {
			t.Fatalf("%s: %q", path, line)
		}
		syms = append(syms, sym{v, f[3]})
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].at < syms[j].at })
	names := make([]string, len(addrs))
	for i, a := range addrs {
		j := sort.Search(len(syms), func(k int) bool { return syms[k].at > a }) - 1
		if j < 0 {
			t.Fatalf("%s: no symbol at or below 0x%x", path, a)
		}
		names[i] = syms[j].name
	}
	return names
}

func readAddrs(t *testing.T, path string) (string, []uint64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var addrs []uint64
	for _, l := range strings.Fields(string(b)) {
		a, err := strconv.ParseUint(strings.TrimPrefix(l, "0x"), 16, 64)
		if err != nil {
			t.Fatalf("%s: %q", path, l)
		}
		addrs = append(addrs, a)
	}
	return string(b), addrs
}

// faceNames asks both faces for the function at each address of in and
// returns the names they print (the outermost frame's, for the llvm
// face), and what they wrote on stderr.
func faceNames(t *testing.T, bin, in string, n int) (llvm, gnu []string, stderr string) {
	t.Helper()
	out, lerr, code := runCLI(t, in, "symbolize", "--obj="+bin, "--inlines", "--demangle")
	if code != 0 {
		t.Fatalf("symbolize %s: exit %d: %s", bin, code, lerr)
	}
	for _, blk := range strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n") {
		lines := strings.Split(blk, "\n")
		llvm = append(llvm, lines[len(lines)-2])
	}
	gout, gerr, code := runCLI(t, in, "addr2line", "-e", bin, "-f", "-C")
	if code != 0 {
		t.Fatalf("addr2line %s: exit %d: %s", bin, code, gerr)
	}
	lines := strings.Split(strings.TrimSuffix(gout, "\n"), "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		gnu = append(gnu, lines[i])
	}
	if len(llvm) != n || len(gnu) != n {
		t.Fatalf("%s: %d and %d answers for %d addresses", bin, len(llvm), len(gnu), n)
	}
	return llvm, gnu, lerr + gerr
}

// euNames reads eu-addr2line -a -f's answers: the function line of each.
func euNames(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var names []string
	for i := 0; i+2 < len(lines)+1; i += 3 {
		names = append(names, lines[i+1])
	}
	return names
}

// TestMiniDebugInfoNames: in a stripped binary and library whose only
// names for static functions, main and the crt functions are in their
// MiniDebugInfo (.gnu_debugdata), both faces name every function address
// by the unstripped file's symbol table, as eu-addr2line -f does
// (llvm-symbolizer and addr2line print ??: docs/differences.md).
func TestMiniDebugInfoNames(t *testing.T) {
	for _, b := range []string{"prog", "libmini.so"} {
		t.Run(b, func(t *testing.T) {
			in, addrs := readAddrs(t, filepath.Join(mdiDir, b+".addrs.txt"))
			want := symtabNames(t, filepath.Join(mdiDir, b+".symtab.txt"), addrs)
			eu := euNames(t, filepath.Join(mdiDir, b+".eu-addr2line.txt"))
			llvm, gnu, stderr := faceNames(t, filepath.Join(mdiDir, b), in, len(addrs))
			if stderr != "" {
				t.Errorf("stderr: %q", stderr)
			}
			for i, a := range addrs {
				if llvm[i] != want[i] || gnu[i] != want[i] || eu[i] != want[i] {
					t.Errorf("0x%x: llvm face %q, GNU face %q, eu-addr2line %q, the unstripped symbol table %q", a, llvm[i], gnu[i], eu[i], want[i])
				}
			}
		})
	}
}

// TestMiniDebugInfoDamaged: a corrupt xz stream and one that inflates to
// 128 MiB (refused by the bound of compressed sections) leave the binary
// as if it had no MiniDebugInfo (every name ??, as gdb and eu-addr2line
// answer on the corrupt one and on prog.stripped); prog's other tables
// name nothing, so the face's one line on stderr names the file and
// what is wrong with its .gnu_debugdata. In a library whose .dynsym
// names its exported functions, those still answer.
func TestMiniDebugInfoDamaged(t *testing.T) {
	in, addrs := readAddrs(t, filepath.Join(mdiDir, "prog.addrs.txt"))
	for _, tt := range []struct{ variant, says string }{
		{"corrupt-xz", "xz: "},
		{"oversized-xz", "inflates to more than"},
	} {
		t.Run(tt.variant, func(t *testing.T) {
			bin := filepath.Join(mdiDir, "variants", "prog."+tt.variant)
			llvm, gnu, stderr := faceNames(t, bin, in, len(addrs))
			for i, a := range addrs {
				if llvm[i] != "??" || gnu[i] != "??" {
					t.Errorf("0x%x: llvm face %q, GNU face %q, want ??", a, llvm[i], gnu[i])
				}
			}
			for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if !strings.Contains(l, bin+": .gnu_debugdata (MiniDebugInfo): "+tt.says) {
					t.Errorf("stderr line %q: want the file, its .gnu_debugdata and %q", l, tt.says)
				}
			}
		})
	}
	t.Run("library", func(t *testing.T) {
		// libmini.so with eight bytes of its xz stream overwritten.
		lib := filepath.Join(t.TempDir(), "libmini.so")
		fixture.Copy(t, filepath.Join(mdiDir, "libmini.so"), lib)
		corruptMiniDebug(t, lib)
		in, addrs := readAddrs(t, filepath.Join(mdiDir, "libmini.so.addrs.txt"))
		exported := map[string]bool{}
		ef := fixture.OpenELF(t, lib)
		dyn, _ := ef.DynamicSymbols()
		ef.Close()
		for _, d := range dyn {
			if elf.ST_TYPE(d.Info) == elf.STT_FUNC && d.Section != elf.SHN_UNDEF {
				exported[d.Name] = true
			}
		}
		want := symtabNames(t, filepath.Join(mdiDir, "libmini.so.symtab.txt"), addrs)
		llvm, gnu, _ := faceNames(t, lib, in, len(addrs))
		named := 0
		for i, a := range addrs {
			w := "??"
			if exported[want[i]] {
				w, named = want[i], named+1
			}
			if llvm[i] != w || gnu[i] != w {
				t.Errorf("0x%x: llvm face %q, GNU face %q, want %q", a, llvm[i], gnu[i], w)
			}
		}
		if named == 0 {
			t.Error("no exported function among the addresses")
		}
	})
}

// TestCoreMiniDebugInfo: the core fixture's static binary stripped with
// MiniDebugInfo (testdata/minidebuginfo/core, `make core` there) unwinds
// as the full one does and names every frame as gdb names it from the
// .gnu_debugdata symbols (core/gdb-bt.txt): __libc_read and __clone3,
// the recipe keeping no weak symbols (read, clone3), and the program's
// own functions without their DWARF. gdb shows the minimal symbol
// spin_wait.constprop.0 as "spin_wait.constprop" (its name read as a Go
// symbol: docs/differences.md); that one name is compared as gdb prints
// it.
func TestCoreMiniDebugInfo(t *testing.T) {
	dir := t.TempDir()
	gunzipTo(t, filepath.Join(mdiDir, "core", "crash.gz"), filepath.Join(dir, "crash"), 0o755)
	gunzipTo(t, filepath.Join(repoRoot, "testdata", "core", "core.gz"), filepath.Join(dir, "core"), 0o644)
	bt, err := os.ReadFile(filepath.Join(mdiDir, "core", "gdb-bt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", "core", "--format", "json", "--prefix-map", coreFixtureRun+"="+dir, filepath.Join(dir, "core"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got := parseCoreJSON(t, out)
	named := 0
	for _, th := range got.Threads {
		for i := range th.Frames {
			f := &th.Frames[i]
			if str(f.Function) == "spin_wait.constprop.0" {
				s := "spin_wait.constprop"
				f.Function = &s
			}
			if str(f.Function) != "" {
				named++
			}
		}
	}
	compareWithGDB(t, got, parseGDBBacktrace(t, string(bt)))
	if named < 15 {
		t.Errorf("%d frames named, want gdb's 15", named)
	}
}

// TestDecodeMiniDebugInfo: decode and batch name the frames of a TSan report in a
// binary stripped with MiniDebugInfo (testdata/minidebuginfo/tsan.gz, the
// race program of testdata/sanitizers) from .gnu_debugdata: each frame
// of the program is named as the runtime's own symbolization of the
// same race names the outermost function at that offset (its symbol,
// from llvm-symbolizer 14 on the full binary: tsan-race.log), the
// interceptor with the runtime's __interceptor_ taken off.
func TestDecodeMiniDebugInfo(t *testing.T) {
	dir := t.TempDir()
	gunzipTo(t, filepath.Join(mdiDir, "tsan.gz"), filepath.Join(dir, "tsan"), 0o755)
	san := filepath.Join(repoRoot, "testdata", "sanitizers")
	symbolized, err := os.ReadFile(filepath.Join(san, "tsan-race.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The outermost function the runtime printed at each offset of tsan.
	want := map[string]string{}
	for _, l := range strings.Split(string(symbolized), "\n") {
		l = strings.TrimSpace(l)
		i := strings.Index(l, " (tsan+0x")
		if !strings.HasPrefix(l, "#") || i < 0 {
			continue
		}
		off := strings.TrimPrefix(l[i+2:], "tsan+")
		off = off[:strings.IndexByte(off, ')')]
		fn := l[strings.IndexByte(l, ' ')+1 : i]
		fn = fn[:strings.LastIndexByte(fn, ' ')] // the location follows the name
		want[off] = fn
	}
	if len(want) != 3 {
		t.Fatalf("tsan-race.log: %d offsets of tsan, want 3: %v", len(want), want)
	}
	out, stderr, code := runCLI(t, "", "decode", "--format", "json", "--binary-dir", dir, filepath.Join(san, "tsan-race-unsymbolized.log"))
	if code != 1 { // a report was found
		t.Fatalf("exit %d: %s", code, stderr)
	}
	seen := 0
	for _, r := range parseDecodeJSON(t, out).Reports {
		for _, s := range r.Stacks {
			for _, f := range s.Frames {
				if filepath.Base(str(f.Module)) != "tsan" {
					continue
				}
				seen++
				if w, ok := want[str(f.Offset)]; !ok || str(f.Function) != w {
					t.Errorf("tsan+%s: %q, the runtime on the full binary %q", str(f.Offset), str(f.Function), w)
				}
			}
		}
	}
	if seen != 3 {
		t.Errorf("%d frames of tsan decoded, want 3", seen)
	}

	// A corrupt xz stream: one warning naming the file and its
	// .gnu_debugdata, however many names of the module the report
	// prints, and the frames as without MiniDebugInfo.
	bad := t.TempDir()
	fixture.Copy(t, filepath.Join(dir, "tsan"), filepath.Join(bad, "tsan"))
	corruptMiniDebug(t, filepath.Join(bad, "tsan"))
	out, stderr, _ = runCLI(t, "", "decode", "--format", "json", "--binary-dir", bad, filepath.Join(san, "tsan-race-unsymbolized.log"))
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 ||
		!strings.Contains(lines[0], filepath.Join(bad, "tsan")+": .gnu_debugdata (MiniDebugInfo): xz: ") {
		t.Errorf("corrupt: stderr %q, want one warning naming the file and its .gnu_debugdata", stderr)
	}
	for _, r := range parseDecodeJSON(t, out).Reports {
		for _, s := range r.Stacks {
			for _, f := range s.Frames {
				if filepath.Base(str(f.Module)) == "tsan" && str(f.Function) == want[str(f.Offset)] && str(f.Function) != "pthread_create" {
					t.Errorf("corrupt: tsan+%s named %q", str(f.Offset), str(f.Function))
				}
			}
		}
	}

	// batch, over an artifact directory holding the log and the binary.
	art := t.TempDir()
	fixture.Copy(t, filepath.Join(dir, "tsan"), filepath.Join(art, "tsan"))
	fixture.Copy(t, filepath.Join(san, "tsan-race-unsymbolized.log"), filepath.Join(art, "race.log"))
	out, stderr, _ = runCLI(t, "", "batch", "--format", "json", art)
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("batch: %v; stderr %s", err, stderr)
	}
	seen = 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if m, ok := v["module"].(string); ok && filepath.Base(m) == "tsan" {
				off, _ := v["offset"].(string)
				fn, _ := v["function"].(string)
				seen++
				if fn != want[off] {
					t.Errorf("batch: tsan+%s: %q, the runtime on the full binary %q", off, fn, want[off])
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	if seen < 3 {
		t.Errorf("batch: %d frames of tsan, want at least 3", seen)
	}
}

// corruptMiniDebug overwrites eight bytes of the xz stream in the
// .gnu_debugdata of the file at path (at offset 200, as the Makefile
// makes variants/prog.corrupt-xz).
func corruptMiniDebug(t *testing.T, path string) {
	t.Helper()
	f := fixture.OpenELF(t, path)
	s := f.Section(".gnu_debugdata")
	f.Close()
	if s == nil || s.FileSize < 208 {
		t.Fatalf("%s has no .gnu_debugdata of 208 bytes", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[s.Offset+200:], "\xff\xff\xff\xff\xff\xff\xff\xff")
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
