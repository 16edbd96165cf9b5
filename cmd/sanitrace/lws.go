package main

import (
	"bufio"
	"os"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/pipeline"
	"github.com/sanitrace/sanitrace/render"
)

// lwsOptions are the flags shared by `lws decode` and `lws heapmap`.
type lwsOptions struct {
	obj    string
	base   string
	format string // heapmap only
}

func newLWSCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lws",
		Short: "Decode libwebsockets compressed backtraces (~m# records) and heap dumps",
		Long: `libwebsockets' lws_alloc_metadata writes one "~m#<base64>" line per live
heap allocation: a compressed backtrace of the allocating call path plus the
allocation size. "lws decode" turns each record into lws's "~b#" form and,
with --obj, into a symbolized call path; "lws heapmap" aggregates a heap dump
into one row per distinct backtrace. See docs/lws.md.`,
	}
	cmd.AddCommand(newLWSDecodeCmd(), newLWSHeapmapCmd())
	return groupCmd(cmd)
}

func addLWSFlags(cmd *cobra.Command, o *lwsOptions) {
	cmd.Flags().StringVar(&o.obj, "obj", "", "ELF binary (with debug info) the pcs belong to: symbolize every frame")
	cmd.Flags().StringVar(&o.base, "base", "", "load address (hex) subtracted from every pc before symbolizing (PIE executables, shared libraries)")
}

func newLWSDecodeCmd() *cobra.Command {
	var o lwsOptions
	cmd := &cobra.Command{
		Use:   "decode [FILE...]",
		Short: "Print every ~m# record as its ~b# line (and, with --obj, its call path)",
		Long: `Reads logs (files, or stdin when none or "-") and prints every ~m# record,
wherever it starts on its line, as "~b#size: N, 0x... 0x...". ~b# lines in
the input are printed again (and symbolized with --obj). A malformed record
gets one line on stderr naming input, line and error class; decoding goes on.

Exit status: 0 when the inputs were read, malformed records included (they
are reported on stderr, not failures of the run); 2 for a usage error (a
bad flag, --base without --obj, an --obj that cannot be opened) or an input
that cannot be read (the other inputs are still decoded).`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLWS(cmd, args, &o, false) },
	}
	addLWSFlags(cmd, &o)
	return cmd
}

func newLWSHeapmapCmd() *cobra.Command {
	o := lwsOptions{format: "text"}
	cmd := &cobra.Command{
		Use:   "heapmap [FILE...]",
		Short: "Aggregate a heap dump of ~m# records: one row per distinct backtrace",
		Long: `Reads heap dumps (files, or stdin when none or "-"), groups the ~m# (and ~b#)
records by backtrace and prints one row per distinct backtrace with its live
allocation count and bytes, largest first, plus the records that failed to
decode. --format json prints the object of docs/lws.md.

Exit status: 0 when the inputs were read, malformed records included (they
are counted and listed, not failures of the run); 2 for a usage error or an
input that cannot be read.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLWS(cmd, args, &o, true) },
	}
	addLWSFlags(cmd, &o)
	enumFlag(cmd.Flags(), &o.format, "format", "text", render.HeapMapFormats(), false, "output format: "+oneOf(render.HeapMapFormats()))
	return cmd
}

func runLWS(cmd *cobra.Command, args []string, o *lwsOptions, heapmap bool) error {
	warn := newWarner(cmd.ErrOrStderr())
	sym := &pipeline.Symbolize{Obj: o.obj, Base: o.base, Warn: warn.prefixed("lws: ")}
	if fetch := debuginfodFetcher(os.Getenv, warn); fetch != nil {
		sym.Finder = &debuginfo.Finder{Fetch: fetch}
		defer sym.Finder.Close()
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
	run := &pipeline.LWS{
		Static: static,
		Out:    bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10),
		Stdin:  cmd.InOrStdin(),
		Stderr: cmd.ErrOrStderr(),
	}
	var failed bool
	if heapmap {
		failed, err = run.Heapmap(args, o.format)
	} else {
		failed, err = run.Decode(args)
	}
	if err != nil {
		return err
	}
	if failed {
		return &exitError{code: exitUsage}
	}
	return nil
}
