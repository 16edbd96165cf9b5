package cfi

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// goldenFixtures are the committed binaries whose dumps are kept as
// goldens recorded from binutils 2.40 readelf (go-trimpath's 1 MB dump is
// left to the live differential).
var goldenFixtures = []string{
	"libfix.so", "c-O0-dw4-nopie", "c-O2-dw5-pie", "c-O2-dw5-clang", "c-O2-zstd",
	"cxx-O2-dw5", "cxx-O2-clang-dw4", "rust-legacy-O", "debuglink/prog.debug",
	"cfi/every", "cfi/ops", "cfi/augment.o", "cfi/c-debugframe", "cfi/c-debugframe-O0", "cfi/clang-debugframe",
	"cfi/c-debugframe-zlib", "cfi/c-debugframe-zstd", "cfi/c-debugframe-zdebug",
	"cfi/c-debugframe.debug", "cfi/c-debugframe-stripped", "cfi/i386-eh", "cfi/i386-debugframe", "cfi/prog.o", "cfi/i386.o",
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
	f := fixture.OpenELF(t, path)
	var out bytes.Buffer
	var warns []error
	if err := Dump(&out, f, DumpOptions{Interp: interp, Warn: func(err error) { warns = append(warns, err) }}); err != nil {
		t.Fatal(err)
	}
	return out.String(), warns
}

// readelf runs binutils readelf's frames dump of path. readelf exits 1
// over unrelated complaints (a debug file's missing program interpreter)
// after printing the frames in full, so its exit code is not looked at.
func readelf(t testing.TB, path, debugDump string) string {
	t.Helper()
	out, _, _ := reftool.Run(t, "readelf", []string{"-wN", "--debug-dump=" + debugDump, "-W", path}, "")
	return out
}

func goldenPath(fixture, debugDump string) string {
	return filepath.Join(golden.Dir("cfi"), strings.ReplaceAll(fixture, "/", "_")+"."+debugDump+".txt")
}

// TestGolden compares the dumps of the committed fixtures with readelf's,
// recorded in testdata/golden/cfi (go test ./cfi -update re-records them
// from the installed readelf, which must be binutils 2.40).
func TestGolden(t *testing.T) {
	for _, fx := range goldenFixtures {
		for _, m := range modes {
			t.Run(fx+"/"+m.debugDump, func(t *testing.T) {
				path := filepath.Join("..", "testdata", "elf", fx)
				got, _ := dumpFile(t, path, m.interp)
				golden.CheckWant(t, goldenPath(fx, m.debugDump), got, func() string {
					return readelf(t, path, m.debugDump)
				})
			})
		}
	}
}

// TestLiveReadelf compares with the installed readelf every ELF file under
// testdata/elf, goldens or not (go-trimpath's compressed Go .debug_frame,
// split DWARF files without CFI, the stripped and debug-only files).
func TestLiveReadelf(t *testing.T) {
	needReadelf240(t)
	var files []string
	filepath.WalkDir(filepath.Join("..", "testdata", "elf"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && debuginfo.IsELF(p) {
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

func compareWithReadelf(t *testing.T, path string) {
	t.Helper()
	for _, m := range modes {
		want := readelf(t, path, m.debugDump)
		got, _ := dumpFile(t, path, m.interp)
		if d := golden.FirstDiff(want, got); d != "" {
			t.Errorf("%s: %s differs from readelf: %s", path, m.debugDump, d)
		}
	}
}

// checkRowsAgainstDump: RowAt at each row's location gives the row the
// interpreted dump (itself identical to readelf's) prints, for every FDE
// of f; the last row printed for a location is the one in force there.
func checkRowsAgainstDump(t *testing.T, path string) int {
	t.Helper()
	f := fixture.OpenELF(t, path)
	tab, err := Load(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := namesFor(f.Machine)
	byOff := map[string]*FDE{}
	for _, c := range tab.fdes {
		byOff[c.sec.name+fmt.Sprintf("0x%x", c.Offset)] = c
	}
	checked := 0
	for _, sec := range DumpJSON(f, path, nil).Sections {
		for _, e := range sec.Entries {
			if e.Kind != "FDE" || len(e.Rows) == 0 {
				continue
			}
			last := map[string]jsonRow{}
			for _, r := range e.Rows {
				last[r.Loc] = r
			}
			for locStr, want := range last {
				var loc, begin, end uint64
				fmt.Sscanf(locStr, "0x%x", &loc)
				fmt.Sscanf(e.PCBegin, "0x%x", &begin)
				fmt.Sscanf(e.PCEnd, "0x%x", &end)
				if loc < begin || loc >= end {
					continue
				}
				fde := byOff[sec.Name+e.Offset]
				if fde == nil {
					t.Errorf("%s: FDE %s of %s not indexed", path, e.Offset, sec.Name)
					break
				}
				row, err := fde.RowAt(loc)
				if err != nil {
					t.Errorf("%s: FDE %s: RowAt(%#x): %v", path, e.Offset, loc, err)
					continue
				}
				if got := cfaString(row.CFA, names); got != want.CFA {
					t.Errorf("%s: FDE %s at %#x: CFA %s, dump %s", path, e.Offset, loc, got, want.CFA)
				}
				for n := uint64(0); n < uint64(len(row.Regs)); n++ {
					name := names.name(n)
					if n == row.RA {
						name = "ra"
					}
					w, ok := want.Regs[name]
					if !ok {
						continue
					}
					if got := ruleString(row.Regs[n], names); got != w {
						t.Errorf("%s: FDE %s at %#x: %s = %s, dump %s", path, e.Offset, loc, name, got, w)
					}
				}
				checked++
			}
		}
	}
	return checked
}

// TestRowAtAgreesWithDump runs checkRowsAgainstDump over the fixtures
// whose dumps are goldens.
func TestRowAtAgreesWithDump(t *testing.T) {
	n := 0
	for _, fx := range goldenFixtures {
		if fx == "cfi/every" {
			continue // its bad registers and mismatched restore_state are dump-only
		}
		n += checkRowsAgainstDump(t, filepath.Join("..", "testdata", "elf", fx))
	}
	if n < 100 {
		t.Fatalf("only %d rows checked", n)
	}
}

// needReadelf240 skips the test unless binutils 2.40's readelf is
// installed: the dumps match that version's.
func needReadelf240(t testing.TB) {
	t.Helper()
	v, _, _ := reftool.Run(t, reftool.Need(t, "readelf"), []string{"--version"}, "")
	if !strings.Contains(v, " 2.40") {
		t.Skipf("readelf is not binutils 2.40: %s", strings.SplitN(v, "\n", 2)[0])
	}
}
