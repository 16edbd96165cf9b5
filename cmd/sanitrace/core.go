package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/core"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/resolve"
)

// coreFlags are the flags of "sanitrace core" (CONTRACT.md).
type coreFlags struct {
	moduleFlags
	outputFlags
	exe string
}

func newCoreCmd() *cobra.Command {
	var fl coreFlags
	cmd := &cobra.Command{
		Use:   "core [flags] CORE",
		Short: "Unwind and symbolize every thread of an ELF core file",
		Long: `core reads an ELF core file written by the kernel or by gdb's gcore, finds
the executable and shared libraries it names (NT_FILE) through --prefix-map,
--binary-dir, --sysroot and --exe, checks each one's build-id against the
core's own copy of its first page, unwinds every thread with their call
frame information (.eh_frame, .debug_frame, and those of separate debug
files), crossing signal frames, with frame pointers and a bounded stack
scan as fallbacks, and prints the threads as gdb's "thread apply all bt"
would, the crashing thread first, or as JSON (--format json).

Exit status: 0 when the core was read, 2 on a usage error or a file that
is not a core. A module that cannot be found or a thread that cannot be
unwound to its end costs a line on stderr, not the run.`,
		Args: exactlyOne("a CORE file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCore(cmd, args[0], &fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.exe, "exe", "", "the executable the core was dumped from, when it is not where the core says")
	fl.moduleFlags.add(f, "", true)
	fl.outputFlags.add(f)
	return cmd
}

func runCore(cmd *cobra.Command, path string, fl *coreFlags) error {
	maps, err := fl.parsePrefixMaps()
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	useCol, err := useColor(fl.color, stdout)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if fl.format != "text" && fl.format != "json" {
		return &exitError{code: exitUsage, err: fmt.Errorf("--format %q: want text or json", fl.format)}
	}
	c, err := core.Open(path)
	if err != nil {
		return &exitError{code: exitUsage, err: fileProblem(path, err)}
	}
	defer c.Close()
	for _, e := range c.Errors {
		fmt.Fprintf(stderr, "sanitrace: %s: %v\n", path, e)
	}
	finder := &debuginfo.Finder{BinaryDirs: fl.binaryDirs, PrefixMaps: maps, Sysroot: fl.sysroot, Fetch: debuginfodFetcher(os.Getenv, stderr)}
	if len(fl.debugDirs) > 0 {
		finder.DebugDirs = fl.debugDirs // else the sysroot's, or the system's
	}
	defer finder.Close()
	rep := resolve.Core(c, resolve.CoreOptions{
		Finder: finder,
		Exe:    fl.exe,
		Warn:   func(msg string) { fmt.Fprintf(stderr, "sanitrace: %s\n", msg) },
	})
	for _, t := range rep.Threads {
		if t.Err != "" {
			fmt.Fprintf(stderr, "sanitrace: %s: thread %d: %s\n", path, t.TID, t.Err)
		}
	}
	out := bufio.NewWriter(stdout)
	if fl.format == "json" {
		err = render.CoreJSON(out, rep)
	} else {
		err = render.CoreText(out, rep, render.Options{Color: useCol})
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("write output: %w", err)}
	}
	return nil
}
