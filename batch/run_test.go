package batch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sanitrace/sanitrace/batch/artifact"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/corpustest"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/report"
)

// fixtureDir is the committed batch fixture tree (testdata/batch).
const fixtureDir = "../testdata/batch"

// tarGz packs the cases under root (logs and binaries) as a .tar.gz.
func tarGz(t *testing.T, root string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		tw.WriteHeader(&tar.Header{Name: "ci/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tw.Close()
	gz.Close()
	p := filepath.Join(t.TempDir(), "ci.tar.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEachModuleOpenedOnce: with many workers, every module of the run
// (the shipped binaries, the system libraries) is opened exactly once,
// and every unsymbolized report is symbolized.
func TestEachModuleOpenedOnce(t *testing.T) {
	roots := map[string]string{"fixtures": fixtureDir}
	if dir, err := sharedtest.Find("corpus", "cases"); err == nil {
		roots["corpus"] = dir
	}
	for name, root := range roots {
		forms := []string{"dir", "tgz"}
		if name == "corpus" {
			forms = forms[:1] // the CLI tests read the corpus from archives; this stays quick under -race
		}
		for _, form := range forms {
			t.Run(name+"-"+form, func(t *testing.T) {
				in := root
				if form == "tgz" {
					in = tarGz(t, root)
				}
				var mu sync.Mutex
				opens := make(map[string]int)
				doc, err := Run([]string{in}, Options{Jobs: 4, Symbolize: true, opened: func(key string) {
					mu.Lock()
					opens[key]++
					mu.Unlock()
				}})
				if err != nil {
					t.Fatal(err)
				}
				shipped := 0
				for key, n := range opens {
					if n != 1 {
						t.Errorf("%s opened %d times", key, n)
					}
					if strings.HasPrefix(key, in) {
						shipped++
					}
				}
				if shipped == 0 || len(doc.Reports) == 0 {
					t.Fatalf("%d shipped modules opened, %d reports", shipped, len(doc.Reports))
				}
				for _, r := range doc.Reports {
					if !strings.HasSuffix(r.Source.Name(), "unsymbolized.log") || len(r.Stacks) == 0 {
						continue
					}
					if f := r.Stacks[0].Frames[0]; f.Symbolized != "sanitrace" && (f.Module == nil || strings.HasPrefix(*f.Module, "/build/")) {
						t.Errorf("%s: first frame not symbolized: %+v", r.Source.Name(), f)
					}
				}
				t.Logf("%d modules opened (%d shipped) for %d reports", len(opens), shipped, len(doc.Reports))
			})
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{{"1/1", true}, {"3/4", true}, {"0/4", false}, {"5/4", false}, {"1/0", false}, {"x/2", false}, {"2", false}} {
		if _, err := ParseShard(tc.in); (err == nil) != tc.ok {
			t.Errorf("ParseShard(%q): %v", tc.in, err)
		}
	}
	// Every identity lands in exactly one shard, the same on every run.
	ids := []string{"a.log", "artifacts/x/run.log", "ci.tar.gz!/logs/1.log", "-"}
	for _, id := range ids {
		n := 0
		for i := 1; i <= 5; i++ {
			if (Shard{I: i, N: 5}).takes(id) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s is taken by %d of 5 shards", id, n)
		}
	}
	// The identity does not depend on where the inputs lie.
	if a, b := identity("/home/ci/artifacts", srcOf("/home/ci/artifacts/x/run.log")), identity("artifacts/", srcOf("artifacts/x/run.log")); a != b {
		t.Errorf("identity %q vs %q", a, b)
	}
}

func srcOf(p string) artifact.Source { return artifact.Source{Path: p} }

// TestShippedDebugFile: an artifact that ships a stripped binary and its
// separate debug file symbolizes with the debug file's DWARF (file and
// line), though the log names the stripped binary.
func TestShippedDebugFile(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	add := func(name string, data []byte) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
	}
	for _, f := range []string{"prog", "prog.debug"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", "debuglink", f))
		if err != nil {
			t.Fatal(err)
		}
		add("out/bin/"+f, data)
	}
	add("out/logs/run.log", []byte("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x5555555551f0 bp 0x7ffd0 sp 0x7ffc8\n"+
		"READ of size 4 at 0x602000000010 thread T0\n"+
		"    #0 0x5555555551f0  (/build/x/prog+0x11f0)\n"+
		"SUMMARY: AddressSanitizer: heap-use-after-free (/build/x/prog+0x11f0)\n"))
	tw.Close()
	gz.Close()
	in := filepath.Join(t.TempDir(), "ci.tar.gz")
	os.WriteFile(in, buf.Bytes(), 0o644)
	doc, err := Run([]string{in}, Options{Jobs: 1, Symbolize: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Reports) != 1 || len(doc.Reports[0].Stacks) == 0 {
		t.Fatalf("reports: %+v", doc.Reports)
	}
	f := doc.Reports[0].Stacks[0].Frames[0]
	if f.Function == nil || *f.Function != "accumulate.constprop.0" || f.File == nil || *f.File != "/build/sanitrace/src/prog.c" || f.Line != 17 {
		t.Errorf("frame %s %s:%d, want accumulate.constprop.0 /build/sanitrace/src/prog.c:17 (llvm-symbolizer on the unstripped binary)", corpustest.Deref(f.Function), corpustest.Deref(f.File), f.Line)
	}
}

// TestPanicAtTheWorkersEdge: a panic while one log is decoded costs that
// log's remaining reports, not the run: the log gets a one-line error in
// the document naming the panic, the reports read before it are kept and
// every other log is decoded.
func TestPanicAtTheWorkersEdge(t *testing.T) {
	dir := t.TempDir()
	var both []byte
	for i, c := range []string{"uaf_gcc_O0", "overflow_clang_O0", "uaf_clang_O2"} {
		data, err := os.ReadFile(filepath.Join(fixtureDir, c, "symbolized.log"))
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			both = append(both, data...)
		}
		if err := os.WriteFile(filepath.Join(dir, c+".log"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "both.log"), both, 0o644); err != nil {
		t.Fatal(err)
	}
	seen := 0 // both.log's reports; one worker reads a log
	doc, err := Run([]string{dir}, Options{Jobs: 2, decoded: func(r *report.Report) {
		if filepath.Base(r.Input.Name) == "both.log" {
			if seen++; seen == 2 {
				panic("boom\nsecond line")
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	perLog := make(map[string]int)
	for _, r := range doc.Reports {
		perLog[filepath.Base(r.Source.Path)]++
	}
	want := map[string]int{"both.log": 1, "uaf_gcc_O0.log": 1, "overflow_clang_O0.log": 1, "uaf_clang_O2.log": 1}
	for log, n := range want {
		if perLog[log] != n {
			t.Errorf("%s: %d reports, want %d", log, perLog[log], n)
		}
	}
	if len(doc.Errors) != 1 {
		t.Fatalf("errors %+v, want one", doc.Errors)
	}
	e := doc.Errors[0]
	if filepath.Base(e.Source.Path) != "both.log" || e.Error != "internal error while decoding (please report it): boom second line" {
		t.Errorf("error %s: %q, want both.log's internal error on one line", e.Source.Name(), e.Error)
	}
}

// TestShippedDamagedBinary: a shipped binary with a header debug/elf
// refuses (its program header table runs past the end of the file) is
// read as every module file is, its damage repaired (debuginfo/repair.go),
// and symbolizes its log, on disk and inside an archive; the damage is
// warned about once.
func TestShippedDamagedBinary(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(data[0x38:], 0xffff) // e_phnum: the table runs past the end
	if _, err := elf.NewFile(bytes.NewReader(data)); err == nil {
		t.Fatal("debug/elf reads the damaged binary: the test damages nothing")
	}
	log := []byte("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x5555555550a0 bp 0x7ffd0 sp 0x7ffc8\n" +
		"READ of size 4 at 0x602000000010 thread T0\n" +
		"    #0 0x5555555550a0  (/build/x/prog+0x10a0)\n" +
		"SUMMARY: AddressSanitizer: heap-use-after-free (/build/x/prog+0x10a0)\n")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "bin", "prog"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logs", "run.log"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{dir, tarGz(t, dir)} {
		var warnings []string
		doc, err := Run([]string{in}, Options{Jobs: 1, Symbolize: true, Finder: &debuginfo.Finder{DebugDirs: []string{}},
			Warn: func(m string) { warnings = append(warnings, m) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Reports) != 1 || len(doc.Reports[0].Stacks) == 0 {
			t.Fatalf("%s: reports %+v", in, doc.Reports)
		}
		f := doc.Reports[0].Stacks[0].Frames[0]
		if f.Function == nil || *f.Function != "main" || f.File == nil || *f.File != "/build/sanitrace/src/prog.c" || f.Line != 35 {
			t.Errorf("%s: frame %s %s:%d, want main /build/sanitrace/src/prog.c:35 (llvm-symbolizer on the sound binary)", in, corpustest.Deref(f.Function), corpustest.Deref(f.File), f.Line)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "program headers ignored") {
			t.Errorf("%s: warnings %q, want one about the program headers", in, warnings)
		}
	}
}
