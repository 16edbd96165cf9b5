package main

import (
	"bufio"
	"errors"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/pipeline"
	"github.com/sanitrace/sanitrace/render"
)

// coreFlags are the flags of "sanitrace core" (docs/cli.md).
type coreFlags struct {
	moduleFlags
	outputFlags
	exe string // --exe: the executable, where NT_FILE's path does not lead to it
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
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	finder, err := fl.finder(newWarner(stderr))
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	defer finder.Close()
	run := &pipeline.Core{
		Finder:  finder,
		Exe:     fl.exe,
		Format:  fl.format,
		Options: render.Options{Color: useColor(fl.color, stdout)},
		Out:     bufio.NewWriter(stdout),
		Stderr:  stderr,
	}
	if err := run.Run(path); err != nil {
		var we *pipeline.WriteError
		if !errors.As(err, &we) {
			err = pipeline.FileProblem(path, err) // the core could not be read
		}
		return &exitError{code: exitUsage, err: err}
	}
	return nil
}
