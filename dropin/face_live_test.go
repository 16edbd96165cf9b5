package dropin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSymbolizeSourceContextLive compares --print-source-context-lines,
// --verbose and friends with llvm-symbolizer on a program compiled here
// (the committed fixtures' sources live under a path that does not exist).
func TestSymbolizeSourceContextLive(t *testing.T) {
	faceChdir(t)
	reftool.Need(t, "llvm-symbolizer")
	cc := reftool.NeedFor(t, "gcc", "cannot build the program whose source is shown")
	dir := t.TempDir()
	src := filepath.Join(dir, "t.c")
	code := "#include <stdlib.h>\nint g_arr[10];\n\nstatic inline int inl(int *p, int i) { return p[i] * 3; }\n" +
		"int foo(int *p, int i) { return inl(p, i) + 1; }\n\n" +
		"int main(int argc, char **argv) {\n\tint *p = malloc(40);\n\tfor (int i = 0; i < argc; i++)\n\t\tg_arr[i] = foo(p, i);\n\treturn g_arr[1];\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "t")
	if out, err := exec.Command(cc, "-g", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	addrs := faceHexList(faceFixtureAddresses(t, bin, 100, 10), "0x")
	for _, flags := range [][]string{
		{"--print-source-context-lines=3"},
		{"--print-source-context-lines=4", "--output-style=JSON"},
		{"--print-source-context-lines=2", "--output-style=GNU"},
		{"--print-source-context-lines=11", "-p", "-a"},
		{"-s", "--verbose"},
	} {
		args := append([]string{"--obj=" + bin}, flags...)
		args = append(args, addrs...)
		want, _, _ := reftool.Run(t, "llvm-symbolizer", args, "")
		got, _, _ := faceRunFace(t, "llvm-symbolizer", args, "")
		if w, g := want, got; w != g {
			t.Errorf("%q: output differs from llvm-symbolizer\n%s", flags, golden.FirstDiff(w, g))
		}
	}
}
