package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// aliasRow is one line of testdata/sanitizers' alias tables (aliases.sh):
// an interceptor address, the symbols at it, and llvm-symbolizer 14's and
// addr2line 2.40's answers there, an answer's lines joined by " | ".
type aliasRow struct {
	addr, syms, llvm, gnu string
}

func readAliasTable(t *testing.T, path string) []aliasRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, table := golden.Table(t, path, b, 4)
	var rows []aliasRow
	for _, f := range table {
		rows = append(rows, aliasRow{f[0], f[1], f[2], f[3]})
	}
	return rows
}

// checkAliases asks both faces, from the command line, at every address
// of rows in bin and compares their answers with the recorded ones.
func checkAliases(t *testing.T, bin string, rows []aliasRow) {
	t.Helper()
	if len(rows) == 0 {
		return // a runtime without interceptors (gcc 12's libubsan)
	}
	var in strings.Builder
	for _, r := range rows {
		in.WriteString(r.addr + "\n")
	}
	// llvm face: one block per address, ended by an empty line.
	out, stderr, code := runCLI(t, in.String(), "symbolize", "--obj="+bin, "--inlines", "--demangle")
	if code != 0 {
		t.Fatalf("symbolize %s: exit %d: %s", bin, code, stderr)
	}
	blocks := strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n")
	if len(blocks) != len(rows) {
		t.Fatalf("symbolize %s: %d answers for %d addresses", bin, len(blocks), len(rows))
	}
	// GNU face: each answer starts with its address line (-a).
	gout, stderr, code := runCLI(t, in.String(), "addr2line", "-e", bin, "-a", "-f", "-i", "-C")
	if code != 0 {
		t.Fatalf("addr2line %s: exit %d: %s", bin, code, stderr)
	}
	var gnu [][]string
	sc := bufio.NewScanner(strings.NewReader(gout))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "0x") {
			gnu = append(gnu, nil)
			continue
		}
		if len(gnu) > 0 {
			gnu[len(gnu)-1] = append(gnu[len(gnu)-1], sc.Text())
		}
	}
	if len(gnu) != len(rows) {
		t.Fatalf("addr2line %s: %d answers for %d addresses", bin, len(gnu), len(rows))
	}
	bad := 0
	for i, r := range rows {
		llvm := strings.Join(strings.Split(blocks[i], "\n"), " | ")
		g := strings.Join(gnu[i], " | ")
		if llvm != r.llvm || g != r.gnu {
			if bad++; bad <= 10 {
				t.Errorf("%s %s (%s):\n  llvm face %q, llvm-symbolizer 14 %q\n  GNU face  %q, addr2line 2.40 %q",
					filepath.Base(bin), r.addr, r.syms, llvm, r.llvm, g, r.gnu)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%s: %d of %d addresses differ", filepath.Base(bin), bad, len(rows))
	}
}

// TestSanitizerAliases: at each of the 1,654 interceptor addresses of
// clang 14's five sanitizer runtimes linked into a program, where the
// runtime defines the interceptor twice (__interceptor_pthread_create
// and its weak alias pthread_create), the llvm face names what
// llvm-symbolizer 14 names and the GNU face what addr2line 2.40 names
// (testdata/sanitizers; the rules: symbolize.Policy's aliases).
func TestSanitizerAliases(t *testing.T) {
	dir := filepath.Join(repoRoot, "testdata", "sanitizers")
	tmp := t.TempDir()
	total := 0
	for _, s := range []string{"tsan", "asan", "msan", "lsan", "ubsan"} {
		t.Run(s, func(t *testing.T) {
			bin := filepath.Join(tmp, s)
			if err := os.WriteFile(bin, fixture.Gunzip(t, filepath.Join(dir, s+".gz")), 0o755); err != nil {
				t.Fatal(err)
			}
			rows := readAliasTable(t, filepath.Join(dir, s+".aliases.tsv"))
			total += len(rows)
			checkAliases(t, bin, rows)
		})
	}
	if total != 1654 {
		t.Errorf("%d interceptor addresses in the tables, want 1654", total)
	}
}

// TestSystemSanitizerAliases is TestSanitizerAliases over the shared
// runtimes installed on this machine (clang 14's and gcc 12's, stripped:
// their .dynsym names the interceptors), each compared only when the
// installed file is the one the table was recorded from (its build-id in
// testdata/sanitizers/system/SOURCES).
func TestSystemSanitizerAliases(t *testing.T) {
	dir := filepath.Join(repoRoot, "testdata", "sanitizers", "system")
	src, err := os.ReadFile(filepath.Join(dir, "SOURCES"))
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		path, id, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("SOURCES: %q: want path TAB build-id", line)
		}
		// The table is named after the library's link name (libasan.so.8).
		var table string
		for base := filepath.Base(path); base != "." && table == ""; base = strings.TrimSuffix(base, filepath.Ext(base)) {
			if _, err := os.Stat(filepath.Join(dir, base+".aliases.tsv")); err == nil {
				table = filepath.Join(dir, base+".aliases.tsv")
			}
			if filepath.Ext(base) == "" {
				break
			}
		}
		if table == "" {
			t.Fatalf("SOURCES: no table for %s", path)
		}
		t.Run(filepath.Base(table), func(t *testing.T) {
			if got := buildIDOf(path); got != id {
				t.Skipf("%s: build-id %q, the table was recorded from %s", path, got, id)
			}
			compared++
			checkAliases(t, path, readAliasTable(t, table))
		})
	}
	if compared == 0 {
		t.Skip("none of the runtimes the tables were recorded from is installed here")
	}
}

// buildIDOf returns the GNU build-id of the ELF file at path in hex, ""
// when it has none or cannot be read.
func buildIDOf(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			continue
		}
		for len(b) >= 12 {
			nsz, dsz, typ := f.ByteOrder.Uint32(b), f.ByteOrder.Uint32(b[4:]), f.ByteOrder.Uint32(b[8:])
			name := (uint64(nsz) + 3) &^ 3
			desc := (uint64(dsz) + 3) &^ 3
			if 12+name+desc > uint64(len(b)) {
				break
			}
			if typ == 3 && bytes.Equal(b[12:12+nsz], []byte("GNU\x00")) {
				return hex.EncodeToString(b[12+name : 12+name+uint64(dsz)])
			}
			b = b[12+name+desc:]
		}
	}
	return ""
}
