package pipeline

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/decompress/lwsheap"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/resolve"
)

// LWS is the flow of `sanitrace lws decode` and `sanitrace lws heapmap`.
type LWS struct {
	// Static symbolizes the records' pcs (--obj, --base); nil prints pcs
	// only.
	Static *resolve.PCSymbolizer
	// Out is the buffered output; the runs flush it.
	Out *bufio.Writer
	// Stdin is read for the input "-"; Stderr gets one line per
	// unreadable input and per malformed record.
	Stdin  io.Reader
	Stderr io.Writer
}

// Decode prints every record of the inputs (none means stdin) as its ~b#
// line and, with Static, its frames under it, as decode prints frames.
// failed is set when an input could not be read; the error is a
// *WriteError.
func (l *LWS) Decode(inputs []string) (failed bool, err error) {
	var line []byte
	failed, err = l.records(inputs, func(in lwsInput, rec *decompress.Record) error {
		line = decompress.AppendB(line[:0], rec.Backtrace)
		line = append(line, '\n')
		if l.Static != nil {
			line = appendFrames(line, l.Static.Frames(rec.PCs))
		}
		if _, err := l.Out.Write(line); err != nil {
			return &WriteError{err}
		}
		return nil
	}, nil)
	if err != nil {
		return failed, err
	}
	if err := l.Out.Flush(); err != nil {
		return failed, &WriteError{err}
	}
	return failed, nil
}

// Heapmap aggregates the records of the inputs into one heap map and
// writes it in format (render.CheckHeapMapFormat: text or json).
func (l *LWS) Heapmap(inputs []string, format string) (failed bool, err error) {
	hm := lwsheap.New()
	failed, err = l.records(inputs, func(in lwsInput, rec *decompress.Record) error {
		return hm.Add(in.source(), rec.Line, rec.Backtrace)
	}, func(in lwsInput, rec *decompress.Record) {
		hm.AddUndecodable(in.source(), rec.Line, rec.Text, rec.Err)
	})
	if err != nil {
		return failed, err
	}
	ins := lwsInputs(inputs)
	var frames func(*lwsheap.Group) []report.Frame
	if l.Static != nil {
		frames = func(g *lwsheap.Group) []report.Frame { return l.Static.Frames(g.PCs) }
	}
	opts := render.HeapMapOptions{Source: lwsSource(ins), Multi: len(ins) > 1, Frames: frames}
	if err := render.WriteHeapMap(l.Out, format, hm, opts); err != nil {
		return failed, &WriteError{err}
	}
	if err := l.Out.Flush(); err != nil {
		return failed, &WriteError{err}
	}
	return failed, nil
}

// records scans the inputs and hands each decoded record to use; a record
// that fails to decode, or that use refuses, gets a line on Stderr and is
// handed to bad (when not nil). A *WriteError from use ends the scan.
func (l *LWS) records(inputs []string, use func(lwsInput, *decompress.Record) error, bad func(lwsInput, *decompress.Record)) (failed bool, err error) {
	for _, in := range lwsInputs(inputs) {
		r, closeIn, err := l.open(in)
		if err != nil {
			fmt.Fprintf(l.Stderr, "sanitrace: lws: %s\n", termsafe.Line(err.Error()))
			failed = true
			continue
		}
		sc := decompress.NewScanner(r)
		for sc.Scan() {
			rec := sc.Record()
			if rec.Err == nil {
				rec.Err = use(in, rec)
				if _, ok := rec.Err.(*WriteError); ok {
					closeIn()
					return failed, rec.Err
				}
			}
			if rec.Err != nil {
				fmt.Fprintf(l.Stderr, "%s:%d: %s record: %s\n", termsafe.Line(in.name), rec.Line, kindName(rec.Kind), termsafe.Line(rec.Err.Error()))
				if bad != nil {
					bad(in, rec)
				}
			}
		}
		if err := sc.Err(); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) { // it names the file already: no "read X: line 1: read X:"
				err = pe
			} else {
				err = fmt.Errorf("read %s: %w", in.name, err)
			}
			fmt.Fprintf(l.Stderr, "sanitrace: lws: %s\n", termsafe.Line(err.Error()))
			failed = true
		}
		closeIn()
	}
	return failed, nil
}

// appendFrames appends a record's frames under its ~b# line, one per line
// as the text writer prints a stack.
func appendFrames(dst []byte, frames []report.Frame) []byte {
	for i, f := range frames {
		dst = append(dst, "    "...)
		dst = append(dst, render.FrameText(i, f)...)
		dst = append(dst, '\n')
	}
	return dst
}

// lwsInput is one input to read: a path, or "-" for stdin.
type lwsInput struct {
	path string
	name string // for messages: the path, or <stdin>
}

// source is the input as a heap map names it: its base name.
func (in lwsInput) source() string { return filepath.Base(in.path) }

func lwsInputs(args []string) []lwsInput {
	if len(args) == 0 {
		args = []string{"-"}
	}
	in := make([]lwsInput, len(args))
	for i, a := range args {
		in[i] = lwsInput{path: a, name: a}
		if a == "-" {
			in[i].name = "<stdin>"
		}
	}
	return in
}

func (l *LWS) open(in lwsInput) (io.Reader, func(), error) {
	if in.path == "-" {
		return l.Stdin, func() {}, nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, nil, err // *PathError names the file
	}
	return f, func() { f.Close() }, nil
}

// lwsSource is the heap map's "source": the input's base name ("-" for
// stdin), or the base names joined by ", " when several inputs were read.
func lwsSource(inputs []lwsInput) string {
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.source()
	}
	return strings.Join(names, ", ")
}

func kindName(kind byte) string {
	if kind == decompress.KindB {
		return "~b#"
	}
	return "~m#"
}
