package resolve

import (
	"testing"

	"github.com/sanitrace/sanitrace/parse"
)

func TestSummary(t *testing.T) {
	sym := func(module string, off uint64, fn, file string, line, col int) parse.Frame {
		return parse.Frame{Module: module, Offset: off, HasOffset: true, Function: fn, File: file, Line: line, Column: col, Symbolized: parse.SymbolizedSanitrace}
	}
	tests := []struct {
		name    string
		summary string
		frames  []parse.Frame
		want    string
	}{
		{"file line column", "AddressSanitizer: heap-use-after-free (/b/app+0x1360) ",
			[]parse.Frame{sym("/b/app", 0x1360, "inner", "/src/a.c", 3, 7), sym("/b/app", 0x1360, "outer", "/src/a.c", 9, 1)},
			"AddressSanitizer: heap-use-after-free /src/a.c:3:7 in inner"},
		{"no column", "AddressSanitizer: stack-overflow (/b/app+0x10) (BuildId: 00ff) ",
			[]parse.Frame{sym("/b/app", 0x10, "f", "/src/a.c", 15, 0)},
			"AddressSanitizer: stack-overflow /src/a.c:15 in f"},
		{"function only keeps the module", "AddressSanitizer: bad-free (/lib/rt.so+0xd3932) (BuildId: 2c54) ",
			[]parse.Frame{sym("/lib/rt.so", 0xd3932, "__interceptor_free", "", 0, 0)},
			"AddressSanitizer: bad-free (/lib/rt.so+0xd3932) (BuildId: 2c54) in __interceptor_free"},
		{"tsan base-name frame", "ThreadSanitizer: data race (/b/race+0x1292) ",
			[]parse.Frame{sym("race", 0x1292, "record", "/src/r.c", 9, 53)},
			"ThreadSanitizer: data race /src/r.c:9:53 in record"},
		{"frame not symbolized by us", "AddressSanitizer: SEGV (/b/app+0x10) ",
			[]parse.Frame{{Module: "/b/app", Offset: 0x10, HasOffset: true, Symbolized: parse.SymbolizedNone}},
			"AddressSanitizer: SEGV (/b/app+0x10) "},
		{"already symbolized summary", "AddressSanitizer: SEGV /src/a.c:1:2 in f",
			[]parse.Frame{sym("/b/app", 0x10, "g", "/src/a.c", 1, 1)},
			"AddressSanitizer: SEGV /src/a.c:1:2 in f"},
		{"leak summary", "AddressSanitizer: 346 byte(s) leaked in 10 allocation(s).", nil,
			"AddressSanitizer: 346 byte(s) leaked in 10 allocation(s)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &parse.Report{Summary: tt.summary, Stacks: []parse.Stack{{Frames: tt.frames}}}
			summary(rep)
			if rep.Summary != tt.want {
				t.Errorf("summary = %q, want %q", rep.Summary, tt.want)
			}
		})
	}
}

// FuzzSummary: any SUMMARY text and frame must leave a summary without a
// panic, and a text that does not end in a module location is untouched.
func FuzzSummary(f *testing.F) {
	f.Add("AddressSanitizer: heap-use-after-free (/b/app+0x1360) ", "/b/app", uint64(0x1360), "main", "/src/a.c", 3)
	f.Add("ThreadSanitizer: data race (/b/race+0x1292) (BuildId: 00) ", "race", uint64(0x1292), "record", "", 0)
	f.Fuzz(func(t *testing.T, text, module string, off uint64, fn, file string, line int) {
		rep := &parse.Report{Summary: text, Stacks: []parse.Stack{{Frames: []parse.Frame{{
			Module: module, Offset: off, HasOffset: true, Function: fn, File: file, Line: line, Symbolized: parse.SymbolizedSanitrace,
		}}}}}
		summary(rep)
		if summaryLocRE.FindStringSubmatch(text) == nil && rep.Summary != text {
			t.Errorf("summary %q rewritten to %q", text, rep.Summary)
		}
	})
}
