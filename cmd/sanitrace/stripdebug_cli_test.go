package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// stripDir holds testdata/stripdebug: prog (DWARF for main.c, helper.c
// and other.c known from the symbol table alone, their static functions
// under their STT_FILE symbols) and its stripped copies with a separate
// debug file.
const stripDir = repoRoot + "/testdata/stripdebug"

// TestStripDebugSymbolTable: on a binary whose symbol table lost its
// STT_FILE symbols (objcopy --strip-debug) or that has none but .dynsym
// (strip --strip-all), the llvm face names the symbol-table-only
// functions from the separate debug file's table, found by debuglink or
// by build-id: every answer is llvm-symbolizer 14's on the full binary
// (helper.c:0:0 for a static function of helper.c), where llvm-symbolizer
// 14 itself prints ??:0:0 and, on the strip-all one, ?? for their names
// (llvm-symbolizer.debuglink.txt, .stripall.txt; docs/differences.md).
// The GNU face is addr2line 2.40's on each, which already reads the debug
// file's table.
func TestStripDebugSymbolTable(t *testing.T) {
	addrs, err := os.ReadFile(filepath.Join(stripDir, "addrs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(stripDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	full := read("llvm-symbolizer.prog.txt")
	if !strings.Contains(full, "helper.c:0:0") {
		t.Fatal("llvm-symbolizer.prog.txt names no STT_FILE: not the fixture this test is about")
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"full", []string{"symbolize", "--obj=" + stripDir + "/prog"}, full},
		{"full json", []string{"symbolize", "--obj=" + stripDir + "/prog", "--output-style=JSON"}, read("llvm-symbolizer.prog.json")},
		{"debuglink", []string{"symbolize", "--obj=" + stripDir + "/debuglink/prog"}, full},
		{"build-id", []string{"symbolize", "--obj=" + stripDir + "/buildid/prog", "--debug-file-directory=" + stripDir + "/buildid/debug"}, full},
		{"strip-all", []string{"symbolize", "--obj=" + stripDir + "/stripall/prog"}, full},
		{"GNU full", []string{"addr2line", "-e", stripDir + "/prog", "-a", "-f", "-i", "-C"}, read("addr2line.prog.txt")},
		{"GNU debuglink", []string{"addr2line", "-e", stripDir + "/debuglink/prog", "-a", "-f", "-i", "-C"}, read("addr2line.debuglink.txt")},
		{"GNU strip-all", []string{"addr2line", "-e", stripDir + "/stripall/prog", "-a", "-f", "-i", "-C"}, read("addr2line.stripall.txt")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args[0] == "symbolize" {
				args = append(args, "--inlines", "--demangle")
			}
			t.Setenv("DEBUGINFOD_URLS", "")
			out, stderr, code := runCLI(t, string(addrs), args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			// The answers were recorded with the fixture at /build/ci/stripdebug.
			out = strings.ReplaceAll(out, stripDir, "/build/ci/stripdebug")
			// ... and the JSON from its directory, as --obj=prog.
			out = strings.ReplaceAll(out, `"ModuleName":"/build/ci/stripdebug/prog"`, `"ModuleName":"prog"`)
			if out != tt.want {
				t.Errorf("answers differ from the reference:\n%s", golden.FirstDiff(tt.want, out))
			}
		})
	}
}
