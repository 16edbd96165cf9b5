package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// One row per legend value, with the name compiler-rt's legend prints for
// it (asan_errors.cpp PrintLegend; fb and f4 from older runtimes).
var legendCodes = []struct {
	code, name  string
	addressable int
}{
	{"00", "Addressable", 8},
	{"01", "Partially addressable", 1},
	{"02", "Partially addressable", 2},
	{"03", "Partially addressable", 3},
	{"04", "Partially addressable", 4},
	{"05", "Partially addressable", 5},
	{"06", "Partially addressable", 6},
	{"07", "Partially addressable", 7},
	{"fa", "Heap left redzone", 0},
	{"fb", "Heap right redzone", 0},
	{"fd", "Freed heap region", 0},
	{"f1", "Stack left redzone", 0},
	{"f2", "Stack mid redzone", 0},
	{"f3", "Stack right redzone", 0},
	{"f5", "Stack after return", 0},
	{"f8", "Stack use after scope", 0},
	{"f9", "Global redzone", 0},
	{"f6", "Global init order", 0},
	{"f7", "Poisoned by user", 0},
	{"fc", "Container overflow", 0},
	{"ac", "Array cookie", 0},
	{"bb", "Intra object redzone", 0},
	{"fe", "ASan internal", 0},
	{"ca", "Left alloca redzone", 0},
	{"cb", "Right alloca redzone", 0},
}

// shadowReport builds a one-row map whose byte 5 is code and is marked, for
// an access at the first byte that byte stands for.
func shadowReport(code string, legend map[string]string) *report.Report {
	row := report.ShadowRow{Address: "0x0c067fff8000", Marked: 5, Current: true}
	for i := 0; i < 16; i++ {
		b := "00"
		if i >= 5 {
			b = code
		}
		row.Bytes = append(row.Bytes, b)
	}
	// (0x0c067fff8000 - 0x7fff8000) << 3 = 0x603000000000; byte 5 -> +0x28.
	r := &report.Report{
		Tool: "AddressSanitizer", Kind: "unknown-crash",
		Headline: "==1==ERROR: AddressSanitizer: unknown-crash on address 0x603000000028 at pc 0x1 bp 0x2 sp 0x3",
		Access:   &report.Access{Op: "READ", Size: 1, Address: "0x603000000028", Thread: "T0"},
		Shadow:   &report.Shadow{Rows: []report.ShadowRow{row}, Legend: legend},
	}
	parse.Fill(r)
	return r
}

func TestExplainShadowLegendCodes(t *testing.T) {
	for _, c := range legendCodes {
		t.Run(c.code, func(t *testing.T) {
			r := shadowReport(c.code, nil) // no printed legend: our table alone
			e := ExplainShadow(r.Shadow, r)
			m := e.Marked
			if m == nil {
				t.Fatal("no marked byte")
			}
			if m.Code != c.code || m.Name != c.name || m.Addressable != c.addressable {
				t.Errorf("marked = %q %q addressable %d, want %q %q %d", m.Code, m.Name, m.Addressable, c.code, c.name, c.addressable)
			}
			if m.Explain == "" || strings.Contains(m.Explain, "not a value") {
				t.Errorf("no explanation for %s: %q", c.code, m.Explain)
			}
			if !m.Known || m.AppBegin != 0x603000000028 || m.AppEnd != 0x603000000030 || e.Note != "" {
				t.Errorf("marked covers [%#x,%#x) known=%v note=%q, want [0x603000000028,0x603000000030)", m.AppBegin, m.AppEnd, m.Known, e.Note)
			}
			// The reduced legend has exactly the values that occur.
			want := []string{"00", c.code}
			if c.code == "00" {
				want = want[:1]
			}
			var got []string
			for _, sc := range e.Codes {
				got = append(got, sc.Code)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("legend codes = %v, want %v", got, want)
			}
			var b bytes.Buffer
			if err := NewText(&b, Options{}).Report(r); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, s := range []string{
				fmt.Sprintf("=>0x0c067fff8000: 00 00 00 00 00[%s]%s", c.code, c.code),
				"app [0x603000000000,0x603000000080)",
				fmt.Sprintf("Marked byte: [%s] at shadow 0x0c067fff8005 stands for application bytes [0x603000000028,0x603000000030): %s, %s", c.code, c.name, m.Explain),
				fmt.Sprintf("\n  %s  %s: %s\n", c.code, c.name, m.Explain),
			} {
				if !strings.Contains(out, s) {
					t.Errorf("text lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestExplainShadowPrintedLegendWins(t *testing.T) {
	// Old runtimes print "Heap righ redzone" (sic); the user sees that name.
	r := shadowReport("fb", map[string]string{"fb": "Heap righ redzone"})
	if got := ExplainShadow(r.Shadow, r).Marked.Name; got != "Heap righ redzone" {
		t.Errorf("name = %q", got)
	}
	r = shadowReport("9c", nil)
	if m := ExplainShadow(r.Shadow, r).Marked; m.Name != "Unknown shadow value" {
		t.Errorf("unknown value named %q", m.Name)
	}
}

func TestExplainShadowReportNumbersWin(t *testing.T) {
	// An access address that the x86_64 mapping does not put under the
	// marked byte (another platform's offset): spans follow the report.
	r := shadowReport("fa", nil)
	r.Access.Address = "0x10000000123c"
	parse.Fill(r)
	e := ExplainShadow(r.Shadow, r)
	if e.Note == "" {
		t.Error("no note about the disagreeing mapping")
	}
	m := e.Marked
	if m.AppBegin != 0x100000001238 || m.AppEnd != 0x100000001240 {
		t.Errorf("marked covers [%#x,%#x), want the access's granule [0x100000001238,0x100000001240)", m.AppBegin, m.AppEnd)
	}
	if e.Rows[0].AppBegin != 0x100000001238-5*8 {
		t.Errorf("row starts at %#x", e.Rows[0].AppBegin)
	}
}

func TestExplainShadowStandalone(t *testing.T) {
	if ExplainShadow(nil, nil) != nil {
		t.Error("explanation of no map")
	}
	r := shadowReport("fd", nil)
	e := ExplainShadow(r.Shadow, nil)
	if e.Marked == nil || !e.Marked.Known || e.Access != "" {
		t.Errorf("without a report: %+v", e.Marked)
	}
}

// TestShadowMappingOnCorpus checks the decoded ranges against what the
// runtime itself printed: the marked byte must cover the access address.
func TestShadowMappingOnCorpus(t *testing.T) {
	for _, id := range []string{"asan_heap_overflow_read_clang_O2_dw4", "asan_use_after_free_gcc_O0",
		"asan_stack_buffer_overflow_clang_O0_dw4", "asan_global_buffer_overflow_clang_O0"} {
		for _, r := range loadCorpus(t, filepath.Join("testdata", "corpus", id), "symbolized.log", "expected.json", false) {
			e := ExplainShadow(r.Shadow, r)
			a := r.Address
			if e.Note != "" || !e.Marked.Known || a < e.Marked.AppBegin || a >= e.Marked.AppEnd {
				t.Errorf("%s: access %#x outside marked [%#x,%#x) (note %q)", id, a, e.Marked.AppBegin, e.Marked.AppEnd, e.Note)
			}
		}
	}
}

func TestExplainShadowGranularity(t *testing.T) {
	// A 16-byte granule (as the legend header may say): spans follow the
	// access address, 16 application bytes per shadow byte.
	r := shadowReport("fa", nil)
	r.Shadow.Granularity = 16
	e := ExplainShadow(r.Shadow, r)
	if e.Granularity != 16 || e.Note == "" {
		t.Fatalf("granularity %d, note %q", e.Granularity, e.Note)
	}
	if m := e.Marked; m.AppBegin != 0x603000000020 || m.AppEnd != 0x603000000030 {
		t.Errorf("marked covers [%#x,%#x), want [0x603000000020,0x603000000030)", m.AppBegin, m.AppEnd)
	}
	if sp := e.Rows[0]; sp.AppEnd-sp.AppBegin != 16*16 {
		t.Errorf("row covers %d bytes, want 256", sp.AppEnd-sp.AppBegin)
	}
}
