package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/lwsheap"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/resolve"
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
	return cmd
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
gets one line on stderr naming input, line and error class; decoding goes on.`,
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
decode. --format json prints the object of docs/lws.md.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLWS(cmd, args, &o, true) },
	}
	addLWSFlags(cmd, &o)
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or json")
	return cmd
}

// lwsInput is one input to read: a path, or "-" for stdin.
type lwsInput struct {
	path string
	name string // for messages: the path, or <stdin>
}

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

func runLWS(cmd *cobra.Command, args []string, o *lwsOptions, heapmap bool) error {
	if heapmap && o.format != "text" && o.format != "json" {
		return &exitError{code: exitUsage, err: fmt.Errorf("--format %q: want text or json", o.format)}
	}
	sym, err := openObj(o.obj, o.base, cmd.ErrOrStderr(), "lws: ")
	if err != nil {
		return err
	}
	if sym != nil {
		defer sym.Close()
	}

	out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
	stderr := cmd.ErrOrStderr()
	inputs := lwsInputs(args)
	hm := lwsheap.New()
	failed := false
	var line []byte
	for _, in := range inputs {
		r, closeIn, err := openLWSInput(cmd, in)
		if err != nil {
			fmt.Fprintf(stderr, "sanitrace: lws: %v\n", err)
			failed = true
			continue
		}
		source := filepath.Base(in.path)
		sc := decompress.NewScanner(r)
		for sc.Scan() {
			rec := sc.Record()
			if rec.Err == nil && heapmap {
				rec.Err = hm.Add(source, rec.Line, rec.Backtrace)
			}
			if rec.Err != nil {
				fmt.Fprintf(stderr, "%s:%d: %s record: %v\n", in.name, rec.Line, kindName(rec.Kind), rec.Err)
				if heapmap {
					hm.AddUndecodable(source, rec.Line, rec.Text, rec.Err)
				}
				continue
			}
			if heapmap {
				continue
			}
			line = decompress.AppendB(line[:0], rec.Backtrace)
			line = append(line, '\n')
			if sym != nil {
				line = appendText(line, sym, rec.PCs)
			}
			if _, err := out.Write(line); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(stderr, "sanitrace: lws: read %s: %v\n", in.name, err)
			failed = true
		}
		closeIn()
	}
	if heapmap {
		source := lwsSource(inputs)
		var err error
		if o.format == "json" {
			err = writeHeapmapJSON(out, hm, source, len(inputs) > 1, sym)
		} else {
			err = writeHeapmapText(out, hm, source, len(inputs) > 1, sym)
		}
		if err != nil {
			return fmt.Errorf("write output: %w", err)
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	if failed {
		return &exitError{code: exitUsage}
	}
	return nil
}

func kindName(kind byte) string {
	if kind == decompress.KindB {
		return "~b#"
	}
	return "~m#"
}

func openLWSInput(cmd *cobra.Command, in lwsInput) (io.Reader, func(), error) {
	if in.path == "-" {
		return cmd.InOrStdin(), func() {}, nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, nil, err // *PathError names the file
	}
	return f, func() { f.Close() }, nil
}

// lwsSource is the JSON "source": the input's base name ("-" for stdin),
// or the base names joined by ", " when several inputs were read.
func lwsSource(inputs []lwsInput) string {
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = filepath.Base(in.path)
	}
	return strings.Join(names, ", ")
}

func writeHeapmapJSON(w io.Writer, hm *lwsheap.Map, source string, multi bool, sym *resolve.StaticModule) error {
	var frames func(*lwsheap.Group) []render.JSONFrame
	if sym != nil {
		frames = func(g *lwsheap.Group) []render.JSONFrame { return render.JSONFrames(sym.Frames(g.PCs)) }
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(hm.Report(source, multi, frames))
}

func writeHeapmapText(w io.Writer, hm *lwsheap.Map, source string, multi bool, sym *resolve.StaticModule) error {
	var frames func(*lwsheap.Group) []render.JSONFrame
	if sym != nil {
		frames = func(g *lwsheap.Group) []render.JSONFrame { return render.JSONFrames(sym.Frames(g.PCs)) }
	}
	return lwsheap.WriteText(w, hm.Report(source, multi, frames), hm.UndecodableCount())
}

// appendText appends the call path of a decoded record under its ~b# line,
// one frame per line in the sanitizers' "#N 0xPC in FUNC FILE:LINE:COL" style.
func appendText(dst []byte, m *resolve.StaticModule, pcs []uint64) []byte {
	for i, f := range render.JSONFrames(m.Frames(pcs)) {
		dst = append(dst, "    #"...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, ' ')
		dst = append(dst, *f.PC...)
		dst = append(dst, lwsheap.FrameText(f)...)
		dst = append(dst, '\n')
	}
	return dst
}

// openObj opens --obj (nil when not given) for the pcs of records, which
// name no module, loaded at --base. Errors are usage errors; a warning
// (no DWARF: symbol table only) goes to stderr after "sanitrace: "+who.
func openObj(obj, base string, stderr io.Writer, who string) (*resolve.StaticModule, error) {
	if obj == "" {
		if base != "" {
			return nil, &exitError{code: exitUsage, err: errors.New("--base needs --obj")}
		}
		return nil, nil
	}
	addr, err := resolve.ParseLoadAddress(base)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	m, err := resolve.OpenStatic(obj, addr, nil)
	if m == nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--obj: %w", err)}
	}
	if err != nil {
		fmt.Fprintf(stderr, "sanitrace: %s%v\n", who, err)
	}
	return m, nil
}
