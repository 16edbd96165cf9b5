package parse

import (
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

func TestLocationOf(t *testing.T) {
	for _, c := range []struct {
		line string
		want report.Location
	}{
		{"0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)", report.Location{
			Kind: report.HeapRegion, Address: report.Addr{Text: "0x603e0001fc64", Value: 0x603e0001fc64},
			Offset: 4, Relation: "inside of", Size: 400, HasSize: true,
			Begin: report.Addr{Text: "0x603e0001fc60", Value: 0x603e0001fc60}, End: report.Addr{Text: "0x603e0001fdf0", Value: 0x603e0001fdf0}}},
		{"0x56388309ab88 is located 0 bytes to the right of global variable 'g_arr' defined in 'g.c:1:5' (0x56388309ab60) of size 40", report.Location{
			Kind: report.GlobalVariable, Address: report.Addr{Text: "0x56388309ab88", Value: 0x56388309ab88},
			Relation: "to the right of", Name: "g_arr", DefinedAt: "g.c:1:5", Size: 40, HasSize: true,
			Begin: report.Addr{Text: "0x56388309ab60", Value: 0x56388309ab60}}},
		{"Location is global 'requests_served' of size 8 at 0x55fb3d7f0260 (race_global+0x1476260)", report.Location{
			Kind: report.Global, Name: "requests_served", Size: 8, HasSize: true, Begin: report.Addr{Text: "0x55fb3d7f0260", Value: 0x55fb3d7f0260},
			Module: "race_global", ModuleOffset: 0x1476260, HasModuleOffset: true}},
		{"Location is global '<null>' at 0x000000000000 (/b/race_global+0x4088)", report.Location{
			Kind: report.Global, Name: "<null>", Begin: report.Addr{Text: "0x000000000000"},
			Module: "/b/race_global", ModuleOffset: 0x4088, HasModuleOffset: true}},
		{"Location is a mystery", report.Location{}},
		{"0x1 is located somewhere else", report.Location{Address: report.Addr{Text: "0x1", Value: 1}}},
	} {
		c.want.Text = c.line
		if got := locationOf(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got  %+v\n want %+v", c.line, got, c.want)
		}
	}
}

func TestTitleLocation(t *testing.T) {
	sf := "Address 0x7ffc2ab4a858 is located in stack of thread T0 at offset 56 in frame"
	if got, want := titleLocation(sf), (&report.Location{Kind: report.StackFrame, Text: sf, Thread: "T0", Offset: 56,
		Address: report.Addr{Text: "0x7ffc2ab4a858", Value: 0x7ffc2ab4a858}}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	hb := "Location is heap block of size 16 at 0x7b0400000000 allocated by main thread:"
	if got, want := titleLocation(hb), (&report.Location{Kind: report.HeapBlock, Text: hb, Size: 16, HasSize: true,
		Begin: report.Addr{Text: "0x7b0400000000", Value: 0x7b0400000000}, Thread: "main thread"}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := titleLocation("freed by thread T0 here:"); got != nil {
		t.Errorf("history title typed as a location: %+v", got)
	}
	for title, want := range map[string]string{
		"freed by thread T1 here:":                "T1",
		"previously allocated by thread T0 here:": "T0",
		"allocated by thread T2 (worker) here:":   "T2 (worker)",
		"Thread T1 created by T0 here:":           "",
		"":                                        "",
	} {
		if got := historyThread(title); got != want {
			t.Errorf("historyThread(%q) = %q, want %q", title, got, want)
		}
	}
}

func TestSummaryOf(t *testing.T) {
	for _, c := range []struct {
		text string
		want report.Summary
	}{
		{"AddressSanitizer: heap-use-after-free /build/ci/src/use_after_free.c:33:13 in session_id", report.Summary{
			Tool: "AddressSanitizer", Kind: "heap-use-after-free", File: "/build/ci/src/use_after_free.c", Line: 33, Column: 13, Function: "session_id"}},
		{"AddressSanitizer: double-free (/lib/x86_64-linux-gnu/libasan.so.8+0xb76a8) ", report.Summary{
			Tool: "AddressSanitizer", Kind: "double-free", Module: "/lib/x86_64-linux-gnu/libasan.so.8", Offset: 0xb76a8, HasOffset: true}},
		{"AddressSanitizer: double-free (/lib/rt.so+0xd3932) (BuildId: 2c54) in free", report.Summary{
			Tool: "AddressSanitizer", Kind: "double-free", Module: "/lib/rt.so", Offset: 0xd3932, HasOffset: true, BuildID: "2c54", Function: "free"}},
		{"ThreadSanitizer: lock-order-inversion (potential deadlock) /build/ci/src/lock_order.c:20 in transfer_locked", report.Summary{
			Tool: "ThreadSanitizer", Kind: "lock-order-inversion (potential deadlock)", File: "/build/ci/src/lock_order.c", Line: 20, Function: "transfer_locked"}},
		{"UndefinedBehaviorSanitizer: undefined-behavior ub_shift.c:5:50 in ", report.Summary{
			Tool: "UndefinedBehaviorSanitizer", Kind: "undefined-behavior", File: "ub_shift.c", Line: 5, Column: 50}},
		{"LeakSanitizer: 346 byte(s) leaked in 10 allocation(s).", report.Summary{Tool: "LeakSanitizer", Kind: "346 byte(s) leaked in 10 allocation(s)."}},
		{"something else", report.Summary{Kind: "something else"}},
		{"", report.Summary{}},
	} {
		c.want.Text = c.text
		if got := summaryOf(c.text); got != c.want {
			t.Errorf("%q:\n got  %+v\n want %+v", c.text, got, c.want)
		}
	}
}

// TestSummaryOfLongLine: a SUMMARY line of a megabyte whose every word
// could start a location (the campaign's markup mutant 207: a 1 MiB
// line of "{{{bt:0:0x0}}}" SUMMARY elements, each made a file:line) is
// read in memory proportional to it; it took 6 GB of allocations.
func TestSummaryOfLongLine(t *testing.T) {
	for _, unit := range []string{
		"UndefinedBehaviorSanitizer: undefined-behavior markup/ubsan.c:9:11 }}}SUMMARY: ",
		"( ",
		"(m+0x1) ",
	} {
		text := "UndefinedBehaviorSanitizer: x " + strings.Repeat(unit, (1<<20)/len(unit)) + ")"
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		summaryOf(text)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 8*uint64(len(text)) {
			t.Errorf("%q repeated to 1 MiB: %d bytes allocated", unit, got)
		}
	}
}

func TestStackObjectsAndAddress(t *testing.T) {
	r := &report.Report{
		Headline: "ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffc2ab4a858 at pc 0x1 bp 0x2 sp 0x3",
		Raw: []string{
			"  This frame has 2 object(s):",
			"    [32, 40) 'a' (line 3)",
			"    [64, 68) 'b' <== Memory access at offset 56 partially underflows this variable",
			"    [64, 68) 'b' <== Memory access at offset 56 partially underflows this variable",
			"  Cycle in lock order graph: M0 (0x1) => M1 (0x2) => M0",
		},
	}
	Fill(r)
	want := &report.StackObjects{Header: "This frame has 2 object(s):", Objects: []report.StackObject{
		{Text: "[32, 40) 'a' (line 3)", Begin: 32, End: 40, Name: "a", Line: 3},
		{Text: "[64, 68) 'b' <== Memory access at offset 56 partially underflows this variable", Begin: 64, End: 68, Name: "b", Access: "partially underflows"},
	}}
	if !reflect.DeepEqual(r.StackObjects, want) {
		t.Errorf("stack objects %+v, want %+v", r.StackObjects, want)
	}
	if b := r.StackObjects.Blamed(); b == nil || b.Name != "b" {
		t.Errorf("blamed %+v", b)
	}
	if len(r.LockCycle) != 1 {
		t.Errorf("lock cycle %q", r.LockCycle)
	}
	if !r.HasAddress || r.Address != 0x7ffc2ab4a858 {
		t.Errorf("address %#x %v, want the headline's", r.Address, r.HasAddress)
	}
	for h, want := range map[string]uint64{
		"SEGV on unknown address 0x000000000010 (pc 0x1)":        0x10,
		"attempting double-free on 0x603000000010 in thread T0:": 0x603000000010,
		"heap-use-after-free on address 0xAB at pc 0x1":          0xab,
		"son 0x12":   0,
		"on 0x":      0,
		"on address": 0,
	} {
		got, ok := headlineAddress(h)
		if got != want || ok != (want != 0) {
			t.Errorf("headlineAddress(%q) = %#x %v, want %#x", h, got, ok, want)
		}
	}
}

// summaryModuleRE is the expression summaryModule spells out (it was
// resolve's, then parse's, before it cost as much as the rest of Fill):
// the oracle of TestSummaryModule and FuzzSummaryModule.
var summaryModuleRE = regexp.MustCompile(`^(.*?) ?\(([^()]+)\+0x([0-9a-fA-F]+)\)( \(BuildId: ([0-9a-fA-F]+)\))? ?$`)

func checkSummaryModule(t *testing.T, text string) {
	t.Helper()
	if strings.Contains(text, "\n") {
		return // a SUMMARY text is one line; the expression's "." stops at "\n"
	}
	head, mod, off, id, ok := summaryModule(text)
	m := summaryModuleRE.FindStringSubmatch(text)
	if ok != (m != nil) {
		t.Fatalf("summaryModule(%q) ok=%v, the expression says %v", text, ok, m != nil)
	}
	if ok && (head != m[1] || mod != m[2] || off != m[3] || id != m[5]) {
		t.Fatalf("summaryModule(%q) = %q %q %q %q, the expression says %q", text, head, mod, off, id, m[1:])
	}
}

func TestSummaryModule(t *testing.T) {
	for _, text := range []string{
		"AddressSanitizer: double-free (/lib/x86_64-linux-gnu/libasan.so.8+0xb76a8) ",
		"AddressSanitizer: memcpy-param-overlap (/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.so+0xd2dc4) (BuildId: 2c54a0a0) ",
		"ThreadSanitizer: lock-order-inversion (potential deadlock) (/lib/x86_64-linux-gnu/libtsan.so.2+0x558e1) ",
		"x (m+0x1) (BuildId: ab) in free", "x (m+0x1)", "x(m+0x1)", "(m+0x1)  ", "(+0x1)", "(m+0x)", "(m+0xg)",
		"h (m+0x1) (n+0x2)", "h (a)b+0x1)", "(BuildId: ab+0x12)", "k (m+0x1) (BuildId: )", "k (m+0x1+0x2)", "k (m+0xa+0xz)",
		"", " ", ")", "(", "()", "LeakSanitizer: 346 byte(s) leaked in 10 allocation(s).",
	} {
		checkSummaryModule(t, text)
	}
}

func FuzzSummaryModule(f *testing.F) {
	f.Add("AddressSanitizer: double-free (/lib/libasan.so.8+0xb76a8) (BuildId: 2c54) ")
	f.Add("h (m+0x1) (n+0x2)")
	f.Fuzz(checkSummaryModule)
}

// The expressions asanRegion and asanGlobal spell out (they were render's
// and parse's before they were written by hand): the oracles of
// FuzzASanLocation, for numbers and addresses that fit 64 bits.
var (
	heapRegionRE = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) (\d+)-byte region \[(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\)`)
	globalVarRE  = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) global variable '(.*)' defined in '([^']*)' \((0x[0-9a-fA-F]+)\) of size (\d+)`)
)

func checkASanLocation(t *testing.T, line string) {
	t.Helper()
	if strings.Contains(line, "\n") {
		return // the scanner hands lines over; the expressions' . stops at a newline
	}
	fits := func(m []string, idx ...int) bool {
		for _, i := range idx {
			s := strings.TrimPrefix(m[i], "0x")
			if len(s) > 16 || (!strings.HasPrefix(m[i], "0x") && len(s) > 19) {
				return false
			}
		}
		return true
	}
	r, ok := asanRegion(line)
	if m := heapRegionRE.FindStringSubmatch(line); m == nil || fits(m, 1, 3, 4, 5) {
		if ok != (m != nil) {
			t.Fatalf("asanRegion(%q) ok=%v, the expression says %v", line, ok, m != nil)
		}
		if ok && (strconv.FormatUint(r.off, 10) != strings.TrimLeft(m[1], "0") && r.off != 0 || r.rel != m[2] || r.begin.Text != m[4] || r.end.Text != m[5]) {
			t.Fatalf("asanRegion(%q) = %+v, the expression says %q", line, r, m[1:])
		}
	}
	g, ok := asanGlobal(line)
	if m := globalVarRE.FindStringSubmatch(line); m == nil || fits(m, 1, 5, 6) {
		if ok != (m != nil) {
			t.Fatalf("asanGlobal(%q) ok=%v, the expression says %v", line, ok, m != nil)
		}
		if ok && (g.rel != m[2] || g.name != m[3] || g.defined != m[4] || g.begin.Text != m[5]) {
			t.Fatalf("asanGlobal(%q) = %+v, the expression says %q", line, g, m[1:])
		}
	}
}

func TestASanLocation(t *testing.T) {
	for _, line := range []string{
		"0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)",
		"0x603e0001fc64 is located 4 bytes to the left of 400-byte region [0x603e0001fc60, \t0x603e0001fdf0) x",
		"0x56388309ab88 is located 0 bytes to the right of global variable 'g_arr' defined in 'g.c:1:5' (0x56388309ab60) of size 40",
		"0x1 is located 0 bytes inside of global variable 'a' defined in 'b' (0x1) of size 2' defined in 'c' (0x2) of size 3",
		"0x1 is located 0 bytes inside of global variable 'a' defined in 'b' (0x1) of size 2' defined in 'c' (0xg) of size 3",
		"is located is located 1 bytes inside of 2-byte region [0x1,0x2)",
		"is located 1 bytes inside 2-byte region [0x1,0x2)", "is located 1 bytes inside of 2-byte region [0x,0x2)",
		"", "is located ",
	} {
		checkASanLocation(t, line)
	}
}

func FuzzASanLocation(f *testing.F) {
	f.Add("0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)")
	f.Add("0x56388309ab88 is located 0 bytes to the right of global variable 'g_arr' defined in 'g.c:1:5' (0x56388309ab60) of size 40")
	f.Fuzz(checkASanLocation)
}

// The expressions titleLocation spells out: the oracles of FuzzTitleLocation.
var (
	stackFrameRE = regexp.MustCompile(`is located in stack of thread (\S+) at offset (\d+) in frame`)
	tsanHeapRE   = regexp.MustCompile(`Location is heap block of size (\d+) at (0x[0-9a-fA-F]+) allocated by (.+?):?\s*$`)
)

func checkTitleLocation(t *testing.T, title string) {
	t.Helper()
	if strings.Contains(title, "\n") || len(title) > 200 {
		return // titles are lines; long digit runs overflow 64 bits
	}
	l := titleLocation(title)
	switch {
	case strings.Contains(title, "is located in stack of thread "):
		m := stackFrameRE.FindStringSubmatch(title)
		if (l != nil) != (m != nil && len(m[2]) < 19) && !(m != nil && len(m[2]) >= 19) {
			t.Fatalf("titleLocation(%q) = %+v, the expression says %q", title, l, m)
		}
		if l != nil && (l.Kind != report.StackFrame || l.Thread != m[1] || strconv.FormatUint(l.Offset, 10) != strings.TrimLeft(m[2], "0") && l.Offset != 0) {
			t.Fatalf("titleLocation(%q) = %+v, the expression says %q", title, l, m)
		}
	case strings.Contains(title, "Location is heap block of size "):
		m := tsanHeapRE.FindStringSubmatch(title)
		if m != nil && (len(m[1]) >= 19 || len(m[2]) > 18) {
			return
		}
		if (l != nil) != (m != nil) {
			t.Fatalf("titleLocation(%q) = %+v, the expression says %q", title, l, m)
		}
		if l != nil && (l.Kind != report.HeapBlock || l.Thread != m[3] || l.Begin.Text != m[2]) {
			t.Fatalf("titleLocation(%q) = %+v, the expression says %q", title, l, m)
		}
	}
}

func FuzzTitleLocation(f *testing.F) {
	f.Add("Address 0x7ffc2ab4a858 is located in stack of thread T0 at offset 56 in frame")
	f.Add("Location is heap block of size 16 at 0x7b0400000000 allocated by main thread:")
	f.Add("Location is heap block of size 16 at 0x7b0400000000 allocated by x :: \t")
	f.Fuzz(checkTitleLocation)
}
