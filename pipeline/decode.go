package pipeline

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/resolve"
)

// Decode is the flow of `sanitrace decode`.
type Decode struct {
	// Resolver fills in unsymbolized frames; nil leaves them as printed.
	Resolver *resolve.Resolver
	// Writer renders the reports into Out.
	Writer render.Writer
	// Out is the buffered output that Writer writes to; Decode flushes it.
	Out *bufio.Writer
	// Stdin is read for the input "-"; Stderr gets one line per
	// unreadable input and per malformed lws record.
	Stdin  io.Reader
	Stderr io.Writer
}

// DecodeResult says what a run found.
type DecodeResult struct {
	// Found counts the reports that are bugs (heap dumps are not).
	Found int
	// Unreadable is set when an input could not be opened or read.
	Unreadable bool
}

// WriteError is a failure to write the output, which ends the run.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return "write output: " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }

// Run decodes the inputs in order (none means stdin), closes the Writer
// and flushes Out. The error is a *WriteError or nil; unreadable inputs
// are reported on Stderr and in the result.
func (d *Decode) Run(inputs []string) (DecodeResult, error) {
	var res DecodeResult
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, name := range inputs {
		n, err := d.input(name)
		res.Found += n
		if err != nil {
			var we *WriteError
			if errors.As(err, &we) {
				return res, err
			}
			fmt.Fprintf(d.Stderr, "sanitrace: %v\n", err)
			res.Unreadable = true
		}
	}
	if err := d.Writer.Close(); err != nil {
		return res, &WriteError{err}
	}
	if err := d.Out.Flush(); err != nil {
		return res, &WriteError{err}
	}
	return res, nil
}

// input streams one input: each report is symbolized and rendered (and
// flushed) as soon as the parser completes it. It returns the number of
// reports that are bugs.
func (d *Decode) input(name string) (int, error) {
	r := d.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return 0, err // *PathError: "open NAME: reason"
		}
		defer f.Close()
		r = f
	}
	sc := parse.NewScanner(r, name)
	sc.OnRecordError(func(e *parse.RecordError) { fmt.Fprintln(d.Stderr, e) })
	sc.OnDamage(func(e *parse.Damage) { fmt.Fprintln(d.Stderr, e) })
	found := 0
	for {
		rep, err := sc.Next()
		if err == io.EOF {
			return found, nil
		}
		if err != nil {
			return found, fmt.Errorf("read %s: %w", name, err)
		}
		if !report.IsHeapDump(rep) {
			found++ // heap dumps are not bug reports
		}
		if d.Resolver != nil {
			d.Resolver.Report(rep)
		}
		if err := d.Writer.Report(rep); err != nil {
			return found, &WriteError{err}
		}
		// Flush when the next report may have to wait for input (a live
		// pipe); a file or a burst of input is written in large blocks.
		if sc.Buffered() > 0 {
			continue
		}
		if err := d.Out.Flush(); err != nil {
			return found, &WriteError{err}
		}
	}
}
