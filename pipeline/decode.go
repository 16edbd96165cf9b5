package pipeline

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/sanitrace/sanitrace/internal/gctune"
	"github.com/sanitrace/sanitrace/internal/termsafe"
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

	// Passthrough writes the whole input back, each report replaced by
	// its rendering (Writer must be the text writer made with
	// render.Options.Passthrough).
	Passthrough bool
	// SanitizePassthrough spells the control characters of the input's
	// own lines as \xHH (termsafe), as the rendered reports' text always
	// is; without it passthrough gives those lines back byte for byte.
	SanitizePassthrough bool
	// Keep selects the reports that are shown and counted (--tool,
	// --kind); nil keeps every one. A report not kept is skipped, or in
	// passthrough written back as read.
	Keep func(*report.Report) bool
	// Quiet renders nothing: the run only counts (decode -q).
	Quiet bool
	// Sections marks each input with a header and ends the run with a
	// count, when Writer supports it (render.Sections: text).
	Sections bool
}

// DecodeResult says what a run found.
type DecodeResult struct {
	// Found counts the reports that are bugs (heap dumps are not).
	Found int
	// Unreported counts the inputs that looked like a crash but yielded
	// no report (parse.Unreported): never a silent clean run.
	Unreported int
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
	sec, _ := d.Writer.(render.Sections)
	if !d.Sections || d.Quiet {
		sec = nil
	}
	stats := render.RunStats{Inputs: len(inputs)}
	gc := gctune.StartUnlessSet(decodeGC)
	defer gc.Stop()
	for _, name := range inputs {
		if sec != nil {
			if err := sec.BeginInput(name); err != nil {
				return res, &WriteError{err}
			}
		}
		err := d.input(name, &stats, gc)
		if err != nil {
			var we *WriteError
			if errors.As(err, &we) {
				return res, err
			}
			fmt.Fprintf(d.Stderr, "sanitrace: %s\n", termsafe.Line(err.Error()))
			res.Unreadable = true
		}
	}
	res.Found = stats.Reports
	res.Unreported = stats.Unreported
	if sec != nil {
		if d.Resolver != nil {
			stats.NotFound, stats.Unusable = d.Resolver.Unresolved()
		}
		if err := sec.EndRun(stats); err != nil {
			return res, &WriteError{err}
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
// flushed) as soon as the parser completes it, and in passthrough every
// other line as soon as the parser has settled it. It adds what it shows
// to stats.
func (d *Decode) input(name string, stats *render.RunStats, gc *gctune.Tuner) error {
	rc, compressed, err := openLog(name, d.Stdin)
	if err != nil {
		return err
	}
	if !d.Passthrough || d.Quiet {
		if compressed {
			// Decompression runs beside the parser, off its critical
			// path. A plain log's reads cost less than the hand-over
			// would (docs/performance.md).
			rc = newReadAhead(rc)
		}
		defer rc.Close()
		return d.inputParallel(parse.NewScanner(rc, name), stats, gc)
	}
	defer rc.Close()
	in := &flushBefore{r: rc, out: d.Out}
	sc := parse.NewScanner(in, name)
	sc.KeepLines()
	sc.OnRecordError(func(e *parse.RecordError) { fmt.Fprintln(d.Stderr, termsafe.Line(e.Error())) })
	sc.OnDamage(func(e *parse.Damage) { fmt.Fprintln(d.Stderr, termsafe.Line(e.Error())) })
	sc.OnUnreported(func(e *parse.Unreported) {
		stats.Unreported++
		fmt.Fprintln(d.Stderr, termsafe.Line(e.Error()))
	})
	return d.passthrough(sc, in, stats, gc)
}

// countSymbolized counts the frames sanitrace symbolized in rep.
func countSymbolized(rep *report.Report) int {
	n := 0
	for _, s := range rep.Stacks {
		for _, f := range s.Frames {
			if f.Symbolized == report.SymbolizedSanitrace {
				n++
			}
		}
	}
	return n
}

// inputParallel is input without passthrough: parsing and the rest
// (selecting, symbolizing, rendering, writing) run on two goroutines
// joined by a short queue, so that a large log keeps two cores busy; each
// half is about half of decode's CPU. The queue also carries the scanner's
// notices, so that stderr keeps a single thread's order. (Passthrough
// writes the input's lines as the parser settles them, in between the
// reports, and stays on one goroutine.)
func (d *Decode) inputParallel(sc *parse.Scanner, stats *render.RunStats, gc *gctune.Tuner) error {
	sc.DeferFill() // the writer completes the reports (writeBatch)
	items := make(chan []decodeItem, decodeQueue)
	stop := make(chan struct{})
	werr := make(chan error, 1)
	go func() { werr <- d.writeItems(items, stop, stats, gc) }()
	batch := make([]decodeItem, 0, decodeBatch)
	handOver := func() bool {
		b := batch
		batch = make([]decodeItem, 0, decodeBatch)
		select {
		case items <- b:
			return true
		case <-stop:
			return false
		}
	}
	// send adds it to the batch, and hands the batch over when it is full
	// or when the next line may have to wait for input (a live pipe),
	// flushing the output after it then; a file or a burst of input is
	// handed over and written in large blocks.
	send := func(it decodeItem) bool {
		it.flush = sc.Buffered() == 0
		batch = append(batch, it)
		return len(batch) < decodeBatch && !it.flush || handOver()
	}
	sc.OnRecordError(func(e *parse.RecordError) { send(decodeItem{note: e.Error()}) })
	sc.OnDamage(func(e *parse.Damage) { send(decodeItem{note: e.Error()}) })
	if _, ok := d.Writer.(render.FragmentWriter); ok {
		sc.OnFragment(func(f *report.Fragment) { send(decodeItem{frag: f}) })
	}
	sc.OnUnreported(func(e *parse.Unreported) { send(decodeItem{note: e.Error(), unreported: true}) })
	var rerr error
	for {
		rep, err := sc.Next()
		if err != nil {
			if err != io.EOF {
				rerr = err // the scanner's error names the input
			}
			break
		}
		if !send(decodeItem{rep: rep}) {
			break
		}
	}
	if len(batch) > 0 {
		handOver()
	}
	close(items)
	if err := <-werr; err != nil {
		return err
	}
	return rerr
}

// The parser hands reports to the writer decodeBatch at a time: a
// hand-over that wakes the writer costs a futex call and two context
// switches, which one report at a time made 8% of a dense log's CPU.
// Up to decodeQueue batches wait, so memory stays bounded by a few dozen
// reports.
const (
	decodeBatch = 16
	decodeQueue = 2
)

// decodeItem is a parsed report or a notice for stderr, in input order.
type decodeItem struct {
	rep   *report.Report
	frag  *report.Fragment // an unattached fragment (then rep is nil)
	flush bool             // flush the output after this report
	note  string           // a line for stderr
	// unreported: note says the input looked like a crash and yielded
	// no report.
	unreported bool
}

// deliver counts a report that was kept and, unless Quiet, symbolizes it
// and hands it to the Writer, whose error it returns.
func (d *Decode) deliver(rep *report.Report, stats *render.RunStats) error {
	if !report.IsHeapDump(rep) {
		stats.Reports++ // heap dumps are not bug reports
	} else {
		stats.HeapDumps++
	}
	if d.Quiet {
		return nil
	}
	if d.Resolver != nil {
		d.Resolver.Report(rep)
	}
	stats.Symbolized += countSymbolized(rep)
	return d.Writer.Report(rep)
}

// deliverFragment counts an unattached fragment and, unless Quiet,
// symbolizes it and hands it to the Writer (a render.FragmentWriter). It
// is not a report: --tool and --kind do not select it, and it does not
// count as one.
func (d *Decode) deliverFragment(f *report.Fragment, stats *render.RunStats) error {
	stats.Fragments++
	if d.Quiet {
		return nil
	}
	if d.Resolver != nil {
		d.Resolver.Fragment(f)
	}
	for _, s := range f.Stacks {
		for _, fr := range s.Frames {
			if fr.Symbolized == report.SymbolizedSanitrace {
				stats.Symbolized++
			}
		}
	}
	return d.Writer.(render.FragmentWriter).Fragment(f)
}

// writeItems does for each item what input does after parsing, until the
// queue closes or a write fails: then it closes stop (the parser gives
// up), drains the queue and returns the *WriteError.
func (d *Decode) writeItems(items <-chan []decodeItem, stop chan<- struct{}, stats *render.RunStats, gc *gctune.Tuner) error {
	fail := func(err error) error {
		close(stop)
		for range items { // the parser's last sends
		}
		return &WriteError{err}
	}
	for batch := range items {
		if err := d.writeBatch(batch, stats, gc); err != nil {
			return fail(err)
		}
	}
	return nil
}

// writeBatch writes a batch of writeItems'; an error is the writer's.
func (d *Decode) writeBatch(batch []decodeItem, stats *render.RunStats, gc *gctune.Tuner) error {
	for _, it := range batch {
		rep := it.rep
		if it.frag != nil {
			if err := d.deliverFragment(it.frag, stats); err != nil {
				return err
			}
			continue
		}
		if rep == nil {
			if it.unreported {
				stats.Unreported++
			}
			fmt.Fprintln(d.Stderr, termsafe.Line(it.note))
			continue
		}
		parse.Complete(rep)
		if d.Keep == nil || d.Keep(rep) {
			if err := d.deliver(rep, stats); err != nil {
				return err
			}
		}
		gc.Tick()
		if it.flush {
			if err := d.Out.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}
