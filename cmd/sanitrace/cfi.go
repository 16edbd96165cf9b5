package main

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/pipeline"
)

func newCFICmd() *cobra.Command {
	var raw bool
	var format string
	cmd := &cobra.Command{
		Use:   "cfi [--raw] FILE...",
		Short: "Dump the call frame information (.eh_frame, .debug_frame) of ELF files as readelf does",
		Long: `Prints the .eh_frame and .debug_frame sections of each ELF file exactly as
binutils 2.40 "readelf -wN --debug-dump=frames-interp -W FILE" does: every CIE
and FDE with the table of unwind rules it defines (CFA and saved registers at
each location). --raw prints what "readelf -wN --debug-dump=frames -W" prints
instead: the headers and the decoded call frame instructions. --format json
gives the interpreted rows as data (docs/json.md). A malformed entry gets one
line on stderr; the rest of the file is still shown.`,
		Args: atLeastOne("an ELF FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCFI(cmd, args, raw, format)
		},
	}
	cmd.Flags().BoolVar(&raw, "raw", false, "print the decoded instructions (readelf --debug-dump=frames) instead of the rows")
	enumFlag(cmd.Flags(), &format, "format", "text", []string{"text", "json"}, false, "output format: text or json")
	return cmd
}

func runCFI(cmd *cobra.Command, args []string, raw bool, format string) error {
	if raw && format == "json" {
		return &exitError{code: exitUsage, err: fmt.Errorf("--raw is a text form; --format json gives the rows")}
	}
	run := &pipeline.CFI{
		JSON:    format == "json",
		Raw:     raw,
		Out:     bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10),
		Stderr:  cmd.ErrOrStderr(),
		Problem: pipeline.FileProblem,
	}
	failed, err := run.Run(args)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if failed {
		return &exitError{code: exitUsage}
	}
	return nil
}
