package render

import (
	"strings"

	"github.com/sanitrace/sanitrace/internal/termsafe"
)

// Sections is implemented by the writers whose output marks where each
// input of a run begins and ends the run with a count (text, when a run
// has several inputs): a reader of one long output sees which file a
// report came from and what sanitrace did.
type Sections interface {
	// BeginInput writes the header of the input called name.
	BeginInput(name string) error
	// EndRun writes the closing line.
	EndRun(RunStats) error
}

// RunStats is what a run showed, for its closing line.
type RunStats struct {
	Inputs     int // inputs given
	Reports    int // bug reports shown
	HeapDumps  int // libwebsockets heap dumps shown
	Symbolized int // frames sanitrace symbolized in them
	NotFound   int // modules named by the logs and not found
	Unusable   int // modules found but not usable (warned about on stderr)
	// Unreported counts the inputs that looked like a crash but gave no
	// report (said on stderr).
	Unreported int
	// Fragments counts the unattached fragments shown (frames outside
	// any report): not reports.
	Fragments int
}

// BeginInput writes "==> NAME <==" (head(1)'s header for several files),
// after a blank line when something came before.
func (t *Text) BeginInput(name string) error {
	if t.wrote {
		t.line("")
	}
	if name == "-" {
		name = "standard input"
	}
	t.line(t.pal.title.Sprint("==> " + termsafe.Text(name) + " <=="))
	t.n = 0 // the first report under a header needs no separator
	return t.flush()
}

// EndRun writes the closing line: "3 reports in 2 files; 41 frames
// symbolized, 2 modules not found".
func (t *Text) EndRun(s RunStats) error {
	if t.wrote {
		t.line("")
	}
	t.line(t.pal.summary.Sprint(s.String()))
	return t.flush()
}

// String is the closing line's text.
func (s RunStats) String() string {
	b := plural(s.Reports, "report") + " in " + plural(s.Inputs, "file")
	if s.HeapDumps > 0 {
		b += ", " + plural(s.HeapDumps, "heap dump")
	}
	if s.Fragments > 0 {
		b += ", " + plural(s.Fragments, "unattached fragment")
	}
	if s.Unreported > 0 {
		b += ", " + plural(s.Unreported, "file") + " with crash lines but no report"
	}
	var more []string
	more = append(more, plural(s.Symbolized, "frame")+" symbolized")
	if s.NotFound > 0 {
		more = append(more, plural(s.NotFound, "module")+" not found")
	}
	if s.Unusable > 0 {
		more = append(more, plural(s.Unusable, "module")+" unusable")
	}
	return b + "; " + strings.Join(more, ", ")
}
