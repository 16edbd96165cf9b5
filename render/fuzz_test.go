package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// FuzzRender feeds arbitrary headline, location, title and shadow text
// through the location parsers, ExplainShadow and both renderers: they must
// not panic, and JSON must stay valid.
func FuzzRender(f *testing.F) {
	f.Add("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x603e0001fc64 at pc 0x1",
		"0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)",
		"freed by thread T0 here:", "0x0c067fff8000", "fa fa [fd] fd", "0x603e0001fc64")
	f.Add("", "Location is heap block of size 16 at 0x7b0400000000 allocated by main thread:",
		"Address 0x7ffc2ab4a858 is located in stack of thread T0 at offset 56 in frame", "0xffffffffffffffff", "00 01 ca cb zz", "0x0")
	f.Add("on address 0xffffffffffffffff", "[1, 0) '' <== Memory access at offset 9 is inside this variable",
		"Location is global '' of size 99999999999999999999 at 0x1", "", "", "junk")
	f.Fuzz(func(t *testing.T, headline, location, title, rowAddr, bytesText, access string) {
		fields := strings.Fields(bytesText)
		marked := -1
		for i, b := range fields {
			if strings.HasPrefix(b, "[") {
				marked = i
				fields[i] = strings.Trim(b, "[]")
			}
		}
		r := &report.Report{
			Tool: "AddressSanitizer", Kind: "k", Headline: headline,
			Access:   &report.Access{Op: "READ", Size: 4, Address: access},
			Location: []report.Location{{Text: location}, {Text: title}},
			Stacks:   []report.Stack{{Title: title, Frames: []report.Frame{{Function: title, File: location, Line: 1}}}},
			Shadow: &report.Shadow{Rows: []report.ShadowRow{{Address: rowAddr, Bytes: fields, Marked: marked, Current: true}},
				Legend: map[string]string{"fa": location}},
			Raw: []string{location, title},
		}
		parse.Fill(r)
		_ = DescribeAccess(r)
		if e := ExplainShadow(r.Shadow, r); e.Marked != nil {
			_ = e.Marked.MarkedSentence()
		}
		var b bytes.Buffer
		if err := NewText(&b, Options{Color: true, SourceContext: 1}).Report(r); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		j := NewJSON(&b)
		if err := j.Report(r); err != nil {
			t.Fatal(err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("invalid JSON: %s", b.Bytes())
		}
	})
}
