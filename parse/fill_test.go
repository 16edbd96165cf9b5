package parse

import (
	"reflect"
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
