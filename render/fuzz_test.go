package render

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// ownColors are the SGR sequences the text writer adds: the only escape
// sequences it may write.
var ownColors = regexp.MustCompile("\x1b\\[[0-9;]*m")

// rawControlByte returns the first control character of text (C0 but tab
// and newline, DEL, C1 in UTF-8 or as a bare byte), or -1.
func rawControlByte(text []byte) int {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return int(r)
		case r == utf8.RuneError && n == 1 && text[i] >= 0x80 && text[i] < 0xa0:
			return int(text[i])
		}
		i += n
	}
	return -1
}

// FuzzRender feeds arbitrary headline, location, title and shadow text
// through the location parsers, ExplainShadow and both renderers: they must
// not panic, JSON must stay valid, and
// the text must hold no control character from them.
func FuzzRender(f *testing.F) {
	f.Add("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x603e0001fc64 at pc 0x1",
		"0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)",
		"freed by thread T0 here:", "0x0c067fff8000", "fa fa [fd] fd", "0x603e0001fc64")
	f.Add("", "Location is heap block of size 16 at 0x7b0400000000 allocated by main thread:",
		"Address 0x7ffc2ab4a858 is located in stack of thread T0 at offset 56 in frame", "0xffffffffffffffff", "00 01 ca cb zz", "0x0")
	f.Add("on address 0xffffffffffffffff", "[1, 0) '' <== Memory access at offset 9 is inside this variable",
		"Location is global '' of size 99999999999999999999 at 0x1", "", "", "junk")
	// Control characters in every field (issue 28: they reached the text raw).
	f.Add("==1==ERROR: AddressSanitizer: heap-use-after-free\r\a\u009b2J on address 0x1", "is located\b\x7f in\x0c",
		"freed\x1b[8m by\x9b thread T0 here:", "0x0c067fff8000\v", "fa [fd]\u0085", "0x1\x00")
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
		if c := rawControlByte(ownColors.ReplaceAll(b.Bytes(), nil)); c >= 0 {
			t.Fatalf("text keeps control %#x from the input:\n%q", c, b.Bytes())
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
