package dropin

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSymbolizeFallbackDebugPath: --fallback-debug-path=DIR finds a
// .gnu_debuglink target at DIR/<absolute dir of the binary>/<name>, as
// llvm-symbolizer 14 does. The answers must equal those given with the
// debug file next to the binary and, when llvm-symbolizer is installed,
// llvm-symbolizer's own; without the flag the file is not found.
func TestSymbolizeFallbackDebugPath(t *testing.T) {
	faceChdir(t)
	root := t.TempDir()
	bin := filepath.Join(root, "bin", "prog")
	fallback := filepath.Join(root, "fallback")
	fixture.Copy(t, faceFixtureDir+"/debuglink/prog", bin)
	fixture.Copy(t, faceFixtureDir+"/debuglink/prog.debug", filepath.Join(fallback, filepath.Dir(bin), "prog.debug"))
	addrs := strings.Join(faceHexList(faceFixtureAddresses(t, faceFixtureDir+"/debuglink/prog.debug", 8, 4), "0x"), "\n") + "\n"

	args := []string{"--obj=" + bin, "--fallback-debug-path=" + fallback, "--inlines"}
	got, stderr, code := faceRunFace(t, "llvm-symbolizer", args, addrs)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	without, _, _ := faceRunFace(t, "llvm-symbolizer", args[:1], addrs)
	if without == got {
		t.Fatalf("the same answers without --fallback-debug-path: the debug file was found elsewhere\n%s", got)
	}

	next := t.TempDir()
	fixture.Copy(t, faceFixtureDir+"/debuglink/prog", filepath.Join(next, "prog"))
	fixture.Copy(t, faceFixtureDir+"/debuglink/prog.debug", filepath.Join(next, "prog.debug"))
	want, _, _ := faceRunFace(t, "llvm-symbolizer", []string{"--obj=" + filepath.Join(next, "prog"), "--inlines"}, addrs)
	if got != want {
		t.Errorf("through the fallback path:\n%s\nwith the debug file next to the binary:\n%s", got, want)
	}

	ref := reftool.NeedFor(t, "llvm-symbolizer", "compared with the next-to-the-binary answers only")
	out, stderr, code := reftool.Run(t, ref, args, addrs)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", ref, code, stderr)
	}
	// Where llvm-symbolizer 14 names no function (code the DWARF does not
	// describe), the llvm face names it from the debug file's symbol
	// table, as llvm-symbolizer does on the full binary
	// (docs/differences.md): that is the reference there.
	full, _, _ := reftool.Run(t, ref, []string{"--obj=" + faceFixtureDir + "/c-O2-dw5-pie", "--inlines"}, addrs)
	want = mergeSymbolOnly(out, full)
	if got != want {
		t.Errorf("sanitrace:\n%s\nllvm-symbolizer (on the full binary where it names no function on the stripped one):\n%s", got, want)
	}
}

// mergeSymbolOnly returns the answers of stripped (llvm-symbolizer's
// blocks, one per address) with each that names no function replaced by
// full's answer at the same address.
func mergeSymbolOnly(stripped, full string) string {
	s := strings.SplitAfter(stripped, "\n\n")
	f := strings.SplitAfter(full, "\n\n")
	for i := range s {
		if strings.HasPrefix(s[i], "??\n") && i < len(f) {
			s[i] = f[i]
		}
	}
	return strings.Join(s, "")
}
