package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/report"
)

const asanLog = "../testdata/reports/asan_use_after_free_gcc_O0.symbolized.log"

func TestDecodeCountsAndGoesOnAfterUnreadable(t *testing.T) {
	var out, stderr bytes.Buffer
	bw := bufio.NewWriter(&out)
	w, err := render.New("json", bw, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.log")
	d := &Decode{Writer: w, Out: bw, Stdin: strings.NewReader("~b#size: 8, 0x1 0x2\n"), Stderr: &stderr}
	res, err := d.Run([]string{asanLog, missing, "-"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found != 1 || !res.Unreadable {
		t.Errorf("result %+v, want 1 report (the heap dump does not count) and an unreadable input", res)
	}
	if !strings.Contains(stderr.String(), "sanitrace: "+missing+": no such file or directory") {
		t.Errorf("stderr %q does not name the missing input", stderr.String())
	}
	if n := strings.Count(out.String(), `"tool": `); n != 2 {
		t.Errorf("%d reports written, want 2:\n%s", n, out.String())
	}
	if !strings.HasSuffix(out.String(), "]\n}\n") {
		t.Errorf("the document is not closed:\n%s", out.String())
	}
}

// failWriter fails every write: the output is gone.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestDecodeStopsWhenTheOutputFails(t *testing.T) {
	bw := bufio.NewWriterSize(failWriter{}, 16)
	w, _ := render.New("text", bw, render.Options{})
	d := &Decode{Writer: w, Out: bw, Stderr: &bytes.Buffer{}}
	_, err := d.Run([]string{asanLog, asanLog})
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, os.ErrClosed) {
		t.Fatalf("err = %v, want a *WriteError wrapping the write failure", err)
	}
}

// recorder is a Writer that keeps what it is given.
type recorder struct {
	reports []*report.Report
	closed  bool
}

func (r *recorder) Report(rep *report.Report) error { r.reports = append(r.reports, rep); return nil }
func (r *recorder) Close() error                    { r.closed = true; return nil }

func TestDecodeHandsReportsInOrder(t *testing.T) {
	var rec recorder
	bw := bufio.NewWriter(&bytes.Buffer{})
	d := &Decode{Writer: &rec, Out: bw, Stdin: strings.NewReader(""), Stderr: &bytes.Buffer{}}
	if _, err := d.Run([]string{asanLog, "../testdata/reports/gdb_bt.log"}); err != nil {
		t.Fatal(err)
	}
	if len(rec.reports) != 2 || rec.reports[0].Tool != "AddressSanitizer" || rec.reports[1].Tool != "gdb" || !rec.closed {
		t.Errorf("got %d reports, closed %v", len(rec.reports), rec.closed)
	}
}
