package render

import (
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/report"
)

// TestLookSymbolized: frames sanitrace symbolized, in each producer's
// look (docs/guide.md, "Each producer's look"): the layouts the CLI tests
// do not reach with a real log (a Go frame without its file, a kernel RIP
// line, an inline chain behind a backtrace_symbols line, an unreliable
// kernel frame).
func TestLookSymbolized(t *testing.T) {
	sym := func(f report.Frame) report.Frame {
		f.Symbolized = report.SymbolizedSanitrace
		return f
	}
	tests := []struct {
		name string
		r    *report.Report
		want []string // lines the text must hold, in this order
	}{
		{"go race", &report.Report{Tool: "GoRaceDetector", Headline: "WARNING: DATA RACE", Stacks: []report.Stack{{
			Title: "Write at 0x00c000018128 by goroutine 8:", Role: "access",
			Frames: []report.Frame{
				sym(report.Frame{Raw: "main.inner()\n/src/a.go:3 +0x8f", Function: "main.inner", File: "/src/a.go", Line: 3, Inlined: true, HasPC: true, PC: 0x4897b4}),
				sym(report.Frame{Raw: "main.outer()\n/src/a.go:9 +0x8f", Function: "main.outer", File: "/src/a.go", Line: 9, HasPC: true, PC: 0x4897b4}),
				{Raw: "main.main()\n/src/a.go:20 +0x11c", Function: "main.main", File: "/src/a.go", Line: 20, Symbolized: report.SymbolizedReport},
			}}}},
			[]string{"==================", "WARNING: DATA RACE", "Write at 0x00c000018128 by goroutine 8:",
				"  main.inner(...)", "      /src/a.go:3 (sanitrace)",
				"  main.outer()", "      /src/a.go:9 (sanitrace)",
				"  main.main()", "      /src/a.go:20 +0x11c", "=================="}},
		{"go panic", &report.Report{Tool: "GoPanic", Headline: "panic: boom", Stacks: []report.Stack{{
			Title: "goroutine 1 [running]:",
			Frames: []report.Frame{
				sym(report.Frame{Raw: "main.f(0x1)\n/src/a.go:3 +0x1c", Function: "main.f", File: "/src/a.go", Line: 3, HasSymbolOffset: true, SymbolOffset: 0x1c}),
			}}}},
			[]string{"panic: boom", "", "goroutine 1 [running]:", "main.f()", "\t/src/a.go:3 +0x1c (sanitrace)"}},
		{"kernel", &report.Report{Tool: "Kernel", Headline: "general protection fault", PID: 9, Stacks: []report.Stack{
			{Title: "RIP: 0010:ring_peek+0x2e/0x80 [ringbuf]", Frames: []report.Frame{
				sym(report.Frame{Raw: "ring_peek+0x2e/0x80 [ringbuf]", Function: "ring_peek", File: "drivers/ring.c", Line: 412, Module: "ringbuf"}),
			}},
			{Title: "Call Trace:", Frames: []report.Frame{
				sym(report.Frame{Raw: "? peek+0x2e/0x80", Function: "peek_one", File: "include/ring.h", Line: 7, Inlined: true, Unreliable: true, Context: "IRQ"}),
				sym(report.Frame{Raw: "? peek+0x2e/0x80", Function: "peek", File: "drivers/ring.c", Line: 30, Unreliable: true, Context: "IRQ"}),
				{Raw: "do_syscall_64+0x5d/0x90", Function: "do_syscall_64", Context: "TASK", Symbolized: report.SymbolizedNone},
			}},
		}},
			[]string{"general protection fault", "RIP: 0010:ring_peek (drivers/ring.c:412) ringbuf (sanitrace)", "Call Trace:",
				" <IRQ>", " ? peek (include/ring.h:7 drivers/ring.c:30) (sanitrace)", " </IRQ>",
				" <TASK>", " do_syscall_64+0x5d/0x90", " </TASK>"}},
		{"chromium", &report.Report{Tool: "Chromium", Headline: "Received signal 11 SEGV_MAPERR 000000000008", Stacks: []report.Stack{{
			Frames: []report.Frame{
				sym(report.Frame{Raw: "#0 0x55f1c6d3e0a1 <unknown>", HasPC: true, PC: 0x55f1c6d3e0a1, Function: "cc::inner()", File: "../../cc/a.cc", Line: 3, Column: 5, Inlined: true, Module: "/opt/chrome/chrome"}),
				sym(report.Frame{Raw: "#0 0x55f1c6d3e0a1 <unknown>", HasPC: true, PC: 0x55f1c6d3e0a1, Function: "cc::outer()", File: "../../cc/a.cc", Line: 9, Column: 1, Module: "/opt/chrome/chrome"}),
				{Raw: "#1 0x55f1c6d3f5d2 <unknown>", HasPC: true, PC: 0x55f1c6d3f5d2, Symbolized: report.SymbolizedNone},
			}}}},
			[]string{"Received signal 11 SEGV_MAPERR 000000000008",
				// The log's numbers kept: the inlined call sanitrace found
				// is #0.1 under the frame's own #0.
				"#0.1 0x55f1c6d3e0a1 in cc::inner() ../../cc/a.cc:3:5 (sanitrace)",
				"#0 0x55f1c6d3e0a1 in cc::outer() ../../cc/a.cc:9:1 (sanitrace)",
				"#1 0x55f1c6d3f5d2 <unknown>"}},
		{"glibc", &report.Report{Tool: "glibc", Headline: "Obtained 2 stack frames.", Stacks: []report.Stack{{
			Frames: []report.Frame{
				sym(report.Frame{Raw: "./bt(+0x1198) [0x55b061033198]", Function: "peek", File: "/src/bt.c", Line: 5, Column: 10, Inlined: true}),
				sym(report.Frame{Raw: "./bt(+0x1198) [0x55b061033198]", Function: "on_fault", File: "/src/bt.c", Line: 9, Column: 11}),
				{Raw: "/lib/x86_64-linux-gnu/libc.so.6(+0x2724a) [0x7fdea990024a]", Symbolized: report.SymbolizedNone},
			}}}},
			[]string{"Obtained 2 stack frames.",
				"./bt(+0x1198) [0x55b061033198] in peek /src/bt.c:5:10 (sanitrace)",
				"    (inlined by) on_fault /src/bt.c:9:11 (sanitrace)",
				"/lib/x86_64-linux-gnu/libc.so.6(+0x2724a) [0x7fdea990024a]"}},
		{"valgrind", &report.Report{Tool: "Valgrind", Headline: "Invalid read of size 4", PID: 12,
			Raw: []string{"Invalid read of size 4", "   at 0x401132: ??? (in /build/prog)", "   by 0x401183: ??? (in /build/prog)",
				" Address 0x8 is not stack'd, malloc'd or (recently) free'd", ""},
			Stacks: []report.Stack{{Title: "Invalid read of size 4", Frames: []report.Frame{
				sym(report.Frame{Raw: "at 0x401132: ??? (in /build/prog)", HasPC: true, PC: 0x401132, Module: "/build/prog",
					Function: "peek", File: "/src/segv.c", Line: 7, Inlined: true}),
				sym(report.Frame{Raw: "at 0x401132: ??? (in /build/prog)", HasPC: true, PC: 0x401132, Module: "/build/prog",
					Function: "level_of", File: "/src/segv.c", Line: 12}),
				{Raw: "by 0x401183: ??? (in /build/prog)", HasPC: true, PC: 0x401183, Module: "/build/prog", Symbolized: report.SymbolizedNone},
			}}}},
			// Valgrind's own lines and layout: each inlined call a line of
			// its own at one pc, the "==PID== " mark on every line.
			[]string{"==12== Invalid read of size 4",
				"==12==    at 0x401132: peek (/src/segv.c:7) (sanitrace)",
				"==12==    at 0x401132: level_of (/src/segv.c:12) (sanitrace)",
				"==12==    by 0x401183: ??? (in /build/prog)",
				"==12==  Address 0x8 is not stack'd, malloc'd or (recently) free'd",
				"==12== "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := string(renderText(t, []*report.Report{tc.r}, Options{}))
			lines := strings.Split(out, "\n")
			k := 0
			for _, l := range lines {
				if k < len(tc.want) && l == tc.want[k] {
					k++
				}
			}
			if k < len(tc.want) {
				t.Errorf("line %q missing or out of order in:\n%s", tc.want[k], out)
			}
			if strings.Contains(out, "==9==") {
				t.Errorf("a non-sanitizer headline got the ==PID== prefix:\n%s", out)
			}
		})
	}
}

// lookTools are the producers with a look of their own.
var lookTools = []string{"Kernel", "GoRaceDetector", "GoPanic", "gdb", "glibc", "Chromium", "Rust", "boost::stacktrace", "Valgrind"}

// FuzzLook renders arbitrary frame lines, titles and names in every
// producer's look, symbolized by sanitrace or not, with an inline chain
// behind them: no panic, a frame left alone keeps its text, and colors only
// decorate.
func FuzzLook(f *testing.F) {
	f.Add(uint8(0), "RIP: 0010:f+0x1/0x2 [m]", "f+0x1/0x2 [m]", "f", "a.c", true, true)
	f.Add(uint8(1), "Write at 0x1 by goroutine 8:", "main.f()\n/a.go:3 +0x8f", "main.f", "/a.go", false, true)
	f.Add(uint8(3), "", "#7  0x00000000004011ab in ?? ()", "", "", true, false)
	f.Add(uint8(5), "pc : x", "#", "#1 0x1 <unknown>", "\n", true, true)
	f.Fuzz(func(t *testing.T, tool uint8, title, raw, fn, file string, symbolized, inlined bool) {
		// The check below tells the renderer's colors by their escapes:
		// an escape in the input would be taken for one of them.
		noESC := strings.NewReplacer("\x1b", "?")
		title, raw, fn, file = noESC.Replace(title), noESC.Replace(raw), noESC.Replace(fn), noESC.Replace(file)
		who := report.SymbolizedNone
		if symbolized {
			who = report.SymbolizedSanitrace
		}
		fr := report.Frame{Raw: raw, Function: fn, File: file, Line: 3, HasPC: true, PC: 0x4011ab, Symbolized: who, Context: title}
		inner := fr
		inner.Inlined = inlined
		r := &report.Report{Tool: lookTools[int(tool)%len(lookTools)], Headline: title, PID: 7,
			Stacks: []report.Stack{{Title: title, Frames: []report.Frame{inner, fr, {Raw: raw, Symbolized: report.SymbolizedNone}}}}}
		// Once from the typed parts and once from the report's own lines
		// (the kernel, Go and Rust looks write those, frames in place).
		withRaw := *r
		withRaw.Raw = []string{title, title}
		for range 3 {
			withRaw.Raw = append(withRaw.Raw, strings.Split(raw, "\n")...)
		}
		for _, r := range []*report.Report{r, &withRaw} {
			plain := string(renderText(t, []*report.Report{r}, Options{}))
			// A control character of the line is spelled \xHH (issue 28).
			if first := strings.TrimSpace(strings.Split(raw, "\n")[0]); first != "" && !symbolized && !strings.Contains(plain, termsafe.Lines(strings.TrimLeft(first, "#0123456789 "))) {
				t.Errorf("frame line %q lost:\n%s", first, plain)
			}
			colored := string(renderText(t, []*report.Report{r}, Options{Color: true}))
			if ansiRE.ReplaceAllString(colored, "") != plain {
				t.Errorf("colors change the text:\n%s", plain)
			}
			renderText(t, []*report.Report{r}, Options{UserFrames: true})
		}
	})
}

// TestLooks: every producer has a look of its own choosing; one missing
// from looks would be written in the sanitizer layout without a word.
func TestLooks(t *testing.T) {
	for _, p := range report.Producers() {
		if _, ok := looks[p]; !ok {
			t.Errorf("producer %v has no look", p)
		}
	}
}
