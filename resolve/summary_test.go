package resolve

import (
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

func TestSummary(t *testing.T) {
	sym := func(module string, off uint64, fn, file string, line, col int) report.Frame {
		return report.Frame{Module: module, Offset: off, HasOffset: true, Function: fn, File: file, Line: line, Column: col, Symbolized: report.SymbolizedSanitrace}
	}
	tests := []struct {
		name    string
		summary string
		frames  []report.Frame
		want    string
	}{
		{"file line column", "AddressSanitizer: heap-use-after-free (/b/app+0x1360) ",
			[]report.Frame{sym("/b/app", 0x1360, "inner", "/src/a.c", 3, 7), sym("/b/app", 0x1360, "outer", "/src/a.c", 9, 1)},
			"AddressSanitizer: heap-use-after-free /src/a.c:3:7 in inner"},
		{"no column", "AddressSanitizer: stack-overflow (/b/app+0x10) (BuildId: 00ff) ",
			[]report.Frame{sym("/b/app", 0x10, "f", "/src/a.c", 15, 0)},
			"AddressSanitizer: stack-overflow /src/a.c:15 in f"},
		{"function only keeps the module", "AddressSanitizer: bad-free (/lib/rt.so+0xd3932) (BuildId: 2c54) ",
			[]report.Frame{sym("/lib/rt.so", 0xd3932, "__interceptor_free", "", 0, 0)},
			"AddressSanitizer: bad-free (/lib/rt.so+0xd3932) (BuildId: 2c54) in __interceptor_free"},
		{"tsan base-name frame", "ThreadSanitizer: data race (/b/race+0x1292) ",
			[]report.Frame{sym("race", 0x1292, "record", "/src/r.c", 9, 53)},
			"ThreadSanitizer: data race /src/r.c:9:53 in record"},
		{"frame not symbolized by us", "AddressSanitizer: SEGV (/b/app+0x10) ",
			[]report.Frame{{Module: "/b/app", Offset: 0x10, HasOffset: true, Symbolized: report.SymbolizedNone}},
			"AddressSanitizer: SEGV (/b/app+0x10) "},
		{"already symbolized summary", "AddressSanitizer: SEGV /src/a.c:1:2 in f",
			[]report.Frame{sym("/b/app", 0x10, "g", "/src/a.c", 1, 1)},
			"AddressSanitizer: SEGV /src/a.c:1:2 in f"},
		{"leak summary", "AddressSanitizer: 346 byte(s) leaked in 10 allocation(s).", nil,
			"AddressSanitizer: 346 byte(s) leaked in 10 allocation(s)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &report.Report{Summary: report.Summary{Text: tt.summary}, Stacks: []report.Stack{{Frames: tt.frames}}}
			parse.Fill(rep)
			summary(rep)
			if rep.Summary.Text != tt.want {
				t.Errorf("summary = %q, want %q", rep.Summary.Text, tt.want)
			}
			// The typed parts agree with the completed line (which
			// names no module once it names a file).
			want := &report.Report{Summary: report.Summary{Text: tt.want}}
			parse.Fill(want)
			got := rep.Summary
			if want.Summary.File != "" {
				got.Module, got.Offset, got.HasOffset, got.BuildID = "", 0, false, ""
			}
			if got != want.Summary {
				t.Errorf("typed summary %+v, the line says %+v", rep.Summary, want.Summary)
			}
		})
	}
}

// FuzzSummary: any SUMMARY text and frame must leave a summary without a
// panic, and a summary that names no module offset is untouched.
func FuzzSummary(f *testing.F) {
	f.Add("AddressSanitizer: heap-use-after-free (/b/app+0x1360) ", "/b/app", uint64(0x1360), "main", "/src/a.c", 3)
	f.Add("ThreadSanitizer: data race (/b/race+0x1292) (BuildId: 00) ", "race", uint64(0x1292), "record", "", 0)
	f.Fuzz(func(t *testing.T, text, module string, off uint64, fn, file string, line int) {
		rep := &report.Report{Summary: report.Summary{Text: text}, Stacks: []report.Stack{{Frames: []report.Frame{{
			Module: module, Offset: off, HasOffset: true, Function: fn, File: file, Line: line, Symbolized: report.SymbolizedSanitrace,
		}}}}}
		parse.Fill(rep)
		named := rep.Summary.HasOffset
		summary(rep)
		if !named && rep.Summary.Text != text {
			t.Errorf("summary %q rewritten to %q", text, rep.Summary.Text)
		}
	})
}
