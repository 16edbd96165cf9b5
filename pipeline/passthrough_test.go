package pipeline

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/report"
)

// passthroughRun decodes input in passthrough with --symbolize=false and
// the filter keep, and returns the output.
func passthroughRun(t testing.TB, input []byte, keep func(*report.Report) bool) []byte {
	t.Helper()
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	w, err := render.New("text", bw, render.Options{Passthrough: true})
	if err != nil {
		t.Fatal(err)
	}
	d := &Decode{Writer: w, Out: bw, Stdin: bytes.NewReader(input), Stderr: io.Discard, Passthrough: true, Keep: keep}
	if _, err := d.Run(nil); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func keepNone(*report.Report) bool { return false }

// reportLogs are the committed logs of every report shape.
func reportLogs(t *testing.T) []string {
	t.Helper()
	logs, err := filepath.Glob("../testdata/reports/*.log")
	if err != nil || len(logs) < 20 {
		t.Fatalf("report logs: %v (%d found)", err, len(logs))
	}
	return append(logs, "../testdata/demo/session.log")
}

// TestPassthroughVerbatim: with every report filtered out, passthrough is
// the identity on every committed log: no line is lost, doubled, moved or
// changed, whatever shape of report the parser holds lines back for.
func TestPassthroughVerbatim(t *testing.T) {
	for _, log := range reportLogs(t) {
		in, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if got := passthroughRun(t, in, keepNone); !bytes.Equal(got, in) {
			t.Errorf("%s: passthrough without reports is not the input (%d bytes, want %d)", filepath.Base(log), len(got), len(in))
		}
	}
}

// TestPassthroughKeepsOtherLines: with the reports rendered, the lines
// outside every report's range come out unchanged and in input order, and
// each report's rendering stands where the report was.
func TestPassthroughKeepsOtherLines(t *testing.T) {
	for _, log := range reportLogs(t) {
		in, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var ranges []report.InputRange
		sc := parse.NewScanner(bytes.NewReader(in), "-")
		for {
			r, err := sc.Next()
			if err != nil {
				break
			}
			ranges = append(ranges, r.Input)
		}
		inside := func(no int) bool {
			for _, r := range ranges {
				if no >= r.FirstLine && no <= r.LastLine {
					return true
				}
			}
			return false
		}
		got := string(passthroughRun(t, in, nil))
		pos := 0
		for i, line := range strings.SplitAfter(string(in), "\n") {
			if line == "" || inside(i+1) || strings.TrimSpace(line) == "" {
				continue
			}
			j := strings.Index(got[pos:], line)
			if j < 0 {
				t.Errorf("%s: line %d %q missing or out of order in the output", filepath.Base(log), i+1, line)
				break
			}
			pos += j + len(line)
		}
	}
}

// TestPassthroughLongLine: a line longer than the parser keeps comes back
// cut at the same length, with its line end, and the lines after it whole.
func TestPassthroughLongLine(t *testing.T) {
	long := strings.Repeat("x", parse.MaxLineLen+100)
	got := string(passthroughRun(t, []byte("a\n"+long+"\nb\n"), nil))
	want := "a\n" + long[:parse.MaxLineLen+1] + "\nb\n"
	if got != want {
		t.Errorf("got %d bytes, want %d", len(got), len(want))
	}
}

// FuzzPassthroughVerbatim: on any text input (lines within the parser's
// length; not binary, not compressed), passthrough without reports gives
// the input back byte for byte.
func FuzzPassthroughVerbatim(f *testing.F) {
	for _, log := range []string{"../testdata/demo/session.log", "../testdata/reports/mixed_ci.log", "../testdata/reports/go_race.log"} {
		if b, err := os.ReadFile(log); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("no newline at the end"))
	f.Add([]byte("================\nWARNING: DATA RACE\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, l := range bytes.Split(in, []byte("\n")) {
			if len(l) > parse.MaxLineLen {
				return
			}
		}
		for _, m := range magics {
			if bytes.HasPrefix(in, []byte(m.magic)) {
				return
			}
		}
		if _, _, err := sniff("-", bytes.NewReader(in), 0); err != nil {
			return // binary: refused, tested in input_test.go
		}
		if got := passthroughRun(t, in, keepNone); !bytes.Equal(got, in) {
			t.Errorf("passthrough changed the input:\n%q\n%q", in, got)
		}
	})
}
