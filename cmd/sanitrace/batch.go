package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/batch"
	"github.com/sanitrace/sanitrace/batch/artifact"
	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/wire"
)

// batchFlags are the flags of "sanitrace batch" (docs/cli.md).
type batchFlags struct {
	symbolFlags
	symbolize  bool
	exitZero   bool
	jobs       int
	output     batchOutput
	shard      string
	progress   string
	maxEntry   string
	maxArchive string
}

// batchOutput are the output flags of batch and merge.
type batchOutput struct {
	format     string
	output     string
	baseline   string
	failOn     string
	sourceRoot string
	jobs       int // batch's -j, for encoding the JSON; 0 (merge): one per CPU
}

func (o *batchOutput) register(cmd *cobra.Command, failDefault string) {
	f := cmd.Flags()
	enumFlag(f, &o.format, "format", "json", render.BatchFormats(), false, "output format: "+oneOf(render.BatchFormats()))
	f.StringVarP(&o.output, "output", "o", "", "write the output to `FILE` instead of stdout")
	f.StringVar(&o.baseline, "baseline", "", "a previous batch JSON output: buckets absent from it are new")
	enumFlag(f, &o.failOn, "fail-on", failDefault, []string{"any", "new", "none"}, false, "exit 1 when: any (a report was found), new (a bucket is absent from --baseline) or none")
	f.StringVar(&o.sourceRoot, "source-root", "", "make SARIF source locations relative to `DIR` (the repository root as the DWARF names it)")
}

func newBatchCmd() *cobra.Command {
	var fl batchFlags
	cmd := &cobra.Command{
		Use:   "batch [flags] PATH...",
		Short: "Decode every log of CI artifacts and group the reports into buckets",
		Long: `batch reads log files, directories (recursively) and archives (.tar,
.tar.gz/.tgz, .tar.zst, .zip, read in place: nothing is extracted), decodes
every log as decode does, on -j workers sharing one module cache, and groups
the reports into buckets by signature (docs/json.md). ELF binaries inside the
inputs symbolize the logs they came with. "-" is stdin.

Kernel frames resolve against --vmlinux and --modules-dir, and frames that
name no module (libwebsockets ~m# records) against --obj, as in decode.

Exit status: 1 when --fail-on says so (any: a report was found; new: a
bucket is absent from --baseline; none: never) unless --exit-zero is
given, 0 otherwise, 2 on a usage error or a command-line input that cannot
be read. Problems inside the inputs (an unreadable file, a decompression
bomb, an unsafe member name) are listed in the output's errors and do not
change the exit status.`,
		Args: atLeastOne("a PATH (a log, a directory, an archive or -)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBatch(cmd, args, &fl)
		},
	}
	f := cmd.Flags()
	fl.symbolFlags.add(f, "a log names (after the binaries in the inputs)")
	f.BoolVar(&fl.symbolize, "symbolize", true, "symbolize unsymbolized frames (--symbolize=false: parse only)")
	f.BoolVar(&fl.exitZero, "exit-zero", false, "exit 0 where --fail-on would exit 1")
	f.IntVarP(&fl.jobs, "jobs", "j", runtime.NumCPU(), "logs decoded at once")
	fl.output.register(cmd, "any")
	f.StringVar(&fl.shard, "shard", "", "take shard `I/N` of the input logs (1-based; the same share on every machine)")
	enumFlag(f, &fl.progress, "progress", "auto", colorModes, true, "progress bar on stderr, given as --progress=WHEN: auto (on a terminal), always or never")
	f.StringVar(&fl.maxEntry, "max-entry-size", humanize.Bytes(artifact.DefaultEntry), "largest inflated archive member or compressed file")
	f.StringVar(&fl.maxArchive, "max-archive-size", humanize.Bytes(artifact.DefaultArchive), "largest inflated total of one archive")
	return cmd
}

func runBatch(cmd *cobra.Command, args []string, fl *batchFlags) error {
	usage := func(err error) error { return &exitError{code: exitUsage, err: err} }
	stderr := cmd.ErrOrStderr()
	warn := newWarner(stderr)
	// One finder for the run, as decode has: the inputs' own binaries
	// come first (batch.Options), then these rules.
	sym, err := fl.symbolFlags.symbolize(warn)
	if err != nil {
		return usage(err)
	}
	defer sym.Finder.Close()
	// A command-line input that cannot be opened is a usage error
	// (docs/cli.md: exit 2), as in decode; it is still listed in the
	// errors and the others are processed. What lies inside the inputs
	// never changes the exit status.
	unreadable := false
	opts := batch.Options{
		Jobs:       fl.jobs,
		Symbolize:  fl.symbolize,
		Finder:     sym.Finder,
		CacheBytes: sym.CacheBytes,
		Stdin:      cmd.InOrStdin(),
		Vmlinux:    sym.Vmlinux,
		ModulesDir: sym.ModulesDir,
		Warn:       warn.warn,
		Unopened:   func(string) { unreadable = true },
	}
	if fl.jobs < 1 {
		return usage(fmt.Errorf("-j %d: want at least 1", fl.jobs))
	}
	if fl.shard != "" {
		if opts.Shard, err = batch.ParseShard(fl.shard); err != nil {
			return usage(err)
		}
	}
	if opts.Limits.Entry, err = humanize.ParseBytes(fl.maxEntry); err != nil {
		return usage(fmt.Errorf("--max-entry-size: %w", err))
	}
	if opts.Limits.Archive, err = humanize.ParseBytes(fl.maxArchive); err != nil {
		return usage(fmt.Errorf("--max-archive-size: %w", err))
	}
	if opts.Baseline, err = fl.output.loadBaseline(); err != nil {
		return usage(err)
	}
	if opts.BarePCs, err = sym.OpenObj(); err != nil {
		return usage(err)
	}
	if opts.BarePCs != nil {
		defer opts.BarePCs.Close()
	}
	switch fl.progress {
	case "always":
		opts.Progress = newProgressBar(stderr)
	case "auto":
		// Not wantDecoration: FORCE_COLOR asks for colors, not for a bar
		// redrawn in a CI log.
		if isTerminal(stderr) {
			opts.Progress = newProgressBar(stderr)
		}
	}
	if containsStdin(args) {
		stdinHint(cmd)
	}
	doc, err := batch.Run(args, opts)
	if err != nil {
		return usage(err)
	}
	fl.output.jobs = fl.jobs
	if err := fl.output.write(cmd.OutOrStdout(), doc); err != nil {
		return usage(err)
	}
	if unreadable {
		return &exitError{code: exitUsage, err: fmt.Errorf("some inputs cannot be read (see the errors in the output)")}
	}
	if fl.exitZero {
		return nil
	}
	return fl.output.exit(doc)
}

func (o *batchOutput) loadBaseline() (map[string]bool, error) {
	if o.baseline == "" {
		return nil, nil
	}
	f, err := os.Open(o.baseline)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	defer f.Close()
	ids, err := batch.LoadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", o.baseline, err)
	}
	return ids, nil
}

// write renders doc to -o FILE or stdout.
func (o *batchOutput) write(stdout io.Writer, doc *wire.Batch) error {
	w := stdout
	var f *os.File
	if o.output != "" && o.output != "-" {
		var err error
		if f, err = os.Create(o.output); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	err := render.WriteBatch(bw, o.format, doc, render.BatchOptions{SourceRoot: o.sourceRoot, Version: version, Jobs: o.jobs})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// exit applies --fail-on.
func (o *batchOutput) exit(doc *wire.Batch) error {
	switch {
	case o.failOn == "any" && batch.Bugs(doc) > 0:
		return &exitError{code: exitFound}
	case o.failOn == "new" && batch.NewBuckets(doc) > 0:
		return &exitError{code: exitFound}
	}
	return nil
}

// progressBar shows batch progress on stderr with schollz/progressbar.
type progressBar struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newProgressBar(w io.Writer) *progressBar { return &progressBar{w: w} }

func (p *progressBar) Total(n int) {
	p.bar = progressbar.NewOptions(n,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("decoding logs"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("logs"),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprint(p.w, "\r\033[K") }),
	)
}

func (p *progressBar) Done() {
	if p.bar != nil {
		p.bar.Add(1)
	}
}
