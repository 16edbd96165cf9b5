package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// demoBin is an ELF fixture with a build-id.
const demoBin = "../testdata/demo/session"

// fakeObject answers from a table and records every batch it gets.
type fakeObject struct {
	globals map[uint64]symbolize.DataSymbol
	answers map[uint64][]symbolize.Frame
	batches [][]uint64
	closed  bool
}

func (o *fakeObject) SymbolizeMany(addrs []uint64, _ symbolize.LookupOptions) [][]symbolize.Frame {
	o.batches = append(o.batches, append([]uint64(nil), addrs...))
	out := make([][]symbolize.Frame, len(addrs))
	for i, a := range addrs {
		if c, ok := o.answers[a]; ok {
			out[i] = c
		} else {
			out[i] = []symbolize.Frame{{}}
		}
	}
	return out
}

func (o *fakeObject) DataDecl(uint64) (string, uint64, bool) { return "", 0, false }

func (o *fakeObject) Data(addr uint64) (symbolize.DataSymbol, bool) {
	g, ok := o.globals[addr]
	return g, ok
}

func (o *fakeObject) Close() error { o.closed = true; return nil }

func (o *fakeObject) Symbolize(addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error) {
	return o.SymbolizeMany([]uint64{addr}, opts)[0], nil
}
func (o *fakeObject) Frame(uint64) ([]symbolize.Local, error) { return nil, nil }
func (o *fakeObject) FuncStart(uint64) (uint64, bool)         { return 0, false }
func (o *fakeObject) CFI() *cfi.Table                         { return nil }
func (o *fakeObject) CodeAt(uint64, int) []byte               { return nil }
func (o *fakeObject) Damage() error                           { return nil }
func (o *fakeObject) SupplementaryError() error               { return nil }
func (o *fakeObject) SplitDWARFErrors() []error               { return nil }
func (o *fakeObject) SymbolAddresses(string, uint64) []uint64 { return nil }
func (o *fakeObject) ExpectManyLookups()                      {}
func (o *fakeObject) ReleaseResident()                        {}
func (o *fakeObject) Footprint() int64                        { return 0 }

func frame(i int, module string, off uint64) report.Frame {
	return report.Frame{Index: i, PC: 0x5500_0000_0000 + off, HasPC: true, Module: module, Offset: off, HasOffset: true,
		Raw: fmt.Sprintf("#%d (%s+%#x)", i, module, off)}
}

func TestReport(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "session"))
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{
		0x1360: {{Function: "inner", File: "/src/a.c", Line: 3, Column: 7, Inlined: true},
			{Function: "outer", File: "/src/a.c", Line: 10, Column: 2}},
		0x13cd: {{Function: "main", File: "/src/a.c", Line: 20, Column: 1}},
		0x1110: {{Function: "_start"}}, // symbol table only
		0x1fff: {{Function: "adjusted", File: "/src/b.c", Line: 5}},
	}}
	opens := 0
	var warnings []string
	cache := testCache(t, func(p string) (modcache.Object, error) {
		opens++
		return obj, nil
	})
	r := New(Options{
		Finder: &debuginfo.Finder{BinaryDirs: []string{root}},
		Cache:  cache,
		Warn:   func(msg string) { warnings = append(warnings, msg) },
	})

	rep := &report.Report{Input: report.InputRange{Name: "-"}, Stacks: []report.Stack{{
		Title: "READ of size 4",
		Frames: []report.Frame{
			frame(0, "/build/demo/session", 0x1360),
			frame(1, "/build/demo/session", 0x13cd),
			{Index: 2, Function: "__libc_start_main", File: "libc.c", Line: 1, Module: "/missing/libc.so.6", Offset: 0x27249, HasOffset: true, Symbolized: report.SymbolizedReport},
			frame(3, "/missing/libc.so.6", 0x27304),
			frame(4, "/build/demo/session", 0x1110),
			frame(5, "/build/demo/session", 0x9999), // unknown to the symbolizer
			frame(6, "[stack]", 0x10),
		},
	}, {
		Title: "raw return addresses",
		Frames: []report.Frame{
			func() report.Frame { f := frame(0, "/build/demo/session", 0x2000); f.Adjust = 1; return f }(),
		},
	}}}
	r.Report(rep)

	type row struct {
		Index      int
		Function   string
		File       string
		Line, Col  int
		Offset     uint64
		Inlined    bool
		Symbolized string
	}
	var got [][]row
	for _, s := range rep.Stacks {
		var rows []row
		for _, f := range s.Frames {
			rows = append(rows, row{f.Index, f.Function, f.File, f.Line, f.Column, f.Offset, f.Inlined, f.Symbolized})
		}
		got = append(got, rows)
	}
	want := [][]row{{
		// The chain keeps its frame's number: the log's are never changed.
		{0, "inner", "/src/a.c", 3, 7, 0x1360, true, "sanitrace"},
		{0, "outer", "/src/a.c", 10, 2, 0x1360, false, "sanitrace"},
		{1, "main", "/src/a.c", 20, 1, 0x13cd, false, "sanitrace"},
		{2, "__libc_start_main", "libc.c", 1, 0, 0x27249, false, "report"},
		{3, "", "", 0, 0, 0x27304, false, "none"},
		{4, "_start", "", 0, 0, 0x1110, false, "sanitrace"},
		{5, "", "", 0, 0, 0x9999, false, "none"},
		{6, "", "", 0, 0, 0x10, false, "none"},
	}, {
		{0, "adjusted", "/src/b.c", 5, 0, 0x2000, false, "sanitrace"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("frames:\n got %+v\nwant %+v", got, want)
	}
	if rep.Stacks[0].Frames[0].PC != rep.Stacks[0].Frames[1].PC {
		t.Error("an inline chain must share its pc")
	}
	// One batch per module per report, with the adjusted address.
	if want := [][]uint64{{0x1360, 0x13cd, 0x1110, 0x9999, 0x1fff}}; !reflect.DeepEqual(obj.batches, want) {
		t.Errorf("batches = %#x, want %#x", obj.batches, want)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// stdin ("-"): the current directory stands for the log's.
	if want := []string{"/missing/libc.so.6: not found (searched " + filepath.Join(root, "libc.so.6") + ", /missing/libc.so.6, " + filepath.Join(wd, "libc.so.6") + ")"}; !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings = %q, want %q", warnings, want)
	}

	// A second report: the module is not opened again, and the missing one
	// is not warned about again.
	rep2 := &report.Report{Input: report.InputRange{Name: "-"}, Stacks: []report.Stack{{Frames: []report.Frame{
		frame(0, "/build/demo/session", 0x13cd), frame(1, "/missing/libc.so.6", 0x1),
	}}}}
	r.Report(rep2)
	if opens != 1 {
		t.Errorf("module opened %d times, want 1", opens)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings = %q, want the first one only", warnings)
	}
	// A shared cache keeps its modules past a Resolver; its own closes them.
	if err := r.Close(); err != nil || obj.closed {
		t.Errorf("Close() = %v, closed = %v", err, obj.closed)
	}
	if err := cache.Close(); err != nil || !obj.closed {
		t.Errorf("cache Close() = %v, closed = %v", err, obj.closed)
	}
}

// TestReportThreadSanitizerBaseNames: TSan prints base names; the SUMMARY
// line of the same report has the absolute path, which the frames take.
func TestReportThreadSanitizerBaseNames(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "cases/x/session"))
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{0x1292: {{Function: "record", File: "/src/r.c", Line: 9, Column: 53}}}}
	r := New(Options{
		Finder: &debuginfo.Finder{PrefixMaps: []debuginfo.PrefixMap{{From: "/build/ci", To: root}}},
		Cache:  testCache(t, func(string) (modcache.Object, error) { return obj, nil }),
	})
	defer r.Close()
	f := report.Frame{Index: 0, Module: "session", Offset: 0x1292, HasOffset: true}
	rep := &report.Report{
		Input:   report.InputRange{Name: "log"},
		Stacks:  []report.Stack{{Frames: []report.Frame{f}}},
		Summary: report.Summary{Text: "ThreadSanitizer: data race (/build/ci/cases/x/session+0x1292) "},
	}
	parse.Fill(rep)
	r.Report(rep)
	got := rep.Stacks[0].Frames[0]
	if got.Function != "record" || got.Module != "/build/ci/cases/x/session" || got.Symbolized != report.SymbolizedSanitrace {
		t.Errorf("frame = %+v", got)
	}
	// A later report of the same log without the SUMMARY still resolves it.
	rep2 := &report.Report{Input: report.InputRange{Name: "log"}, Stacks: []report.Stack{{Frames: []report.Frame{f}}}}
	r.Report(rep2)
	if got := rep2.Stacks[0].Frames[0]; got.Function != "record" {
		t.Errorf("second report frame = %+v", got)
	}
}

func TestReportOpenError(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "session"))
	var warnings []string
	r := New(Options{
		Finder: &debuginfo.Finder{BinaryDirs: []string{root}},
		Cache:  testCache(t, func(p string) (modcache.Object, error) { return nil, fmt.Errorf("open %s: no debug info", p) }),
		Warn:   func(m string) { warnings = append(warnings, m) },
	})
	defer r.Close()
	rep := &report.Report{Stacks: []report.Stack{{Frames: []report.Frame{frame(0, "/b/session", 1), frame(1, "/b/session", 2)}}}}
	r.Report(rep)
	want := []string{"/b/session: open " + filepath.Join(root, "session") + ": no debug info"}
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings = %q, want %q", warnings, want)
	}
	for _, f := range rep.Stacks[0].Frames {
		if f.Symbolized != report.SymbolizedNone {
			t.Errorf("frame %d symbolized = %q", f.Index, f.Symbolized)
		}
	}
}

// testCache is a module cache over open, closed when the test ends.
func testCache(t *testing.T, open modcache.Opener) *modcache.Cache {
	c := modcache.New(modcache.Options{Open: open})
	t.Cleanup(func() { c.Close() })
	return c
}
