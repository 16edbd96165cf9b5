package pipeline

import (
	"bufio"
	"io"

	"github.com/sanitrace/sanitrace/internal/gctune"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/render"
)

// Passthrough gives the whole input back: the scanner hands out every
// line outside the reports as soon as it is settled, and each report with
// the lines of its range (parse.Item); a report's own lines are replaced
// by its rendering, the other lines of its range (another writer's output
// between them) follow it, and a report that is not kept (--tool, --kind)
// comes back as read.
func (d *Decode) passthrough(sc *parse.Scanner, in *flushBefore, stats *render.RunStats, gc *gctune.Tuner) error {
	var scratch []byte
	write := func(line []byte) error {
		if d.SanitizePassthrough {
			scratch = termsafe.AppendLine(scratch[:0], line)
			line = scratch
		}
		if _, err := d.Out.Write(line); err != nil {
			return &WriteError{err}
		}
		return nil
	}
	for {
		if in.err != nil {
			return &WriteError{in.err}
		}
		it, err := sc.NextItem()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err // the scanner's error names the input
		}
		if it.Report == nil {
			if err := write(it.Line); err != nil {
				return err
			}
			continue
		}
		keep := d.Keep == nil || d.Keep(it.Report)
		if keep {
			if err := d.deliver(it.Report, stats); err != nil {
				return &WriteError{err}
			}
		}
		for _, l := range it.Lines {
			if keep && l.Own {
				continue
			}
			if err := write(l.Text); err != nil {
				return err
			}
		}
		gc.Tick()
	}
}

// flushBefore flushes the output before each read of its input: the next
// read may wait for a live writer, and whoever watches the output must see
// what the scanner has settled so far. A failed flush ends the input.
type flushBefore struct {
	r   io.Reader
	out *bufio.Writer
	err error
}

func (f *flushBefore) Read(p []byte) (int, error) {
	if f.err == nil {
		f.err = f.out.Flush()
	}
	if f.err != nil {
		return 0, f.err
	}
	return f.r.Read(p)
}
