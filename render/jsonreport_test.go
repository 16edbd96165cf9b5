package render

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/wire"
)

// encodingJSON is v as encoding/json writes it in the decode writer's
// layout, the bytes appendReport (a wire.Report) or appendBatchReport (a
// wire.BatchReport) must give.
func encodingJSON(t testing.TB, v any) []byte {
	t.Helper()
	return bytes.TrimSuffix(encodeJSON(t, v, jsonPrefix, jsonIndent), []byte("\n"))
}

// encodeJSON is what an encoding/json Encoder that escapes no HTML and
// indents with prefix and indent writes for v, its newline included.
func encodeJSON(t testing.TB, v any, prefix, indent string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkAppendReport(t testing.TB, r *wire.Report) {
	t.Helper()
	want := encodingJSON(t, r)
	if got := appendReport(nil, r); !bytes.Equal(got, want) {
		t.Fatalf("appendReport:\n%s\nencoding/json:\n%s", got, want)
	}
}

// TestAppendReportAsEncodingJSON: every report of the project's logs, and
// reports that set every optional member, come out as encoding/json
// writes them.
func TestAppendReportAsEncodingJSON(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".log") {
			return err
		}
		for _, r := range scanLog(t, path) {
			wr := wire.ReportOf(r)
			checkAppendReport(t, &wr)
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 200 {
		t.Fatalf("only %d reports in ../testdata's logs", n)
	}
	for _, r := range []wire.Report{fullReport("a\"b\\c\x00\x1f\x7f<>&\u2028\u2029\xff\xfe é", 7, 0xffff), {}, fullReport("", 0, 0)} {
		checkAppendReport(t, &r)
	}
}

// fullReport is a report whose strings are s and variants of it, its
// numbers n, with its pointers, slices and optional members set or left
// nil by the bits of set.
func fullReport(s string, n int, set uint32) wire.Report {
	bit := func(i int) bool { return set&(1<<i) != 0 }
	str := func(i int) *string {
		if !bit(i) {
			return nil
		}
		v := s + strings.Repeat("x", i%3)
		return &v
	}
	num := func(i int) *int {
		if !bit(i) {
			return nil
		}
		v := n - i
		return &v
	}
	frame := wire.Frame{PC: str(0), Function: str(1), File: str(2), Line: n, Column: -n, Module: str(3), Offset: str(4),
		Inlined: bit(5), Symbolized: s, SymbolOffset: str(6), SymbolSize: str(7), Unreliable: bit(8), User: bit(9)}
	if bit(10) {
		frame.BuildID, frame.Context, frame.Problem, frame.Raw, frame.Unparsed = s, s+"c", s+"p", s+"r", true
	}
	r := wire.Report{Tool: s, Kind: s + "k", PID: num(11), Headline: s + "h", Location: str(12), Summary: str(13),
		Input: wire.Input{Name: s, FirstLine: n, LastLine: n + 1}}
	if bit(14) {
		r.Severity = s
	}
	if bit(15) {
		r.Access = &wire.Access{Op: s, Size: n, Address: s + "a", Thread: s + "t"}
	}
	switch {
	case bit(16):
		r.Stacks = []wire.Stack{{Title: s, Role: s + "r", Frames: []wire.Frame{frame, {}, frame}, Marker: s, PossiblyTruncated: s}, {Frames: []wire.Frame{}}, {}}
	case bit(17):
		r.Stacks = []wire.Stack{}
	}
	if bit(18) {
		sh := &wire.Shadow{}
		if bit(19) {
			sh.Rows = []wire.ShadowRow{{Address: s, Bytes: []string{s, "fa", ""}, Marked: num(20), Current: bit(21)}, {Bytes: []string{}}, {}}
		}
		if bit(22) {
			sh.Legend = map[string]string{s: s + "v", "fa": "Heap left redzone", "00": s, "": ""}
		}
		r.Shadow = sh
	}
	if bit(23) {
		r.Fuzzer = &wire.Fuzzer{Mutations: s, BaseUnit: s + "b", Bytes: s + "y", Text: s, Artifact: s, Base64: s}
	}
	if bit(24) {
		r.Fuzzer = &wire.Fuzzer{}
	}
	if bit(25) {
		r.Kernel = &wire.Kernel{CPU: num(26), Comm: s, Tainted: s, Release: s, BuildID: s, Hardware: s}
	}
	return r
}

// FuzzAppendReport: any strings and any choice of members come out as
// encoding/json writes them.
func FuzzAppendReport(f *testing.F) {
	f.Add("heap-buffer-overflow", 3, uint32(0xffffffff))
	f.Add("", 0, uint32(0))
	f.Add("a\"\\\x01\b\f\n\r\t\x7f\u2028\u2029\xe2\x80\xff<&>", -1, uint32(0x5555555))
	f.Add("\xed\xa0\x80 surrogate, \xf4\x90\x80\x80 past U+10FFFF, \xc0\xaf overlong", 1<<40, uint32(0xaaaaaaa))
	f.Fuzz(func(t *testing.T, s string, n int, set uint32) {
		r := fullReport(s, n, set)
		checkAppendReport(t, &r)
		checkAppendBatchReport(t, batchReport(r, s, n, set))
	})
}

// batchReport wraps r as a batch run's report, its source's member and
// lines and its corruption set or left out by the bits of set above 26.
func batchReport(r wire.Report, s string, n int, set uint32) *wire.BatchReport {
	br := &wire.BatchReport{Report: r, Source: wire.Source{Path: s + "p"}, Bucket: s + "b"}
	if set&(1<<27) != 0 {
		m := s + "m"
		br.Source.Member = &m
	}
	if set&(1<<28) != 0 {
		br.Source.FirstLine, br.Source.LastLine = n, n+1
	}
	if set&(1<<29) != 0 {
		br.Corrupted = s + "c"
	}
	return br
}

// checkAppendBatchReport holds appendBatchReport to the bytes
// WriteBatchJSON's encoding/json Encoder gave for an element of "reports".
func checkAppendBatchReport(t testing.TB, r *wire.BatchReport) {
	t.Helper()
	want := encodingJSON(t, r)
	if got := appendBatchReport(nil, r); !bytes.Equal(got, want) {
		t.Fatalf("appendBatchReport:\n%s\nencoding/json:\n%s", got, want)
	}
}

// TestAppendBatchReport: the project's reports as a batch run's, with and
// without each batch member, come out as encoding/json writes them.
func TestAppendBatchReport(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".log") {
			return err
		}
		for _, r := range scanLog(t, path) {
			set := uint32(n%8) << 27
			checkAppendBatchReport(t, batchReport(wire.ReportOf(r), path, r.Input.FirstLine, set))
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for set := uint32(0); set < 8; set++ {
		checkAppendBatchReport(t, batchReport(fullReport("<&>\"\u2028", 3, 0xffff), "<&>", 0, set<<27))
	}
}

// FuzzAppendJSONString: one string alone, every byte sequence.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x00\x1f\x20\x7f\x80", "\u2028\u2029\u2027", "é\xff\xc3", "\"\\/<>&",
		// Longer than a word, each kind of byte in each place of one.
		"0123456\"89abcdef", "01234567\\9abcdef\x1f", "0123456789abcde\x7f", "\x80123456789abcdef", "01234567é9ab\u2028def"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := bytes.TrimSuffix(encodeJSON(t, s, "", ""), []byte("\n"))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json: %s", s, got, want)
		}
	})
}
