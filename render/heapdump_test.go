package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// Heap dumps (libwebsockets ~m# records): goldens of the compact text and
// of the JSON, unsymbolized (the sample dump of ../shared/lws) and with
// frames filled in as the resolver fills them (--obj).
var heapDumpCases = []goldenCase{
	{"lws_heap_dump", func(t *testing.T) []*report.Report {
		return scanLog(t, filepath.Join("..", "testdata", "lws", "heapmap-sample.log"))
	}},
	{"lws_heap_dump.symbolized", symbolizedHeapDump},
}

// symbolizedHeapDump is a two-record dump whose first record is resolved
// the way resolve.Resolver does it with --obj: an inline chain (two frames
// sharing a pc), a frame with module and offset only, and pcs outside the
// binary left bare. The second record stays unsymbolized.
func symbolizedHeapDump(t *testing.T) []*report.Report {
	log := "~b#size: 7520, 0x406651 0x406852 0x406c1b 0x7f3a9be29d90\n~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\n"
	sc := parse.NewScanner(strings.NewReader(log), "device.log")
	r, err := sc.Next()
	if err != nil {
		t.Fatal(err)
	}
	const bin = "/build/app/server"
	fs := r.Stacks[0].Frames
	inl := fs[0]
	inl.Function, inl.File, inl.Line, inl.Column, inl.Inlined = "make_buf", "/build/app/buf.c", 48, 12, true
	outer := fs[0]
	outer.Function, outer.File, outer.Line, outer.Column = "session_alloc", "/build/app/session.c", 65, 18
	main := fs[1]
	main.Function, main.File, main.Line, main.Column = "main", "/build/app/main.c", 89, 3
	noDebug := fs[2]
	noDebug.Module, noDebug.Offset, noDebug.HasOffset = bin, 0x406c1b, true // non-PIE: offset = pc
	filled := []report.Frame{inl, outer, main, noDebug, fs[3]}
	for i := range filled {
		filled[i].Index = i
		if filled[i].Function != "" {
			filled[i].Module, filled[i].Offset, filled[i].HasOffset = bin, filled[i].PC, true
			filled[i].Symbolized = report.SymbolizedSanitrace
		}
	}
	r.Stacks[0].Frames = filled
	return []*report.Report{r}
}

func TestHeapDumpGolden(t *testing.T) {
	for _, c := range heapDumpCases {
		t.Run(c.name, func(t *testing.T) {
			reports := c.reports(t)
			if len(reports) != 1 || !report.IsHeapDump(reports[0]) {
				t.Fatalf("want one heap dump, got %d reports", len(reports))
			}
			plain := renderText(t, reports, Options{})
			golden.Check(t, filepath.Join(goldenDir, c.name+".txt"), plain)
			colored := renderText(t, reports, Options{Color: true})
			stripped := ansiRE.ReplaceAllString(string(colored), "") // the marker too
			if stripped != string(plain) {
				t.Errorf("colored output differs from plain output beyond colors:\n%s", golden.FirstDiff(string(plain), stripped))
			}
			golden.Check(t, filepath.Join(goldenDir, c.name+".color.txt"), colored)
			out := renderJSON(t, reports)
			checkSchema(t, out)
			golden.Check(t, filepath.Join(goldenDir, c.name+".json"), out)
		})
	}
}

// One line per allocation: the compact form holds every record.
func TestHeapDumpTextCompact(t *testing.T) {
	reports := scanLog(t, filepath.Join("..", "testdata", "lws", "heapmap-sample.log"))
	out := string(renderText(t, reports, Options{}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+len(reports[0].Stacks) {
		t.Errorf("%d lines for %d allocations:\n%s", len(lines), len(reports[0].Stacks), out)
	}
	if !strings.HasPrefix(lines[1], "  allocation of 64 bytes: 0x7f3a9c21a2b4 0x7f3a9c21a3f9 ") {
		t.Errorf("first allocation line %q", lines[1])
	}
}

// TestFrameTextIsTheTextWritersFrame: lws decode and the heap map print
// frames with FrameText; each must read as the text writer's frame line,
// so a frame prints the same under decode and lws decode (but for the
// "(sanitrace)" marker, which lws decode leaves out: it symbolizes every
// frame it prints).
func TestFrameTextIsTheTextWritersFrame(t *testing.T) {
	reports := symbolizedHeapDump(t)
	plain := strings.ReplaceAll(string(renderText(t, reports, Options{})), SymbolizedMarker+"\n", "\n")
	for i, f := range reports[0].Stacks[0].Frames {
		line := "    " + FrameText(i, f) + "\n"
		if !strings.Contains(plain, line) {
			t.Errorf("frame %d: %q is not a line of the text writer's output:\n%s", i, line, plain)
		}
	}
}
