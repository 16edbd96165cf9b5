//go:build man

package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// addManCmd adds the hidden command behind "make man". The man pages are
// generated from the commands themselves (cobra/doc), so they say what
// --help says and cannot drift from it; the generator is built only into
// the binary "make man" runs (-tags man), so that the shipped one does not
// carry cobra/doc and its markdown renderer (0.8 MB, 0.3 ms of start-up).
func addManCmd(root *cobra.Command) { root.AddCommand(newManCmd()) }

// newManCmd is "sanitrace man DIR".
func newManCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man DIR",
		Short:  "Write the man pages (section 1) of every command into DIR",
		Hidden: true,
		Args:   exactlyOne("a DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			header := &doc.GenManHeader{
				Section: "1",
				Source:  "sanitrace " + cmd.Root().Version,
				Manual:  "sanitrace manual",
			}
			// The date comes from SOURCE_DATE_EPOCH when set (the Makefile
			// sets the last commit's), else today.
			if err := doc.GenManTree(cmd.Root(), header, args[0]); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("man pages: %w", err)}
			}
			return nil
		},
	}
}
