package cfi

import (
	"bytes"
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files from readelf")

// goldenFixtures are the committed binaries whose dumps are kept as
// goldens recorded from binutils 2.40 readelf (go-trimpath's 1 MB dump is
// left to the live differential).
var goldenFixtures = []string{
	"libfix.so", "c-O0-dw4-nopie", "c-O2-dw5-pie", "c-O2-dw5-clang", "c-O2-zstd",
	"cxx-O2-dw5", "cxx-O2-clang-dw4", "rust-legacy-O", "debuglink/prog.debug",
	"cfi/every", "cfi/ops", "cfi/c-debugframe", "cfi/c-debugframe-O0", "cfi/clang-debugframe",
	"cfi/c-debugframe-zlib", "cfi/c-debugframe-zstd", "cfi/c-debugframe-zdebug",
	"cfi/c-debugframe.debug", "cfi/c-debugframe-stripped", "cfi/i386-eh", "cfi/i386-debugframe",
}

// modes are the two readelf dumps: the flag readelf takes, the golden's
// suffix and whether the dump is interpreted.
var modes = []struct {
	debugDump string
	interp    bool
}{
	{"frames", false},
	{"frames-interp", true},
}

func dumpFile(t testing.TB, path string, interp bool) (string, []error) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	var warns []error
	if err := Dump(&out, f, DumpOptions{Interp: interp, Warn: func(err error) { warns = append(warns, err) }}); err != nil {
		t.Fatal(err)
	}
	return out.String(), warns
}

// readelf runs binutils readelf's frames dump of path.
func readelf(t testing.TB, path, debugDump string) (string, error) {
	t.Helper()
	cmd := exec.Command("readelf", "-wN", "--debug-dump="+debugDump, "-W", path)
	var out bytes.Buffer
	cmd.Stdout = &out
	// readelf exits 1 over unrelated complaints (a debug file's missing
	// program interpreter) after printing the frames in full.
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return "", fmt.Errorf("readelf %s: %v", path, err)
		}
	}
	return out.String(), nil
}

func goldenPath(fixture, debugDump string) string {
	return filepath.Join("..", "testdata", "golden", "cfi", strings.ReplaceAll(fixture, "/", "_")+"."+debugDump+".txt")
}

// TestGolden compares the dumps of the committed fixtures with readelf's,
// recorded in testdata/golden/cfi (go test ./cfi -update re-records them
// from the installed readelf, which must be binutils 2.40).
func TestGolden(t *testing.T) {
	for _, fx := range goldenFixtures {
		for _, m := range modes {
			t.Run(fx+"/"+m.debugDump, func(t *testing.T) {
				path := filepath.Join("..", "testdata", "elf", fx)
				gp := goldenPath(fx, m.debugDump)
				if *update {
					want, err := readelf(t, path, m.debugDump)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(gp, []byte(want), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(gp)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := dumpFile(t, path, m.interp)
				if d := firstDiff(got, string(want)); d != "" {
					t.Errorf("%s differs from readelf's %s: %s", fx, m.debugDump, d)
				}
			})
		}
	}
}

// TestLiveReadelf compares with the installed readelf every ELF file under
// testdata/elf, goldens or not (go-trimpath's compressed Go .debug_frame,
// split DWARF files without CFI, the stripped and debug-only files).
func TestLiveReadelf(t *testing.T) {
	if _, err := exec.LookPath("readelf"); err != nil {
		t.Skip("readelf not installed: the live differential needs binutils 2.40")
	}
	if v, _ := exec.Command("readelf", "--version").Output(); !bytes.Contains(v, []byte(" 2.40")) {
		t.Skipf("readelf is not binutils 2.40: %s", bytes.SplitN(v, []byte("\n"), 2)[0])
	}
	var files []string
	filepath.WalkDir(filepath.Join("..", "testdata", "elf"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && isELF(p) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 30 {
		t.Fatalf("only %d ELF files under testdata/elf", len(files))
	}
	for _, p := range files {
		compareWithReadelf(t, p)
	}
}

func isELF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = f.Read(magic[:])
	return err == nil && string(magic[:]) == elf.ELFMAG
}

func compareWithReadelf(t *testing.T, path string) {
	t.Helper()
	for _, m := range modes {
		want, err := readelf(t, path, m.debugDump)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		got, _ := dumpFile(t, path, m.interp)
		if d := firstDiff(got, want); d != "" {
			t.Errorf("%s: %s differs from readelf: %s", path, m.debugDump, d)
		}
	}
}

// firstDiff describes the first line where got and want differ, or "".
func firstDiff(got, want string) string {
	if got == want {
		return ""
	}
	g := strings.SplitAfter(got, "\n")
	w := strings.SplitAfter(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, gl, wl)
		}
	}
	return "same lines, different bytes"
}
