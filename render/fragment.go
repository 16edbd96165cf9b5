package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/wire"
)

// FragmentWriter is a Writer that also shows unattached fragments
// (report.Fragment): frames outside every report, which are shown apart
// from the reports, marked as what they are, and never counted as one.
// The text and JSON writers are FragmentWriters.
type FragmentWriter interface {
	Fragment(*report.Fragment) error
}

// FragmentHead is how the text writer introduces an unattached fragment:
// a line no report starts with, so that neither a reader nor a tool that
// scans for reports takes the frames under it for a crash of their own.
const FragmentHead = "-- unattached fragment"

// Fragment writes an unattached fragment: its head line (the input lines
// it spans and why it stands alone), each stack's title and frames in the
// sanitizer layout with the frames' own numbers, its SUMMARY as printed.
func (t *Text) Fragment(f *report.Fragment) error {
	if f == nil {
		return errors.New("render text: nil fragment")
	}
	// Escaped as a report is: every string of it came from the input.
	r := safeReport(&report.Report{Stacks: f.Stacks, Summary: report.Summary{Text: f.Summary}, Input: f.Input})
	if t.n > 0 && !t.opts.Passthrough {
		t.line("")
	}
	t.n++
	t.producer = report.ProducerSanitizer
	p := t.pal
	lines := fmt.Sprintf("line %d", r.Input.FirstLine)
	if r.Input.LastLine > r.Input.FirstLine {
		lines = fmt.Sprintf("lines %d-%d", r.Input.FirstLine, r.Input.LastLine)
	}
	t.line(p.dim.Sprint(fmt.Sprintf("%s (%s): %s outside any report; the report they belong to is not in the input --",
		FragmentHead, lines, plural(f.Frames, "frame line"))))
	for _, s := range r.Stacks {
		if s.Title != "" {
			t.line("  " + p.title.Sprint(s.Title))
		}
		t.fragmentStack(s)
	}
	if r.Summary.Text != "" {
		t.line(p.summary.Sprint("SUMMARY: " + r.Summary.Text))
	}
	return t.flush()
}

// fragmentStack writes a fragment's frames: each line as printed (a
// fragment's frames come from more than one format: sanitizer frames,
// tombstone frames), a frame sanitrace symbolized in the sanitizer layout
// with the frame's own number.
func (t *Text) fragmentStack(s report.Stack) {
	for i, f := range s.Frames {
		if f.Symbolized != report.SymbolizedSanitrace && f.Raw != "" {
			// A Go frame is two lines: its location goes under its
			// function, indented further, as the runtime prints it.
			raw, loc, two := strings.Cut(f.Raw, "\n")
			l := frameIndent + t.paintFrame(f, strings.TrimSpace(raw))
			if f.Unparsed {
				l += t.pal.marker.Sprint(UnparsedMarker)
			}
			t.line(l)
			if two {
				t.line(frameIndent + "    " + strings.TrimSpace(loc))
			}
			continue
		}
		t.line(t.frame(frameNumber(s.Frames, i), &s.Frames[i]))
	}
}

// maxJSONFragments bounds the fragments a JSON document holds (they wait
// for the end of the reports' array): past it they are counted only.
const maxJSONFragments = 10000

// Fragment keeps an unattached fragment for the document's "fragments",
// written at Close after the reports.
func (j *JSON) Fragment(f *report.Fragment) error {
	if j.closed {
		return errors.New("render json: fragment after Close")
	}
	if f == nil {
		return errors.New("render json: nil fragment")
	}
	if len(j.frags) >= maxJSONFragments {
		j.fragsOmitted++
		return nil
	}
	j.frags = append(j.frags, wire.FragmentOf(f))
	return nil
}

// fragmentsTail is the document's "fragments" member (with its leading
// comma), "" when there were none.
func (j *JSON) fragmentsTail() (string, error) {
	if len(j.frags) == 0 {
		return "", nil
	}
	var b []byte
	b = append(b, ",\n  \"fragments\": ["...)
	for i, f := range j.frags {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		j.compact.Reset()
		if err := j.enc.Encode(f); err != nil {
			return "", fmt.Errorf("render json: fragment from %s line %d: %w", f.Input.Name, f.Input.FirstLine, err)
		}
		c := j.compact.Bytes()
		b = appendIndent(b, c[:len(c)-1], "    ", "  ")
	}
	b = append(b, "\n  ]"...)
	if j.fragsOmitted > 0 {
		b = append(b, fmt.Sprintf(",\n  \"fragments_omitted\": %d", j.fragsOmitted)...)
	}
	return string(b), nil
}
