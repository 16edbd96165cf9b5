package campaign

import (
	"strings"
	"testing"
)

func TestTouched(t *testing.T) {
	seed := []byte("abcdefgh")
	for _, c := range []struct {
		mutant string
		want   Span
	}{
		{"abcdefgh", Span{8, 8}},  // nothing changed
		{"abXdefgh", Span{2, 3}},  // one byte replaced
		{"abcXdefgh", Span{3, 3}}, // an insertion: empty, at its place
		{"abdefgh", Span{2, 3}},   // a deletion
		{"abcd", Span{4, 8}},      // a cut
		{"Xbcdefgh", Span{0, 1}},
		{"abcdefgX", Span{7, 8}},
		{"aXcdefYh", Span{1, 7}},    // two edits: one range over both
		{"abcabcdefgh", Span{3, 3}}, // an insertion that could be at 0 or 3: after the common prefix
		{"abcdefghabcdefgh", Span{8, 8}},
	} {
		if got := Touched(seed, []byte(c.mutant)); got != c.want {
			t.Errorf("Touched(%q, %q) = %v, want %v", seed, c.mutant, got, c.want)
		}
	}
}

func TestReportSpan(t *testing.T) {
	data := []byte("one\ntwo\nthree\nfour") // lines start at 0, 4, 8, 14
	for _, c := range []struct {
		first, last int
		want        Span
	}{
		{1, 1, Span{0, 4}},   // line 1 from the start of the data, its newline included
		{2, 2, Span{3, 8}},   // from the newline ending line 1
		{2, 3, Span{3, 14}},  // lines 2-3
		{4, 4, Span{13, 18}}, // the last line, no newline: to the end
		{1, 4, Span{0, 18}},
	} {
		if got := ReportSpan(data, c.first, c.last); got != c.want {
			t.Errorf("ReportSpan(%d, %d) = %v, want %v", c.first, c.last, got, c.want)
		}
	}
}

// TestUntouched walks the rule's edge cases on a log of three reports.
func TestUntouched(t *testing.T) {
	seed := "noise\n" + // line 1, bytes 0-5
		"==1==ERROR: A\n  #0 f\n" + // lines 2-3: report A, bytes 6-19 and 20-26
		"between\n" + // line 4, bytes 27-34
		"==2==ERROR: B\n" + // line 5: report B, bytes 35-48
		"tail\n" // line 6
	base := []Report{
		{Tool: "asan", Headline: "A", First: 2, Last: 3},
		{Tool: "asan", Headline: "B", First: 5, Last: 5},
	}
	at := func(s string) int { return strings.Index(seed, s) }
	for _, c := range []struct {
		name   string
		mutant string
		want   string // headlines of the untouched reports
	}{
		{"a byte of the noise line", "nXise\n" + seed[6:], "AB"},
		{"the newline before report A", seed[:5] + seed[6:], "B"},
		{"an insertion at report A's first byte", seed[:6] + "X" + seed[6:], "B"},
		{"an insertion before the newline before A", seed[:5] + "X" + seed[5:], "B"},
		{"a byte inside report A", seed[:at("#0")] + "#9" + seed[at("#0")+2:], "B"},
		{"report A's final newline", seed[:at("between")-1] + seed[at("between"):], "B"},
		{"an insertion right after report A", seed[:at("between")] + "X\n" + seed[at("between"):], "AB"},
		{"the middle of the line between", seed[:at("between")+3] + "X" + seed[at("between")+4:], "AB"},
		{"the newline before report B", seed[:at("==2")-1] + seed[at("==2"):], "A"},
		{"the tail", seed[:at("tail")] + "TAIL\n", "AB"},
		{"a cut inside report B", seed[:at("==2")+4], "A"},
		{"nothing", seed, "AB"},
	} {
		var got string
		for _, r := range Untouched([]byte(seed), []byte(c.mutant), base) {
			got += r.Headline
		}
		if got != c.want {
			t.Errorf("%s: untouched %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMissing(t *testing.T) {
	a := Report{Tool: "asan", Kind: "uaf", Headline: "A"}
	b := Report{Tool: "tsan", Kind: "race", Headline: "B"}
	a2 := a
	a2.First, a2.Last = 10, 12 // moved by the mutation: still the same report
	dump := Report{Tool: "libwebsockets", Kind: "heap dump", Headline: "libwebsockets heap dump: 3 live allocations"}
	for _, c := range []struct {
		want, got []Report
		lost      int
	}{
		{[]Report{a, b}, []Report{b, a2}, 0},
		{[]Report{a, b}, []Report{a}, 1},
		{[]Report{a, a}, []Report{a}, 1},                                        // each found report stands for one
		{[]Report{a}, []Report{{Tool: "asan", Kind: "uaf", Headline: "A'"}}, 0}, // the headline may change
		{[]Report{a}, []Report{{Tool: "asan", Kind: "double-free", Headline: "A"}}, 1},
		{nil, []Report{a}, 0},
		{[]Report{dump, dump}, []Report{dump}, 0}, // two runs of records pasted together are one
		{[]Report{dump}, []Report{a}, 1},
	} {
		if got := Missing(c.want, c.got); len(got) != c.lost {
			t.Errorf("Missing(%v, %v) = %v, want %d lost", c.want, c.got, got, c.lost)
		}
	}
}

func TestParseReports(t *testing.T) {
	out := `{"version":1,"reports":[{"tool":"GoPanic","kind":"panic","headline":"panic: x","input":{"name":"a.log","first_line":3,"last_line":9}}]}`
	reps, err := ParseReports([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0] != (Report{Tool: "GoPanic", Kind: "panic", Headline: "panic: x", First: 3, Last: 9}) {
		t.Fatalf("ParseReports = %+v", reps)
	}
	if _, err := ParseReports([]byte("{")); err == nil {
		t.Fatal("no error for invalid JSON")
	}
}
