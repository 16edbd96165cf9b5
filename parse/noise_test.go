package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// The corpus logs, with the noise of real CI logs added, must parse to the
// same model as the clean logs.

// modelOnly drops what legitimately changes with noise: raw lines and line
// numbers.
func modelOnly(rs []*report.Report) []report.Report {
	out := make([]report.Report, len(rs))
	for i, r := range rs {
		c := *r
		c.Raw = nil
		c.Input = report.InputRange{}
		out[i] = c
	}
	return out
}

type noiser struct {
	name string
	fn   func(lines []string) string
}

// interleave inserts another writer's output every few lines.
func interleave(lines []string, every int, prefix string) []string {
	var out []string
	for i, l := range lines {
		out = append(out, l)
		if i%every == every-1 {
			out = append(out, prefix+fmt.Sprintf("worker %d: processed %d items", i%3, i))
		}
	}
	return out
}

func withPrefix(lines []string, f func(i int) string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = f(i) + l
	}
	return out
}

var noisers = []noiser{
	{"ansi", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(int) string { return "\x1b[1m\x1b[0m" }), "\x1b[0m\n") + "\n"
	}},
	{"crlf", func(ls []string) string { return strings.Join(ls, "\r\n") + "\r\n" }},
	{"timestamp", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(i int) string {
			return fmt.Sprintf("2024-01-02T03:%02d:%02d.%03dZ ", i/60%60, i%60, i*7%1000)
		}), "\n") + "\n"
	}},
	{"job", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(int) string { return "[job 3] " }), "\n") + "\n"
	}},
	{"github", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(int) string { return "##[error]" }), "\n") + "\n"
	}},
	{"stderr", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(int) string { return "stderr: " }), "\n") + "\n"
	}},
	{"compose", func(ls []string) string {
		return strings.Join(withPrefix(ls, func(int) string { return "svc_1  | " }), "\n") + "\n"
	}},
	{"interleaved", func(ls []string) string { return strings.Join(interleave(ls, 5, ""), "\n") + "\n" }},
	{"compose+interleaved+crlf", func(ls []string) string {
		p := withPrefix(ls, func(int) string { return "svc_1  | " })
		return strings.Join(interleave(p, 4, "db_1   | "), "\r\n") + "\r\n"
	}},
	{"timestamp+ansi+interleaved", func(ls []string) string {
		p := withPrefix(ls, func(i int) string {
			return fmt.Sprintf("2024-01-02 03:04:%02d,%03d \x1b[31m", i%60, i%1000)
		})
		return strings.Join(interleave(p, 3, ""), "\n") + "\n"
	}},
}

func logLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestNoise(t *testing.T) {
	cases := corpusCases(t)
	for _, dir := range cases {
		for _, log := range []string{"symbolized.log", "unsymbolized.log"} {
			path := filepath.Join(dir, log)
			lines := logLines(t, path)
			want := modelOnly(parseFile(t, path))
			for _, n := range noisers {
				t.Run(filepath.Base(dir)+"/"+log+"/"+n.name, func(t *testing.T) {
					got := modelOnly(parseAll(t, strings.NewReader(n.fn(lines)), n.name))
					compareModels(t, got, want)
				})
			}
		}
	}
}

func compareModels(t *testing.T, got, want []report.Report) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d reports, want %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("report %d differs:\n\tgot  %+v\n\twant %+v", i, got[i], want[i])
		}
	}
}

// TestConcatenated parses two logs back to back, in both orders, without a
// line between them.
func TestConcatenated(t *testing.T) {
	cases := corpusCases(t)
	for i := 0; i+1 < len(cases); i += 3 {
		a := filepath.Join(cases[i], "symbolized.log")
		b := filepath.Join(cases[i+1], "unsymbolized.log")
		la, lb := logLines(t, a), logLines(t, b)
		want := append(modelOnly(parseFile(t, a)), modelOnly(parseFile(t, b))...)
		t.Run(filepath.Base(cases[i])+"+"+filepath.Base(cases[i+1]), func(t *testing.T) {
			text := strings.Join(la, "\n") + "\n" + strings.Join(lb, "\n") + "\n"
			compareModels(t, modelOnly(parseAll(t, strings.NewReader(text), "cat")), want)
		})
	}
}

// TestTruncated cuts every log inside each of its reports: the reports
// before the cut are unchanged, the cut one is marked and keeps its head.
func TestTruncated(t *testing.T) {
	cases := corpusCases(t)
	for _, dir := range cases {
		path := filepath.Join(dir, "symbolized.log")
		lines := logLines(t, path)
		full := parseFile(t, path)
		for ri, r := range full {
			first, last := r.Input.FirstLine, r.Input.LastLine
			summary := last + 1
			for i := first; i <= last; i++ {
				if strings.HasPrefix(StripEscapes(lines[i-1]), "SUMMARY: ") {
					summary = i
				}
			}
			for _, cut := range []int{first, (first + last) / 2, last - 1} {
				if cut < first || cut >= last {
					continue
				}
				name := fmt.Sprintf("%s/report%d/cut%d", filepath.Base(dir), ri, cut)
				t.Run(name, func(t *testing.T) {
					text := strings.Join(lines[:cut], "\n") + "\n"
					got := parseAll(t, strings.NewReader(text), path)
					if len(got) != ri+1 {
						t.Fatalf("got %d reports, want %d", len(got), ri+1)
					}
					for k := 0; k < ri; k++ {
						if !reflect.DeepEqual(got[k], full[k]) {
							t.Errorf("report %d before the cut differs", k)
						}
					}
					c := got[ri]
					if r.Tool != "UndefinedBehaviorSanitizer" && cut < summary && !c.Truncated {
						t.Errorf("cut before SUMMARY (line %d) but not marked truncated", summary)
					}
					checkPrefixOf(t, c, r)
				})
			}
		}
	}
}

// checkPrefixOf checks that the cut report c holds a prefix of r.
func checkPrefixOf(t *testing.T, c, r *report.Report) {
	t.Helper()
	if c.Headline != r.Headline || c.Kind != r.Kind || c.Tool != r.Tool {
		t.Errorf("headline changed: %q vs %q", c.Headline, r.Headline)
	}
	if len(c.Stacks) > len(r.Stacks) {
		t.Fatalf("cut report has %d stacks, full one %d", len(c.Stacks), len(r.Stacks))
	}
	for i, s := range c.Stacks {
		o := r.Stacks[i]
		if s.Title != o.Title || s.Role != o.Role || len(s.Frames) > len(o.Frames) {
			t.Errorf("stack %d: %q/%d frames, full %q/%d", i, s.Title, len(s.Frames), o.Title, len(o.Frames))
			continue
		}
		for k, f := range s.Frames {
			g := o.Frames[k]
			if k == len(s.Frames)-1 {
				f.Inlined, g.Inlined = false, false // depends on the next frame
			}
			if !reflect.DeepEqual(f, g) {
				t.Errorf("stack %d frame %d: %+v, full %+v", i, k, f, g)
			}
		}
		if i < len(c.Stacks)-1 && len(s.Frames) != len(o.Frames) {
			t.Errorf("stack %d lost frames before the cut", i)
		}
	}
	if c.Shadow != nil && len(c.Shadow.Rows) > 0 {
		if len(c.Shadow.Rows) > len(r.Shadow.Rows) || !reflect.DeepEqual(c.Shadow.Rows, r.Shadow.Rows[:len(c.Shadow.Rows)]) {
			t.Errorf("shadow rows are not a prefix of the full report's")
		}
	}
}
