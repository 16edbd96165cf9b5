package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// exitError carries a specific exit code out of a cobra command.
type exitError struct {
	code int
	err  error // nil when the command already said everything it had to say
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// codeOf maps an error returned by a command to the process exit code:
// commands return *exitError for deliberate codes; anything else is a usage
// error (cobra's flag and argument errors).
func codeOf(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitUsage
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "sanitrace",
		Short: "Post-mortem crash forensics: parse, symbolize and render sanitizer reports",
		Long: `sanitrace parses AddressSanitizer, LeakSanitizer, ThreadSanitizer,
MemorySanitizer and UBSan reports from messy logs, symbolizes ELF addresses
with a pure-Go DWARF symbolizer (a drop-in for llvm-symbolizer and
addr2line), decodes libwebsockets compressed backtraces and renders the
result as colored text or JSON.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err}
	})
	root.AddCommand(
		newSymbolizeCmd(),
		newAddr2lineCmd(),
		newDecodeCmd(),
		newLWSCmd(),
		newCoreCmd(),
		newCFICmd(),
		newBatchCmd(),
		newMergeCmd(),
	)
	return root
}

// reportError prints err as the one-line "sanitrace: ..." message that every
// command uses (cobra's own printing is silenced so all errors look alike).
func reportError(w io.Writer, err error) {
	var ee *exitError
	if errors.As(err, &ee) && ee.err == nil {
		return
	}
	fmt.Fprintf(w, "sanitrace: %v\n", err)
}
