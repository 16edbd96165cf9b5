package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newManCmd is the hidden command behind "make man": the man pages are
// generated from the commands themselves (cobra/doc), so they say what
// --help says and cannot drift from it.
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
