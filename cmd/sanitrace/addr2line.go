package main

import (
	"os"
	"path/filepath"

	"github.com/sanitrace/sanitrace/dropin"
	"github.com/spf13/cobra"
)

// newAddr2lineCmd is the GNU addr2line drop-in; getopt-style flags are
// parsed by dropin, as binutils does, so cobra hands them over untouched.
func newAddr2lineCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "addr2line [-afiCps] [-e FILE] [-j SECTION] [addresses...]",
		Short: "Translate addresses into file:line: a drop-in for GNU addr2line 2.40",
		Long: `addr2line answers hexadecimal addresses (argv, else one per stdin line)
exactly as binutils 2.40 addr2line does. Run with --help for its flags.
Invoked through a link named addr2line, sanitrace behaves as this command.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := dropin.RunAddr2line(args, faceEnv(cmd)); code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

func runAddr2line(args []string, stdin *os.File, stdout, stderr *os.File) int {
	// binutils names itself by its argv[0] in messages.
	name := "addr2line"
	if len(os.Args) > 0 && filepath.Base(os.Args[0]) == "addr2line" {
		name = os.Args[0]
	}
	return dropin.RunAddr2line(args, dropin.Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Getenv: os.Getenv, Open: dropin.OpenEngine, Version: version, Name: name,
	})
}
