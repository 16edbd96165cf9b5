package render

import (
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// heapDump writes a libwebsockets heap dump compactly: the headline, then
// one line per allocation. An allocation none of whose frames is known
// beyond its pc keeps its pcs on that line (as lws's "~b#" line does); one
// with symbolized frames lists them under it, one per line.
func (t *Text) heapDump(r *report.Report) error {
	p := t.pal
	t.line(p.summary.Sprint(r.Headline)) // bold, not the red of a bug report
	for _, s := range r.Stacks {
		if !anyKnown(s.Frames) {
			var b strings.Builder
			for _, f := range s.Frames {
				fmt.Fprintf(&b, " 0x%x", f.PC)
			}
			t.line("  " + p.title.Sprint(s.Title+":") + b.String())
			continue
		}
		t.line("  " + p.title.Sprint(s.Title+":"))
		t.stack(s)
	}
	return t.flush()
}

// anyKnown reports whether a frame says more than its pc.
func anyKnown(fs []report.Frame) bool {
	for _, f := range fs {
		if f.Function != "" || f.File != "" || f.Module != "" {
			return true
		}
	}
	return false
}
