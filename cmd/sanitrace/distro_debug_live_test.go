package main

import (
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestDistroDebugPackageLive symbolizes the system's libc through the debug
// file Debian's libc6-dbg installs under /usr/lib/debug/.build-id and
// compares every answer with binutils addr2line and llvm-symbolizer, which
// find it the same way. Skipped where libc6-dbg is not installed.
func TestDistroDebugPackageLive(t *testing.T) {
	var libc string
	for _, p := range []string{"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6"} {
		if _, err := os.Stat(p); err == nil {
			libc = p
			break
		}
	}
	if libc == "" {
		t.Skip("no x86-64 glibc at the usual paths")
	}
	id, err := debuginfo.ReadBuildID(libc)
	if err != nil || len(id) < 2 {
		t.Skipf("%s: no build-id (%v)", libc, err)
	}
	if _, err := os.Stat(debuginfo.BuildIDPath("/usr/lib/debug", id)); err != nil {
		t.Skipf("libc6-dbg not installed (no %s)", debuginfo.BuildIDPath("/usr/lib/debug", id))
	}
	f, err := elf.Open(libc)
	if err != nil {
		t.Fatal(err)
	}
	text := f.Section(".text")
	f.Close()
	if text == nil {
		t.Fatalf("%s: no .text", libc)
	}
	// Every 997th byte of .text: about 1,400 addresses over the whole library.
	var in strings.Builder
	for a := text.Addr; a < text.Addr+text.Size; a += 997 {
		fmt.Fprintf(&in, "0x%x\n", a)
	}
	cases := []struct {
		name, tool, argv0 string
		args              []string
	}{
		{"addr2line", "addr2line", "addr2line", []string{"-f", "-i", "-C", "-a", "-e", libc}},
		{"llvm-json", "llvm-symbolizer", "llvm-symbolizer", []string{"--output-style=JSON", "--obj=" + libc}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reftool.Need(t, c.tool)
			want, _, _ := reftool.Run(t, c.tool, c.args, in.String())
			got, _, _ := runArgv0(t, c.argv0, c.args, in.String())
			if c.name == "llvm-json" {
				// Code the DWARF does not describe: llvm-symbolizer 14
				// names it from .dynsym alone, the llvm face from the
				// debug file's richer .symtab (docs/differences.md).
				want = acceptDebugSymbols(t, want, got, debuginfo.BuildIDPath("/usr/lib/debug", id))
			}
			if got != want {
				t.Errorf("%s on %s differs from %s:\n%s", c.name, libc, c.tool, golden.FirstDiff(want, got))
			}
		})
	}
}

// TestDistroDwzPackageLive checks a second Debian debug package, one that
// dh_dwz processed: libbinutils-dbg's debug file for the system's
// libbfd-*-system.so names /usr/lib/debug/.dwz/<triplet>/libbinutils.debug
// (.gnu_debugaltlink) and has compressed sections, LTO units and partial
// units of its own. llvm-symbolizer 14 reads no supplementary files, so
// (docs/differences.md):
//   - on the library our llvm face answers as llvm-symbolizer does, except
//     that function names kept in the supplementary file, which it prints
//     as "", are filled in (some address must show that);
//   - on a copy of the debug file whose link leads nowhere, our answers are
//     llvm-symbolizer's on the same copy, byte for byte.
//
// binutils 2.40 addr2line is no reference for this file (it cannot open
// Debian's absolute .gnu_debugaltlink path; docs/differences.md).
// Skipped where libbinutils-dbg is not installed.
func TestDistroDwzPackageLive(t *testing.T) {
	reftool.Need(t, "llvm-symbolizer")
	libs, _ := filepath.Glob("/usr/lib/x86_64-linux-gnu/libbfd-*-system.so")
	if len(libs) == 0 {
		t.Skip("no /usr/lib/x86_64-linux-gnu/libbfd-*-system.so (binutils) here")
	}
	lib := libs[0]
	id, err := debuginfo.ReadBuildID(lib)
	if err != nil || len(id) < 2 {
		t.Skipf("%s: no build-id (%v)", lib, err)
	}
	dbg := debuginfo.BuildIDPath("/usr/lib/debug", id)
	raw, err := os.ReadFile(dbg)
	if err != nil {
		t.Skipf("libbinutils-dbg not installed (no %s)", dbg)
	}
	df, err := elf.Open(dbg)
	if err != nil {
		t.Fatal(err)
	}
	link := df.Section(".gnu_debugaltlink")
	var sup string
	if link != nil {
		if b, err := link.Data(); err == nil {
			sup, _, _ = strings.Cut(string(b), "\x00")
		}
	}
	df.Close()
	if sup == "" {
		t.Skipf("%s has no .gnu_debugaltlink: the package was not processed by dwz", dbg)
	}
	if _, err := os.Stat(sup); err != nil {
		t.Skipf("the supplementary file %s is not installed: %v", sup, err)
	}
	f, err := elf.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	text := f.Section(".text")
	f.Close()
	if text == nil {
		t.Fatalf("%s: no .text", lib)
	}
	var in strings.Builder
	for a := text.Addr; a < text.Addr+text.Size; a += 499 {
		fmt.Fprintf(&in, "0x%x\n", a)
	}
	args := func(obj string) []string {
		return []string{"--output-style=JSON", "--obj=" + obj}
	}

	t.Run("library", func(t *testing.T) {
		want, _, _ := reftool.Run(t, "llvm-symbolizer", args(lib), in.String())
		got, stderr, _ := runArgv0(t, "llvm-symbolizer", args(lib), in.String())
		if stderr != "" {
			t.Errorf("stderr: %q", stderr)
		}
		wl, gl := lines(want), lines(got)
		if len(wl) != len(gl) {
			t.Fatalf("%d answers, llvm-symbolizer gives %d", len(gl), len(wl))
		}
		filled := 0
		wl = lines(acceptDebugSymbols(t, want, got, dbg))
		for i := range wl {
			n, err := dwzFilled(wl[i], gl[i])
			if err != nil {
				t.Errorf("%s differs from llvm-symbolizer's answer beyond names from the supplementary file: %v\nwant %s\ngot  %s", lib, err, wl[i], gl[i])
				continue
			}
			filled += n
		}
		if filled == 0 {
			t.Errorf("no function name came from %s: the supplementary file was not read", sup)
		}
		t.Logf("%d addresses; %d function names filled in from %s", len(wl), filled, sup)
	})

	t.Run("supplementary file out of reach", func(t *testing.T) {
		// Same length, so no offset in the file moves.
		gone := "/nonexistent/" + strings.Repeat("x", len(sup)-len("/nonexistent/"))
		patched := strings.Replace(string(raw), sup+"\x00", gone+"\x00", 1)
		if patched == string(raw) {
			t.Fatal("link not found in the file's bytes")
		}
		cp := filepath.Join(t.TempDir(), "libbfd.debug")
		if err := os.WriteFile(cp, []byte(patched), 0o644); err != nil {
			t.Fatal(err)
		}
		a := append(args(cp), "--debug-file-directory=/nonexistent")
		want, _, _ := reftool.Run(t, "llvm-symbolizer", a, in.String())
		got, _, _ := runArgv0(t, "llvm-symbolizer", a, in.String())
		if got != want {
			t.Errorf("%s without its supplementary file differs from llvm-symbolizer:\n%s", cp, golden.FirstDiff(want, got))
		}
	})
}

// dwzFilled compares one JSON answer of ours with llvm-symbolizer's: equal
// but for function names llvm-symbolizer left empty. It returns how many
// names we filled in.
func dwzFilled(want, got string) (int, error) {
	type frame map[string]any
	var w, g struct {
		Address string
		Symbol  []frame
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return 0, fmt.Errorf("llvm-symbolizer's answer: %v", err)
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return 0, fmt.Errorf("our answer: %v", err)
	}
	if w.Address != g.Address || len(w.Symbol) != len(g.Symbol) {
		return 0, fmt.Errorf("address or frame count")
	}
	n := 0
	for i := range w.Symbol {
		for k, v := range w.Symbol[i] {
			gv := g.Symbol[i][k]
			if k == "FunctionName" && v == "" && gv != "" {
				n++
				continue
			}
			if fmt.Sprint(v) != fmt.Sprint(gv) {
				return 0, fmt.Errorf("frame %d: %s %v, want %v", i, k, gv, v)
			}
		}
		if len(w.Symbol[i]) != len(g.Symbol[i]) {
			return 0, fmt.Errorf("frame %d: fields", i)
		}
	}
	return n, nil
}

// acceptDebugSymbols returns llvm-symbolizer's JSON answers want with
// each answer that names no function (a single frame, FunctionName "")
// replaced by ours, got, where ours differs from it only by naming the
// frame after the symbol of the separate debug file at debugPath that
// holds the address (FunctionName and StartAddress): what llvm-symbolizer
// answers on the unstripped file, and what the llvm face answers for code
// the DWARF does not describe.
func acceptDebugSymbols(t *testing.T, want, got, debugPath string) string {
	t.Helper()
	f, err := elf.Open(debugPath)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.Symbols()
	f.Close()
	if err != nil {
		t.Fatalf("%s: %v", debugPath, err)
	}
	holds := func(name string, start, addr uint64) bool {
		for _, s := range syms {
			if s.Name == name && s.Value == start && addr >= s.Value && (addr < s.Value+s.Size || s.Size == 0) {
				return true
			}
		}
		return false
	}
	type answer struct {
		Address string
		Symbol  []map[string]any
	}
	wl, gl := lines(want), lines(got)
	if len(wl) != len(gl) {
		return want
	}
	for i := range wl {
		var w, g answer
		if json.Unmarshal([]byte(wl[i]), &w) != nil || json.Unmarshal([]byte(gl[i]), &g) != nil ||
			len(w.Symbol) != 1 || len(g.Symbol) != 1 || w.Symbol[0]["FunctionName"] != "" {
			continue
		}
		name, _ := g.Symbol[0]["FunctionName"].(string)
		startText, _ := g.Symbol[0]["StartAddress"].(string)
		var start, addr uint64
		if _, err := fmt.Sscanf(startText, "0x%x", &start); err != nil {
			continue
		}
		if _, err := fmt.Sscanf(w.Address, "0x%x", &addr); err != nil || !holds(name, start, addr) {
			continue
		}
		same := true
		for k, v := range w.Symbol[0] {
			if k != "FunctionName" && k != "StartAddress" && fmt.Sprint(v) != fmt.Sprint(g.Symbol[0][k]) {
				same = false
			}
		}
		if same && len(w.Symbol[0]) == len(g.Symbol[0]) {
			wl[i] = gl[i]
		}
	}
	return strings.Join(wl, "\n") + "\n"
}
