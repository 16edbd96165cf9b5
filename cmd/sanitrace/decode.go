package main

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/pipeline"
	"github.com/sanitrace/sanitrace/render"
)

// decodeFlags are the flags of "sanitrace decode" (docs/cli.md).
type decodeFlags struct {
	symbolFlags
	outputFlags
	view          viewFlags
	symbolize     bool
	sourceContext int
	exitZero      bool
}

func newDecodeCmd() *cobra.Command {
	var fl decodeFlags
	cmd := &cobra.Command{
		Use:   "decode [FILE...]",
		Short: "Find crash reports in logs, symbolize their frames and render them",
		Long: `decode reads logs (files, or stdin when none or "-" is given), finds every
crash report in them (the sanitizers, libFuzzer, the Linux kernel, Go,
Rust, gdb, glibc, Valgrind, Android tombstones), symbolizes the frames the
runtime left as (module+offset) with sanitrace's own DWARF symbolizer, and
renders the reports as text or JSON. Logs compressed with gzip, zstd, xz or
bzip2 are read as they are; an ELF file, an archive, binary data or a
directory given as a log is an error naming it.

--passthrough writes the whole input back as it streams, each report
replaced by its completed rendering and every other line in place, byte for
byte (--sanitize-passthrough spells their control characters as \xHH, as
the reports' text always is). It is the default when stdin is piped, no
file is named, stdout is a terminal and --format is not given. Frames
sanitrace symbolized end in " (sanitrace)". --tool and --kind choose
reports, --frames user collapses the frames outside the program's code, -q
prints nothing (the exit status tells). Several inputs get a header each
and a closing count.

Reports printed as symbolizer markup (LLVM 18+ runtimes with
enable_symbolizer_markup=1: {{{module}}}/{{{mmap}}} lines, then a
{{{bt:N:0xPC}}} line per frame) decode as the classic reports they stand
for: each frame's module, build-id and offset come from the markup, and
bad markup is one warning naming the line.

libwebsockets heap dumps are recognised too: runs of "~m#" records (and
"~b#" lines, as lws's decoder tool prints them), anywhere on their lines,
become one report each with one allocation stack per record. Their pcs name
no module: --obj gives the binary they belong to, --base its load address.
A malformed record gets one line on stderr naming input, line and error
class; decoding goes on. See docs/lws.md.

Exit status: 1 when at least one sanitizer report (or other crash report)
was found, or when an input held crash-looking lines (frame lines, an
ERROR:/panic:/BUG: headline) but no report could be read from it, which
is said on stderr (0 with --exit-zero); heap dumps do not count, they are
not bugs.
0 when none, 2 on a usage error or an unreadable input (the other inputs
are still processed).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDecode(cmd, args, &fl)
		},
	}
	f := cmd.Flags()
	fl.symbolFlags.add(f, "a log names")
	fl.outputFlags.add(f)
	fl.view.add(f)
	f.BoolVar(&fl.symbolize, "symbolize", true, "symbolize unsymbolized frames (--symbolize=false: parse and render only)")
	f.IntVar(&fl.sourceContext, "source-context", 0, "print `N` source lines around each user frame")
	f.BoolVar(&fl.exitZero, "exit-zero", false, "exit 0 even when reports (or crash-looking lines without a report) were found")
	return cmd
}

func runDecode(cmd *cobra.Command, args []string, fl *decodeFlags) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	warn := newWarner(stderr)
	// One finder for the run: every module and debug file is found by
	// the same rules and read once.
	sym, err := fl.symbolFlags.symbolize(warn)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	defer sym.Finder.Close()
	if fl.sourceContext < 0 {
		return &exitError{code: exitUsage, err: fmt.Errorf("--source-context %d: must not be negative", fl.sourceContext)}
	}
	userFrames := fl.view.frames == "user"
	inApp, err := loadRules(fl.view.rules)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	passthrough := fl.view.wantPassthrough(cmd.Flags(), args, cmd.InOrStdin(), stdout)
	if passthrough && fl.format != "text" {
		return &exitError{code: exitUsage, err: fmt.Errorf("--passthrough writes text; --format %s cannot be passed through", fl.format)}
	}
	if userFrames && fl.format != "text" {
		return &exitError{code: exitUsage, err: fmt.Errorf("--frames user collapses frames in text; --format %s keeps every frame", fl.format)}
	}

	out := bufio.NewWriterSize(stdout, 256<<10)
	w, err := render.New(fl.format, out, render.Options{
		Color:         useColor(fl.color, stdout),
		SourceContext: fl.sourceContext,
		SourcePath:    sourcePath(sym.Finder, warn),
		Passthrough:   passthrough,
		UserFrames:    userFrames,
		InApp:         inApp.InApp,
	})
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("--%w", err)}
	}
	static, err := sym.OpenObj()
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if static != nil {
		defer static.Close()
	}

	if len(args) == 0 || containsStdin(args) {
		stdinHint(cmd)
	}
	run := &pipeline.Decode{Writer: w, Out: out, Stdin: cmd.InOrStdin(), Stderr: stderr,
		Passthrough: passthrough, SanitizePassthrough: fl.view.sanitize, Keep: fl.view.keep(), Quiet: fl.view.quiet, Sections: len(args) > 1}
	if fl.symbolize && !fl.view.quiet {
		run.Resolver = sym.Resolver(static)
		defer run.Resolver.Close()
	}
	result, err := run.Run(args)
	switch {
	case err != nil:
		return &exitError{code: exitUsage, err: err}
	case result.Unreadable:
		return &exitError{code: exitUsage}
	case (result.Found > 0 || result.Unreported > 0) && !fl.exitZero:
		return &exitError{code: exitFound}
	}
	return nil
}
