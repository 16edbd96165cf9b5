package parse

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// items returns every item of in read with KeepLines, each report's lines
// copied.
func items(t testing.TB, in []byte) []Item {
	t.Helper()
	sc := NewScanner(bytes.NewReader(in), "-")
	sc.KeepLines()
	var its []Item
	for {
		it, err := sc.NextItem()
		if err == io.EOF {
			return its
		}
		if err != nil {
			t.Fatal(err)
		}
		it.Lines = append([]Line(nil), it.Lines...)
		its = append(its, it)
	}
}

// TestItems: the items of every sample log are the input, line for line
// and in order, and their reports are Next's.
func TestItems(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "reports", "*.log"))
	for _, path := range logs {
		in, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var back bytes.Buffer
		var reps []any
		next := 1
		for _, it := range items(t, in) {
			if it.Report == nil {
				back.Write(it.Line)
				next++
				continue
			}
			reps = append(reps, it.Report)
			r := it.Report.Input
			if len(it.Lines) != r.LastLine-r.FirstLine+1 || it.Lines[0].No != r.FirstLine || r.FirstLine != next {
				t.Errorf("%s: report at lines %d-%d comes with %d lines from %d, after line %d",
					filepath.Base(path), r.FirstLine, r.LastLine, len(it.Lines), it.Lines[0].No, next-1)
			}
			for _, l := range it.Lines {
				back.Write(l.Text)
			}
			next = r.LastLine + 1
		}
		if !bytes.Equal(back.Bytes(), in) {
			t.Errorf("%s: the items are not the input", filepath.Base(path))
		}
		want, _ := json.Marshal(parseAll(t, bytes.NewReader(in), "-"))
		got, _ := json.Marshal(reps)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the items' reports differ from Next's", filepath.Base(path))
		}
	}
}

// TestItemsLongLine: a line longer than MaxLineLen+1 bytes comes out cut
// there, with a line end; the last line keeps its missing one.
func TestItemsLongLine(t *testing.T) {
	long := strings.Repeat("x", MaxLineLen+100)
	var got []string
	for _, it := range items(t, []byte("a\n"+long+"\nb")) {
		got = append(got, string(it.Line))
	}
	want := []string{"a\n", long[:MaxLineLen+1] + "\n", "b"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("got %d items: %q", len(got), got)
	}
}
