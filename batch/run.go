package batch

import (
	"fmt"
	"github.com/sanitrace/sanitrace/internal/gctune"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/sanitrace/sanitrace/batch/artifact"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/resolve"
	"github.com/sanitrace/sanitrace/triage/rules"
	"github.com/sanitrace/sanitrace/wire"
)

// Options configure a batch run.
type Options struct {
	// Jobs is the number of logs decoded at once; <= 0 means one per CPU.
	Jobs   int
	Limits artifact.Limits
	Shard  Shard // the zero Shard takes every log

	// Symbolize fills in unsymbolized frames, as decode does.
	Symbolize bool
	// Finder finds modules and debug files on disk after the inputs' own
	// binaries (--binary-dir, --prefix-map, --sysroot,
	// --debug-file-directory, build-ids); nil means one with the defaults.
	Finder *debuginfo.Finder
	// CacheBytes bounds the modules the workers' shared cache keeps open
	// (--cache-size): modcache.Options.MaxBytes, 0 meaning
	// modcache.DefaultMaxBytes. A worker holds the modules of the report
	// it resolves; the others are closed past the bound.
	CacheBytes int64

	// BarePCs symbolizes the frames whose log names no module
	// (libwebsockets ~m# records), as decode's --obj does. The workers'
	// resolvers share it: they only read its address ranges and look up
	// through its symbolize.Object, which is safe for concurrent use.
	BarePCs *resolve.PCSymbolizer
	// Vmlinux and ModulesDir resolve Linux kernel frames, as decode's
	// --vmlinux and --modules-dir do; the files open through the run's
	// module cache, once.
	Vmlinux, ModulesDir string

	// Rules decide which frames are in-app and in groups (signatures,
	// the documents' user frames): the built-in rules followed by a
	// user's file; nil means rules.Defaults.
	Rules *rules.Set
	// GroupSimilar joins buckets of one tool and kind whose signatures
	// share their first SimilarFrames in-app frames (--group similar).
	GroupSimilar bool

	// Baseline holds the bucket ids of a previous run; a bucket absent from
	// it is new. nil: no baseline, nothing is new.
	Baseline map[string]bool

	// Stdin is the input "-".
	Stdin io.Reader
	// Warn receives each distinct message about a damaged log, from one
	// goroutine at a time. nil drops them.
	Warn func(string)
	// ModuleNote receives each distinct message about a module that
	// cannot be used or verified (the resolvers' notes), from one
	// goroutine at a time; nil sends them to Warn. (batch's -q and
	// --warnings=summary act on these.)
	ModuleNote func(string)
	// Progress, when set, is told the number of logs to decode and each
	// one decoded.
	Progress Progress
	// Unopened, when set, is told each path of the command line that
	// cannot be opened at all (a usage error); in every shard, and the
	// document lists it in its errors too.
	Unopened func(path string)

	// opened, when set, is told every module the run opens (tests count).
	opened func(key string)
	// decoded, when set, is given every report a worker has decoded,
	// before it is signed (tests panic in it).
	decoded func(*report.Report)
}

// Progress follows a run: Total once the inputs are counted, then Done per
// log decoded (from one goroutine at a time).
type Progress interface {
	Total(n int)
	Done()
}

// item is one report on its way into the document: its signature, made
// from the model (Signature), and its batch form (wire.BatchReportOf), made
// once by the worker that parsed it, so that a run holds no parsed report.
// Merge makes items of documents read back, their signatures the shards'.
type item struct {
	rep  wire.BatchReport
	sig  string
	from string // Sig.From
}

// run is the state of one Run.
type run struct {
	opts  Options
	mu    sync.Mutex
	items []item
	errs  []wire.BatchError
	frags []wire.BatchFragment

	warnMu sync.Mutex
	warned map[string]bool

	intern *interner
	gc     *gctune.Tuner // ticked once a log, under mu
}

// Run decodes every log of the inputs (its shard's share of them) and
// buckets the reports. Problems with inputs are in the document's errors;
// the error result is for a failed run as a whole.
func Run(paths []string, opts Options) (*wire.Batch, error) {
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	r := &run{opts: opts, warned: make(map[string]bool), intern: newInterner(), gc: gctune.StartUnlessSet(batchGC)}
	defer r.gc.Stop()

	// Pass 1: the binaries the inputs carry, and the number of logs.
	shipped := newShippedIndex()
	total := 0
	for _, arg := range paths {
		w := &artifact.Walker{Limits: opts.Limits, Want: map[artifact.Kind]bool{artifact.Binary: true}}
		w.Visit = func(e *artifact.Entry) error {
			switch {
			case e.Kind == artifact.Binary && e.Detached():
				shipped.add(e)
			case e.Kind == artifact.Log && opts.Shard.takes(identity(arg, e.Source)):
				total++
			}
			return nil
		}
		if arg == "-" {
			if opts.Shard.takes("-") {
				total++
			}
			continue
		}
		if err := w.Walk([]string{arg}); err != nil {
			return nil, err
		}
	}
	if opts.Progress != nil {
		opts.Progress.Total(total)
	}

	finder := opts.Finder
	if finder == nil {
		finder = &debuginfo.Finder{}
		defer finder.Close()
	}
	// One module cache for every worker: each module file is opened once
	// per run, whatever path or worker asks for it, unless the bound
	// closed it since.
	cache := modcache.New(modcache.Options{Finder: finder, Open: shipped.opener(finder), Opened: opts.opened, MaxBytes: opts.CacheBytes})
	defer cache.Close()
	newResolver := func() *resolve.Resolver {
		if !opts.Symbolize {
			return nil
		}
		return resolve.New(resolve.Options{
			Finder:     finder,
			Cache:      cache,
			Shipped:    shipped.find,
			Warn:       r.note,
			BarePCs:    opts.BarePCs,
			Vmlinux:    opts.Vmlinux,
			ModulesDir: opts.ModulesDir,
		})
	}

	// Pass 2: the logs. Logs on disk and small archive members go to the
	// workers; a large member of a compressed archive is a stream that the
	// walk itself decodes, since the archive can only be read in order.
	jobs := make(chan *artifact.Entry, 2*opts.Jobs)
	var wg sync.WaitGroup
	for i := 0; i < opts.Jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := newResolver() // not closed: its modules are the cache's
			for e := range jobs {
				r.decodeLog(res, e)
			}
		}()
	}
	inline := newResolver()
	inputs := 0
	var walkErr error
	for _, arg := range paths {
		w := &artifact.Walker{Limits: opts.Limits, Want: map[artifact.Kind]bool{artifact.Log: true}, Stdin: opts.Stdin}
		w.Visit = func(e *artifact.Entry) error {
			if e.Kind != artifact.Log || !opts.Shard.takes(identity(arg, e.Source)) {
				return nil
			}
			inputs++
			if e.Detached() {
				jobs <- e
			} else {
				r.decodeLog(inline, e)
			}
			return nil
		}
		w.Error = func(e *artifact.Error) {
			if e.Unopened && opts.Unopened != nil {
				opts.Unopened(e.Source.Path)
			}
			if opts.Shard.takes(identity(arg, e.Source)) {
				r.addError(e.Source, e.Err.Error())
			}
		}
		if walkErr = w.Walk([]string{arg}); walkErr != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if walkErr != nil {
		return nil, walkErr
	}
	return assemble(inputs, r.items, r.errs, r.frags, baselineNew(opts.Baseline), opts.GroupSimilar), nil
}

func (r *run) warn(msg string) { r.once(msg, r.opts.Warn) }

// note passes on a resolver's note about a module (Options.ModuleNote).
func (r *run) note(msg string) {
	if r.opts.ModuleNote != nil {
		r.once(msg, r.opts.ModuleNote)
		return
	}
	r.warn(msg)
}

// once calls to with msg the first time the run sees msg.
func (r *run) once(msg string, to func(string)) {
	r.warnMu.Lock()
	defer r.warnMu.Unlock()
	if r.warned[msg] || to == nil {
		return
	}
	r.warned[msg] = true
	to(msg)
}

func sourceOf(s artifact.Source) wire.Source {
	out := wire.Source{Path: s.Path}
	if s.Member != "" {
		m := s.Member
		out.Member = &m
	}
	return out
}

func (r *run) addError(src artifact.Source, msg string) {
	r.mu.Lock()
	r.errs = append(r.errs, wire.BatchError{Source: sourceOf(src), Error: msg})
	r.mu.Unlock()
}

// decodeLog decodes one log (decode) at the edge of a worker and counts it
// done: a bug of ours on one log must not cost the run, so a panic becomes
// an error of that log in the run's errors, and the reports read before it
// are kept. It is the one recover of the decoding.
func (r *run) decodeLog(res *resolve.Resolver, e *artifact.Entry) {
	var items []item
	var frags []wire.BatchFragment
	defer func() {
		p := recover()
		r.mu.Lock()
		r.items = append(r.items, items...)
		r.frags = append(r.frags, frags...)
		if r.opts.Progress != nil {
			r.opts.Progress.Done()
		}
		r.gc.Tick()
		r.mu.Unlock()
		if p != nil {
			r.addError(e.Source, termsafe.Line(fmt.Sprintf("internal error while decoding (please report it): %v", p)))
		}
	}()
	r.decode(res, e, &items, &frags)
}

// decode reads one log as decode does: every report symbolized (when res
// is not nil), given its signature from the model, and added to items in
// its batch form.
func (r *run) decode(res *resolve.Resolver, e *artifact.Entry, items *[]item, frags *[]wire.BatchFragment) {
	rc, err := e.Open()
	if err != nil {
		r.addError(e.Source, unwrapPathErr(err))
		return
	}
	defer func() {
		if err := rc.Close(); err != nil {
			if ae, ok := err.(*artifact.Error); ok {
				r.addError(ae.Source, ae.Err.Error())
			} else {
				r.addError(e.Source, err.Error())
			}
		}
	}()
	name := e.Source.String()
	// A small log gets a read buffer of its size, not the scanner's 1 MiB:
	// ten thousand logs would zero and collect 10 GB of buffers.
	var sc *parse.Scanner
	if e.Size >= 0 && e.Size < 1<<20 {
		sc = parse.NewScannerSize(rc, name, int(e.Size)+1) // +1: EOF in the first read
	} else {
		sc = parse.NewScanner(rc, name)
	}
	sc.OnRecordError(func(re *parse.RecordError) { r.warn(re.Error()) })
	var repaired []int // lines of report headers the scanner repaired
	sc.OnDamage(func(e *parse.Damage) {
		r.warn(e.Error())
		if e.Repaired != "" {
			repaired = append(repaired, e.First)
		}
	})
	// An unattached fragment is kept apart from the reports: no bucket,
	// no finding (docs/json.md).
	sc.OnFragment(func(f *report.Fragment) {
		if res != nil {
			res.Fragment(f)
		}
		src := sourceOf(e.Source)
		src.FirstLine, src.LastLine = f.Input.FirstLine, f.Input.LastLine
		*frags = append(*frags, wire.BatchFragment{Fragment: wire.FragmentOf(f), Source: src})
	})
	// Never silently clean: a log that looks like a crash and yields no
	// report is an error of the run's.
	sc.OnUnreported(func(u *parse.Unreported) {
		r.warn(u.Error())
		r.addError(e.Source, termsafe.Line(u.Error()))
	})
	for {
		rep, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.addError(e.Source, fmt.Sprintf("read: %v", err))
			break
		}
		if res != nil {
			res.Report(rep)
		}
		if r.opts.decoded != nil {
			r.opts.decoded(rep)
		}
		damaged := ""
		for _, l := range repaired {
			if l >= rep.Input.FirstLine && l <= rep.Input.LastLine {
				damaged = fmt.Sprintf("the report's header (line %d) is damaged: NUL or invalid UTF-8", l)
			}
		}
		sig := sign(rep, r.opts.Rules, damaged)
		key := r.intern.str(sig.Key)
		src := sourceOf(e.Source)
		src.FirstLine, src.LastLine = rep.Input.FirstLine, rep.Input.LastLine
		br := wire.BatchReportOf(rep, src, r.intern.str(BucketID(key)), sig.userOf)
		br.Corrupted = sig.Corrupted
		r.intern.report(&br.Report)
		*items = append(*items, item{rep: br, sig: key, from: sig.From})
	}
}

func unwrapPathErr(err error) string {
	if ae, ok := err.(*artifact.Error); ok {
		return ae.Err.Error()
	}
	return err.Error()
}

// assemble orders the reports and errors and builds the buckets: the one
// place both Run and Merge make a document, so that they agree. similar
// joins similar buckets (groupSimilar).
func assemble(inputs int, items []item, errs []wire.BatchError, frags []wire.BatchFragment, isNew func(id string) bool, similar bool) *wire.Batch {
	sort.SliceStable(items, func(i, j int) bool { return sourceLess(items[i].rep.Source, items[j].rep.Source) })
	sort.SliceStable(frags, func(i, j int) bool { return sourceLess(frags[i].Source, frags[j].Source) })
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.Source.Name() != b.Source.Name() {
			return sourceLess(a.Source, b.Source)
		}
		return a.Error < b.Error
	})
	doc := &wire.Batch{
		Version: wire.Version,
		Inputs:  inputs,
		Reports: make([]wire.BatchReport, len(items)),
		Buckets: []wire.Bucket{},
		Errors:  errs,
		// (nil when none: the key is left out)
		Fragments: frags,
	}
	if doc.Errors == nil {
		doc.Errors = []wire.BatchError{}
	}
	byID := make(map[string]*wire.Bucket)
	var order []string
	for i, it := range items {
		doc.Reports[i] = it.rep
		id := it.rep.Bucket
		b := byID[id]
		if b == nil {
			b = &wire.Bucket{ID: id, Signature: it.sig, SignatureFrom: it.from, Tool: it.rep.Tool, Kind: it.rep.Kind,
				Corrupted: it.rep.Corrupted, First: it.rep.Source, New: isNew(id)}
			byID[id] = b
			order = append(order, id)
		}
		b.Count++
		b.Reports = append(b.Reports, i)
		b.Last = it.rep.Source
	}
	for _, id := range order {
		doc.Buckets = append(doc.Buckets, *byID[id])
	}
	sortBuckets(doc.Buckets)
	if similar {
		groupSimilar(doc, isNew)
	}
	return doc
}

// sortBuckets orders buckets by count, most first, then by signature.
func sortBuckets(bs []wire.Bucket) {
	sort.SliceStable(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Signature < b.Signature
	})
}

// baselineNew says which buckets are new against a baseline's ids: those
// absent from it; none when there is no baseline.
func baselineNew(baseline map[string]bool) func(string) bool {
	return func(id string) bool { return baseline != nil && !baseline[id] }
}

// sourceLess orders sources by path, member, then line.
func sourceLess(a, b wire.Source) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	am, bm := "", ""
	if a.Member != nil {
		am = *a.Member
	}
	if b.Member != nil {
		bm = *b.Member
	}
	if am != bm {
		return am < bm
	}
	if a.FirstLine != b.FirstLine {
		return a.FirstLine < b.FirstLine
	}
	return a.LastLine < b.LastLine
}
