package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/sanitrace/sanitrace/wire"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// sarifLink is an unescaped SARIF embedded link, "[text](target)".
var sarifLink = regexp.MustCompile(`(^|[^\\])\[[^\]]*[^\\]\]\(`)

// FuzzBatchFormats renders a one-bucket document whose log-derived strings
// (tool, kind, headline, frame, file, archive member) are arbitrary, in
// every batch format: no panic; JSON reads back as it was; SARIF is JSON
// and no message of it holds an embedded link; the HTML page has no tag
// but its own and no attribute that loads or links; the Markdown summary
// has no HTML tag but its own outside code. Seeds: testdata/fuzz/FuzzBatchFormats.
func FuzzBatchFormats(f *testing.F) {
	f.Add("AddressSanitizer", "heap-use-after-free", "ERROR: AddressSanitizer: heap-use-after-free on address 0x1",
		"ns::f<int>(int)", "/build/src/a.c", "logs/run.log")
	f.Add("UndefinedBehaviorSanitizer", "signed-integer-overflow", "<script>alert(1)</script> [x](javascript:alert(2)) <https://e.example>",
		"evil</script><img src=x onerror=alert(3)>", "src/<a href=\"javascript:x\">.c", "a\x1b[31m\n~~~\n```.log")
	f.Add("t|o`o`l", "k\n\nind]](", "~~~~\n# h\n<!--", "``f``|", "[f](http://x)", "")
	f.Fuzz(func(t *testing.T, tool, kind, headline, function, file, member string) {
		doc := fuzzDoc(tool, kind, headline, function, file, member)
		out := make(map[string]string)
		for _, format := range BatchFormats() {
			var b bytes.Buffer
			if err := WriteBatch(&b, format, doc, BatchOptions{SourceRoot: "/build"}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			out[format] = b.String()
		}

		if want := encodeJSON(t, doc, "", "  "); out["json"] != string(want) {
			t.Fatalf("JSON is not encoding/json's:\n%s\nencoding/json:\n%s", out["json"], want)
		}
		back, err := wire.ReadBatch(strings.NewReader(out["json"]))
		if err != nil {
			t.Fatalf("JSON does not read back: %v", err)
		}
		// Invalid UTF-8 in a log comes back as U+FFFD, as encoding/json
		// gives it.
		want, err := wire.ReadBatch(strings.NewReader(mustJSON(t, doc)))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := mustJSON(t, back), mustJSON(t, want); a != b {
			t.Fatalf("JSON round trip:\n%s\n%s", a, b)
		}
		if !utf8.ValidString(out["json"]) || !utf8.ValidString(out["sarif"]) {
			t.Fatalf("JSON or SARIF output that is not UTF-8")
		}

		var tree any
		if err := json.Unmarshal([]byte(out["sarif"]), &tree); err != nil {
			t.Fatalf("SARIF is not JSON: %v", err)
		}
		eachText(tree, func(s string) {
			if sarifLink.MatchString(s) {
				t.Fatalf("SARIF message with an embedded link: %q", s)
			}
		})

		page := out["html"]
		for _, tag := range regexp.MustCompile(`<[a-zA-Z!/][^>]*>`).FindAllString(page, -1) {
			if !htmlOwnTags[tagName(tag)] {
				t.Fatalf("HTML tag %q made from log text", tag)
			}
			attrs := regexp.MustCompile(`"[^"]*"|'[^']*'`).ReplaceAllString(tag, `""`)
			if regexp.MustCompile(`(?i)\s(src|href|action|formaction|srcset|on[a-z]+)\s*=`).MatchString(attrs) {
				t.Fatalf("HTML tag %q loads, links or runs something", tag)
			}
		}

		md := outsideCodeSpans(outsideFences(out["markdown"]))
		for _, tag := range regexp.MustCompile(`<[a-zA-Z!/][^>]*>`).FindAllString(md, -1) {
			if !mdOwnTags[tag] {
				t.Fatalf("Markdown holds the tag %q outside code", tag)
			}
		}
	})
}

// htmlOwnTags are the elements the page's template writes.
var htmlOwnTags = map[string]bool{}

// mdOwnTags are the HTML tags the Markdown summary writes.
var mdOwnTags = map[string]bool{"<details>": true, "<summary>": true, "</summary>": true, "</details>": true, "<code>": true, "</code>": true}

func init() {
	// The tags of a page of plain text are the template's own.
	var b bytes.Buffer
	WriteHTML(&b, fuzzDoc("AddressSanitizer", "heap-use-after-free", "ERROR: x", "f", "a.c", "run.log"), BatchOptions{})
	for _, tag := range regexp.MustCompile(`<[a-zA-Z!/][^>]*>`).FindAllString(b.String(), -1) {
		htmlOwnTags[tagName(tag)] = true
	}
}

func tagName(tag string) string {
	f := strings.Fields(strings.Trim(tag, "<>/"))
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.TrimLeft(f[0], "/"))
}

// fuzzDoc is a one-report, one-bucket, one-error document of the strings.
func fuzzDoc(tool, kind, headline, function, file, member string) *wire.Batch {
	var m *string
	if member != "" {
		m = &member
	}
	src := wire.Source{Path: "ci.zip", Member: m, FirstLine: 1, LastLine: 3}
	doc := &wire.Batch{Version: 1, Inputs: 1,
		Reports: []wire.BatchReport{{Report: wire.Report{Tool: tool, Kind: kind, Headline: headline,
			Stacks: []wire.Stack{{Title: headline, Frames: []wire.Frame{{Function: &function, File: &file, Line: 3}, {Function: &function}}}}},
			Source: src, Bucket: "0123456789ab"}},
		Buckets: []wire.Bucket{{ID: "0123456789ab", Signature: tool + ":" + kind + ":" + function + "|" + file, Tool: tool, Kind: kind,
			Count: 1, New: true, Reports: []int{0}, First: src, Last: src}},
		Errors: []wire.BatchError{{Source: src, Error: headline}},
	}
	return doc
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func eachText(v any, fn func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "text" || k == "markdown") {
				fn(s)
			}
			eachText(x, fn)
		}
	case []any:
		for _, x := range v {
			eachText(x, fn)
		}
	}
}

// outsideFences drops the fenced code blocks of a Markdown text as GFM
// reads them: a block opened by a line of n >= 3 tildes ends at the first
// line of at least n tildes (up to three spaces before them, spaces after).
func outsideFences(md string) string {
	var out []string
	fence := 0
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		n := len(t) - len(strings.TrimLeft(t, "~"))
		switch {
		case fence == 0 && indent <= 3 && n >= 3:
			fence = n
		case fence > 0:
			if indent <= 3 && n >= fence && strings.TrimRight(t[n:], " ") == "" {
				fence = 0
			}
		default:
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// outsideCodeSpans drops the code spans of each line as GFM reads them: a
// run of n backticks opens one that the next run of exactly n closes.
func outsideCodeSpans(md string) string {
	var b strings.Builder
	run := func(s string, i int) int {
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		return j - i
	}
	for i := 0; i < len(md); {
		if md[i] != '`' {
			b.WriteByte(md[i])
			i++
			continue
		}
		n := run(md, i)
		end := -1
		for j := i + n; j < len(md) && md[j] != '\n'; {
			if md[j] == '`' {
				m := run(md, j)
				if m == n {
					end = j + m
					break
				}
				j += m
				continue
			}
			j++
		}
		if end < 0 {
			b.WriteString(md[i : i+n])
			i += n
			continue
		}
		i = end
	}
	return b.String()
}

// TestWriteBatchJSONJobs: the document's bytes do not depend on how many
// goroutines encode it, across chunk boundaries, and read back whole.
func TestWriteBatchJSONJobs(t *testing.T) {
	doc := &wire.Batch{Version: 1, Inputs: 3*jsonChunk + 7, Buckets: []wire.Bucket{}, Errors: []wire.BatchError{}}
	for i := range 3*jsonChunk + 7 {
		d := fuzzDoc("AddressSanitizer", "heap-use-after-free", fmt.Sprintf("report %d", i), "f", "a.c", fmt.Sprintf("%d.log", i))
		doc.Reports = append(doc.Reports, d.Reports[0])
		if i%100 == 0 {
			doc.Buckets = append(doc.Buckets, d.Buckets[0])
			doc.Errors = append(doc.Errors, d.Errors[0])
		}
	}
	var one bytes.Buffer
	if err := WriteBatchJSONJobs(&one, doc, 1); err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int{2, 3, 8, 0} {
		var b bytes.Buffer
		if err := WriteBatchJSONJobs(&b, doc, jobs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), one.Bytes()) {
			t.Errorf("%d jobs: the document differs from one job's", jobs)
		}
	}
	// The bytes are encoding/json's for the whole document (its reports
	// written by appendBatchReport, the rest indented by appendIndent).
	if want := encodeJSON(t, doc, "", "  "); !bytes.Equal(one.Bytes(), want) {
		t.Errorf("the document is not encoding/json's:\n%s\nencoding/json:\n%s", one.Bytes(), want)
	}
	back, err := wire.ReadBatch(&one)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, back), mustJSON(t, doc); a != b {
		t.Errorf("the document does not read back as it was")
	}
	// A failing writer stops the encoders and is reported.
	if err := WriteBatchJSONJobs(failWriter{}, doc, 4); err == nil {
		t.Errorf("no error from a failing writer")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }
