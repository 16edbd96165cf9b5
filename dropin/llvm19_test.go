package dropin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestLLVM19FlagErrors: the messages and exit codes of llvm-symbolizer
// 19's options, as it was seen to produce them; when it is installed, each
// case is also run through it.
func TestLLVM19FlagErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
		code   int
	}{
		{[]string{"--build-id"}, "error: --build-id: missing argument\n", 1},
		{[]string{"--build-id=zz"}, "--build-id=: expected a build ID, but got 'zz'\n", 1},
		{[]string{"--build-id", "zz"}, "--build-id=: expected a build ID, but got 'zz'\n", 1},
		{[]string{"--build-id="}, "--build-id=: expected a build ID, but got ''\n", 1},
		{[]string{"--build-id=03", "--obj=x"}, "error: cannot specify both --build-id and --obj\n", 1},
		{[]string{"--obj=x", "--build-id=zz"}, "error: cannot specify both --build-id and --obj\n", 1},
		{[]string{"--colors"}, "error: unknown argument '--colors', did you mean '--color'?\n", 1},
		{[]string{"--debuginfod=1"}, "error: unknown argument '--debuginfod=1'\n", 1},
		{[]string{"--no-debuginfo"}, "error: unknown argument '--no-debuginfo', did you mean '--no-debuginfod'?\n", 1},
		{[]string{"--filter-markup=1"}, "error: unknown argument '--filter-markup=1'\n", 1},
		{[]string{"--buildid=1"}, "error: unknown argument '--buildid=1', did you mean '--build-id=1'?\n", 1},
		{[]string{"--adjust-vma", "zz"}, "--adjust-vma=: expected a non-negative integer, but got 'zz'", 1},
		// --cache-size is a size_t read as getAsInteger reads it: a radix
		// prefix, no sign, no suffix, no overflow; no newline after the
		// message (v19's parseIntArg); the last one counts, after
		// --adjust-vma's.
		{[]string{"--cache-size"}, "error: --cache-size: missing argument\n", 1},
		{[]string{"--cache-size=abc"}, "--cache-size=: expected a non-negative integer, but got 'abc'", 1},
		{[]string{"--cache-size", "1k"}, "--cache-size=: expected a non-negative integer, but got '1k'", 1},
		{[]string{"--cache-size=-1"}, "--cache-size=: expected a non-negative integer, but got '-1'", 1},
		{[]string{"--cache-size="}, "--cache-size=: expected a non-negative integer, but got ''", 1},
		{[]string{"--cache-size=18446744073709551616"}, "--cache-size=: expected a non-negative integer, but got '18446744073709551616'", 1},
		{[]string{"--cache-size=1", "--cache-size=x"}, "--cache-size=: expected a non-negative integer, but got 'x'", 1},
		{[]string{"--cache-size=x", "--adjust-vma=y"}, "--adjust-vma=: expected a non-negative integer, but got 'y'", 1},
		{[]string{"--cache-size=x", "--filter-markup"}, "--cache-size=: expected a non-negative integer, but got 'x'", 1},
		{[]string{"--cache-size=x", "--cache-size=0x10", "--cache-size=0o7", "--cache-size=0b1", "--cache-size=010"}, "", 0},
		{[]string{"--cache-size", "18446744073709551615", "--cache-size=0"}, "", 0},
		// --filter-markup runs before --build-id and --obj are looked at.
		{[]string{"--filter-markup", "--build-id=zz", "--obj=x", "--color=foo", "--debuginfod", "--no-debuginfod"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runLLVM(tt.args, "", nil)
			if stderr != tt.stderr || code != tt.code {
				t.Errorf("got (%q, %d), want (%q, %d)", stderr, code, tt.stderr, tt.code)
			}
			if reftool.Installed(llvmSymbolizer19) {
				t.Setenv("DEBUGINFOD_URLS", "")
				_, e, rc := reftool.Run(t, llvmSymbolizer19, tt.args, "")
				if e != tt.stderr || rc != tt.code {
					t.Errorf("llvm-symbolizer 19 now says (%q, %d)", e, rc)
				}
			}
		})
	}
}

// TestBuildIDOption: --build-id=HEX answers as BUILDID:HEX queries do (and
// as --obj on the debug file, ModuleName being the id in upper case), on
// stdin and on the command line.
func TestBuildIDOption(t *testing.T) {
	faceChdir(t)
	dir, err := filepath.Abs(faceFixtureDir + "/buildid/debug")
	if err != nil {
		t.Fatal(err)
	}
	id, err := debuginfo.ReadBuildID(faceFixtureDir + "/buildid/prog")
	if err != nil || len(id) == 0 {
		t.Fatalf("build-id of the fixture: %v", err)
	}
	hexID := fmt.Sprintf("%x", id)
	addrs := faceHexList(faceFixtureAddresses(t, faceFixtureDir+"/cxx-O2-dw5", 10, 4), "0x")
	var byOption, byQuery strings.Builder
	for _, a := range addrs {
		byOption.WriteString(a + "\n")
		byQuery.WriteString("BUILDID:" + strings.ToUpper(hexID) + " " + a + "\n")
	}
	for _, style := range []string{"LLVM", "GNU", "JSON"} {
		want, _, _ := faceRunFace(t, "llvm-symbolizer", []string{"--debug-file-directory=" + dir, "--output-style=" + style}, byQuery.String())
		for _, spelling := range [][]string{{"--build-id=" + hexID}, {"--build-id", strings.ToUpper(hexID)}} {
			args := append([]string{"--debug-file-directory=" + dir, "--output-style=" + style}, spelling...)
			got, stderr, code := faceRunFace(t, "llvm-symbolizer", args, byOption.String())
			if got != want || got == "" || stderr != "" || code != 0 {
				t.Errorf("%q: answers differ from BUILDID: queries (stderr %q, exit %d)\n%s", args, stderr, code, golden.FirstDiff(want, got))
			}
		}
	}
	// On the command line: the same answers, in one JSON array.
	got, _, _ := faceRunFace(t, "llvm-symbolizer", append([]string{"--debug-file-directory=" + dir, "--build-id=" + hexID, "--output-style=JSON"}, addrs[:3]...), "")
	if !strings.HasPrefix(got, `[{"Address":"`+addrs[0]+`","ModuleName":"`+strings.ToUpper(hexID)+`"`) {
		t.Errorf("--build-id with addresses in argv: %.200s", got)
	}
	out, _, _ := faceRunFace(t, "llvm-symbolizer", []string{"--debug-file-directory=" + dir, "--build-id=ab12"}, "0x10\n")
	if out != "??\n??:0:0\n\n" {
		t.Errorf("unknown build-id: stdout %q", out)
	}
}

// TestBuildIDOptionLive compares --build-id with llvm-symbolizer 19 on the
// markup samples' build-id tree: code addresses in every style, from stdin
// and from the command line, and an unknown id (its stdout; the error line
// keeps the face's v14 wording, docs/differences.md).
func TestBuildIDOptionLive(t *testing.T) {
	needLLVM19(t)
	tree := markupDebugTree(t)
	id, _ := sampleModule(t, tree)
	in := "0x10bac5\n0x10bac4\n0x2c32f\n0x10bc18\n0xcb335\n0\n0x10\nCODE 0x10ba60\n"
	argv := strings.Fields("0x10bac5 0x2c32f 0xcb335 0x10")
	for _, args := range [][]string{
		{"--build-id=" + id},
		{"--build-id", strings.ToUpper(id), "--output-style=JSON"},
		{"--build-id=" + id, "--output-style=GNU", "-a", "-f"},
		{"--build-id=" + id, "-p", "--no-inlines", "-s"},
	} {
		args = append([]string{"--debug-file-directory=" + tree}, args...)
		for _, c := range []struct {
			argv  []string
			stdin string
		}{{args, in}, {append(append([]string(nil), args...), argv...), ""}} {
			want, wantErr, wantCode := reftool.Run(t, llvmSymbolizer19, c.argv, c.stdin)
			got, gotErr, code := faceRunFace(t, "llvm-symbolizer", c.argv, c.stdin)
			if got != want || gotErr != wantErr || code != wantCode {
				t.Errorf("%q: differs from llvm-symbolizer-19 (exit %d vs %d, stderr %q vs %q)\n%s", c.argv, code, wantCode, gotErr, wantErr, golden.FirstDiff(want, got))
			}
		}
	}
	args := []string{"--debug-file-directory=" + tree, "--build-id=ab12"}
	want, _, _ := reftool.Run(t, llvmSymbolizer19, args, "0x10\n")
	got, _, _ := faceRunFace(t, "llvm-symbolizer", args, "0x10\n")
	if got != want {
		t.Errorf("unknown build-id: stdout %q, llvm-symbolizer-19's %q", got, want)
	}
}
