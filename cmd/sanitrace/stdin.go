package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"
)

// containsStdin reports whether args name stdin ("-").
func containsStdin(args []string) bool { return slices.Contains(args, "-") }

// stdinHint tells someone who ran a log-reading command without a file,
// at a terminal, that it now waits for them to type or paste the log:
// without it the command looks hung.
func stdinHint(cmd *cobra.Command) {
	if isTerminal(cmd.InOrStdin()) {
		fmt.Fprintln(cmd.ErrOrStderr(), "sanitrace: reading the log from standard input; Ctrl-D ends it")
	}
}
