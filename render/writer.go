package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Writer writes reports in one output format. Report takes the reports of
// a stream one at a time, as the producer completes them, so nothing has
// to hold a whole log; Close ends the document (JSON's closing bracket).
// A Writer never closes the io.Writer it writes to, and writes each report
// through to it before Report returns, so a caller that buffers the output
// decides when it is flushed.
//
// Formats for a whole run (batch: buckets with their reports) are chosen
// by the same name table; they take the run's document, not a stream.
type Writer interface {
	Report(*report.Report) error
	Close() error
}

// Options configure the writers; each format reads the fields it knows.
type Options struct {
	// Color turns ANSI colors on. The caller resolves it from
	// --color auto|always|never, NO_COLOR and whether the output is a
	// terminal; the renderer never looks at the environment itself.
	Color bool
	// SourceContext is the number of source lines printed above and below
	// the line of each user frame (--source-context N); 0 prints none.
	SourceContext int
	// SourcePath maps a source path as the report names it to a path that
	// can be opened here (prefix maps). nil means the identity.
	SourcePath func(string) string
	// Passthrough: the reports stand in the input's own lines (decode
	// --passthrough), so the text writer sets them apart with nothing of
	// its own; the input's lines around them do that.
	Passthrough bool
	// UserFrames collapses each run of frames outside the program's own
	// code (sanitizer runtime, interceptors, libc, C++ runtime) into one
	// line in text (--frames user).
	UserFrames bool
	// InApp, when set, says which frames are the program's own in place
	// of the model's classification (stack-trace rules: triage/rules).
	InApp func(report.Producer, *report.Frame) bool
}

// formats are the report formats by name, in the order usage messages
// list them.
var formats = byName[func(io.Writer, Options) Writer]{
	{"text", func(w io.Writer, o Options) Writer { return NewText(w, o) }},
	{"json", func(w io.Writer, _ Options) Writer { return NewJSON(w) }},
}

// Formats lists the names New accepts.
func Formats() []string { return formats.names() }

// New returns the Writer of the format called name, writing to w.
func New(name string, w io.Writer, opts Options) (Writer, error) {
	f, err := formats.lookup(name)
	if err != nil {
		return nil, err
	}
	return f(w, opts), nil
}

// byName is a table of output formats, each name with what writes it,
// in the order usage messages list them. Every kind of document (a
// stream of reports, a batch run, a heap map, a core) has one.
type byName[F any] []struct {
	name  string
	write F
}

func (t byName[F]) names() []string {
	names := make([]string, len(t))
	for i, f := range t {
		names[i] = f.name
	}
	return names
}

// lookup returns the writer of the format called name, or the error a
// usage message shows: `format "x": want a, b or c`.
func (t byName[F]) lookup(name string) (F, error) {
	for _, f := range t {
		if f.name == name {
			return f.write, nil
		}
	}
	var none F
	return none, fmt.Errorf("format %q: want %s", name, oneOf(t.names()))
}

// oneOf spells a choice: "a", "a or b", "a, b or c".
func oneOf(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
