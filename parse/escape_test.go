package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/report"
)

func TestStripEscapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x1b[1m\x1b[31m==1==ERROR\x1b[0m: x", "==1==ERROR: x"},
		{"\x1b[?25l\x1b[?2004hA\x1b[>4;1mB\x1b[2K\x1b[1G", "AB"},
		{"\x1b]0;make: building\x07==1==ERROR", "==1==ERROR"},
		{"\x1b]2;title\x1b\\text", "text"},
		{"\x1b]8;;https://ci.example/job/1\x1b\\link\x1b]8;;\x1b\\ after", "link after"},
		{"\x1b]8;;https://x\x07link\x1b]8;;\x07", "link"},
		{"\x1bP1$r0m\x1b\\a\x1b_Gf=24\x1b\\b\x1bXsos\x1b\\c\x1b^pm\x07d", "abcd"},
		{"\x1b(B\x1b[m    #0 0x1 in main", "    #0 0x1 in main"}, // tput sgr0 (xterm)
		{"\x1b[m\x0f    #0 0x1 in main", "    #0 0x1 in main"},   // tput sgr0 (screen)
		{"\x1b)0\x1b%G\x1b#8\x1b(0x\x1b(B", "x"},
		{"\x1bNa\x1bOb", "ab"}, // single shifts: the character they shift stays
		{"\x1b7\x1b8\x1b=\x1b>\x1bM\x1bc\x1b\\ok", "ok"},
		{"a\x00b\x07c\x0ed\x0fe\x7ff", "abcdef"},
		{"tab\there\rcr\bbs\x1b", "tab\there\rcr\bbs"},
		{"\x1b]0;never closed", ""},
		{"\x1b[12", ""},
		{"\x1b[1\tx", "\tx"},                           // a CSI broken by a control ends before it
		{"\x1b\x1b[31mred", "red"},                     // ESC ESC: the first is alone
		{"\x1b\x01x", "x"},                             // ESC before a control byte
		{"\x1b(", ""},                                  // nF cut by the line end
		{"caf\xc3\xa9 \x9b31m", "caf\xc3\xa9 \x9b31m"}, // C1 bytes are UTF-8 here
	} {
		if got := StripEscapes(c.in); got != c.want {
			t.Errorf("StripEscapes(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := stripOracle(c.in); got != c.want {
			t.Errorf("oracle(%q) = %q, want %q (the test's regexp is wrong)", c.in, got, c.want)
		}
	}
}

// escapeRE is the grammar of escape.go written as one regexp, in the order
// its alternatives are tried: the oracle FuzzStripEscapes checks the
// hand-written reader against.
var escapeRE = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]?` +
	`|\x1b[\]PX^_](?s:.*?)(?:\x07|\x1b\\|$)` +
	`|\x1b[ -/]+[0-~]?` +
	`|\x1b[0-~]` +
	`|\x1b` +
	`|[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f]`)

func stripOracle(s string) string { return escapeRE.ReplaceAllString(s, "") }

// FuzzStripEscapes: the stripper agrees with the regexp, leaves no ESC and
// no invisible control, keeps every other byte in order, and a second pass
// changes nothing.
func FuzzStripEscapes(f *testing.F) {
	for _, fam := range escapeFamilies {
		for _, s := range fam.seqs {
			f.Add("==1==ERROR:" + s + " AddressSanitizer" + s + ": SEGV")
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripEscapes(s)
		if want := stripOracle(s); hasControls([]byte(s)) && got != want {
			t.Fatalf("StripEscapes(%q) = %q, regexp says %q", s, got, want)
		}
		if !hasControls([]byte(s)) && got != s {
			t.Fatalf("a line without ESC or NUL changed: %q -> %q", s, got)
		}
		if strings.IndexByte(got, 0x1b) >= 0 || strings.IndexByte(got, 0) >= 0 {
			t.Fatalf("StripEscapes(%q) = %q keeps an ESC or NUL", s, got)
		}
		if again := StripEscapes(got); again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, again)
		}
		// got is a subsequence of s.
		j := 0
		for i := 0; i < len(s) && j < len(got); i++ {
			if s[i] == got[j] {
				j++
			}
		}
		if j != len(got) {
			t.Fatalf("StripEscapes(%q) = %q is not a subsequence of it", s, got)
		}
	})
}

// escapeFamilies are the control sequences of each family escape.go strips,
// as terminals and CI logs carry them.
var escapeFamilies = []struct {
	name string
	seqs []string
}{
	{"sgr", []string{"\x1b[1;31m", "\x1b[0m", "\x1b[m", "\x1b[38;5;208m", "\x1b[38:2::255:0:0m"}},
	{"csi-private", []string{"\x1b[?25l", "\x1b[?2004h", "\x1b[>4;1m", "\x1b[?1049l", "\x1b[2K", "\x1b[1G", "\x1b[0 q"}},
	{"osc-bel", []string{"\x1b]0;make: building target\x07", "\x1b]2;ci job 3\x07", "\x1b]1337;SetMark\x07"}},
	{"osc-st", []string{"\x1b]0;title\x1b\\", "\x1b]7;file://host/build\x1b\\"}},
	{"hyperlink", []string{"\x1b]8;;https://ci.example/job/1?a=b#c\x1b\\", "\x1b]8;;\x1b\\", "\x1b]8;id=1;file:///tmp/x\x07"}},
	{"dcs-apc-pm", []string{"\x1bP1$r0m\x1b\\", "\x1b_Gf=24,s=1;AAAA\x1b\\", "\x1b^private\x1b\\", "\x1bXsos\x1b\\"}},
	{"charset", []string{"\x1b(B", "\x1b)0", "\x1b(B\x1b[m", "\x1b%G", "\x1b(0\x1b(B", "\x1b*A", "\x1b+B"}},
	{"single-shift", []string{"\x1bN", "\x1bO"}},
	{"two-byte", []string{"\x1b7", "\x1b8", "\x1b=", "\x1b>", "\x1bM", "\x1bD", "\x1bE", "\x1bH", "\x1b\\"}},
	{"c0", []string{"\x1b[m\x0f", "\x00", "\x1b[m\x07", "\x0e\x1b[m"}},
}

// placements put the sequences of a family into a log: each line gets one
// at its start, one in its middle, or one before and after every word
// (cycling through the family's sequences, so every one is used).
var placements = []struct {
	name string
	put  func(line string, next func() string) string
}{
	{"start", func(l string, next func() string) string { return next() + l }},
	{"mid", func(l string, next func() string) string {
		m := len(l) / 2
		return l[:m] + next() + l[m:]
	}},
	{"words", func(l string, next func() string) string {
		var b strings.Builder
		in := false
		for i := 0; i < len(l); i++ {
			word := l[i] != ' ' && l[i] != '\t'
			if word != in {
				b.WriteString(next())
				in = word
			}
			b.WriteByte(l[i])
		}
		b.WriteString(next())
		return b.String()
	}},
}

// TestEscapeFamilies feeds every log with each family's sequences at line
// starts, mid-line and around every word: the reports are the same as the
// plain log's, lines and line numbers included (the lines are read without
// the sequences).
func TestEscapeFamilies(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "reports", "*.log"))
	if len(logs) == 0 {
		t.Fatal("no logs in testdata/reports")
	}
	checkEscapes(t, logs)
	t.Run("shared", func(t *testing.T) {
		dir := sharedtest.Dir(t, "corpus", "cases")
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*.log"))
		checkEscapes(t, more)
	})
}

func checkEscapes(t *testing.T, logs []string) {
	for _, path := range logs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The plain log: the sample logs' own colors taken off first.
		lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n"), "\n")
		for i, l := range lines {
			lines[i] = StripEscapes(l)
		}
		want := parseAll(t, strings.NewReader(strings.Join(lines, "\n")+"\n"), path)
		if len(want) == 0 {
			t.Fatalf("%s: no reports in the plain log", path)
		}
		for _, fam := range escapeFamilies {
			for _, p := range placements {
				k := 0
				next := func() string { k++; return fam.seqs[k%len(fam.seqs)] }
				var b bytes.Buffer
				for _, l := range lines {
					b.WriteString(p.put(l, next))
					b.WriteByte('\n')
				}
				got := parseAll(t, &b, path)
				if !sameReports(got, want) {
					t.Errorf("%s with %s sequences (%s): %d reports, the plain log %d; first difference:\n%s",
						caseName(path), fam.name, p.name, len(got), len(want), firstReportDiff(got, want))
				}
			}
		}
	}
}

func sameReports(a, b []*report.Report) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

func firstReportDiff(got, want []*report.Report) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if !reflect.DeepEqual(got[i], want[i]) {
			return modelView(got[i:i+1]) + "want\n" + modelView(want[i:i+1])
		}
	}
	return modelView(got) + "want\n" + modelView(want)
}
