package render

import (
	"bytes"
	"fmt"
	"github.com/sanitrace/sanitrace/wire"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMarkdownFitsStepSummary: GitHub drops a $GITHUB_STEP_SUMMARY of more
// than 1 MiB whole, so the summary stays below it whatever the logs hold:
// many buckets with huge headlines and frames, and thousands of errors.
func TestMarkdownFitsStepSummary(t *testing.T) {
	huge := strings.Repeat("é", 1<<17) // 256 KB, two bytes a rune
	doc := &wire.Batch{Version: 1, Inputs: 300}
	for i := range 300 {
		fn := fmt.Sprintf("f%d_%s", i, huge[:4000])
		file := "src/" + huge[:3000] + ".c"
		var frames []wire.Frame
		for line := range 20 {
			frames = append(frames, wire.Frame{Function: &fn, File: &file, Line: line + 1})
		}
		doc.Reports = append(doc.Reports, wire.BatchReport{
			Report: wire.Report{Tool: "AddressSanitizer", Kind: "heap-use-after-free " + huge[:2000],
				Headline: "ERROR: AddressSanitizer: heap-use-after-free " + huge,
				Stacks:   []wire.Stack{{Title: huge[:100000], Frames: frames}}},
			Source: wire.Source{Path: fmt.Sprintf("logs/%d/%s.log", i, huge[:1000]), FirstLine: 1},
			Bucket: fmt.Sprint(i),
		})
		kind := "heap-use-after-free " + huge[:2000]
		doc.Buckets = append(doc.Buckets, wire.Bucket{ID: fmt.Sprint(i), Signature: "AddressSanitizer:" + kind + ":" + fn + "|" + fn + "|" + fn,
			Tool: "AddressSanitizer", Kind: kind, Count: 1, New: i%2 == 0, Reports: []int{i},
			First: doc.Reports[i].Source, Last: doc.Reports[i].Source})
	}
	for i := range 20000 {
		doc.Errors = append(doc.Errors, wire.BatchError{Source: wire.Source{Path: fmt.Sprintf("in/%d.zip", i)}, Error: "unsafe member name " + huge[:600]})
	}
	var out bytes.Buffer
	if err := WriteMarkdown(&out, doc); err != nil {
		t.Fatal(err)
	}
	if out.Len() >= 1<<20 {
		t.Errorf("summary of %d bytes: GitHub would drop it", out.Len())
	}
	if !utf8.Valid(out.Bytes()) {
		t.Errorf("a cut split a character")
	}
	for _, want := range []string{"200 more buckets are in the JSON output", "The details of ", "more are in the JSON output"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary does not say %q", want)
		}
	}
	t.Logf("%d bytes", out.Len())
}
