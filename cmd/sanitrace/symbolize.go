package main

import (
	"os"

	"github.com/sanitrace/sanitrace/dropin"
	"github.com/spf13/cobra"
)

// newSymbolizeCmd is the llvm-symbolizer drop-in. Its flags follow
// llvm-symbolizer 14's own syntax (-f=short, -demangle=false, grouped short
// options), which pflag cannot express, so cobra hands the arguments over
// untouched.
func newSymbolizeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "symbolize [flags] [addresses...]",
		Short: "Symbolize addresses: a drop-in for llvm-symbolizer 14",
		Long: `symbolize answers addresses as llvm-symbolizer 14 does, byte for byte:
addresses on the command line, else one query per stdin line
("0x401136", "MODULE 0xOFF", "CODE|DATA|FRAME \"MODULE\" 0xOFF"),
flushed after each answer. Flags are llvm-symbolizer's (run with --help).
Invoked through a link named llvm-symbolizer*, sanitrace behaves as this
command, so ASAN_SYMBOLIZER_PATH and friends can point at it.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			code := dropin.RunLLVMSymbolizer(args, faceEnv(cmd))
			if code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

func runLLVMSymbolizer(args []string, stdin *os.File, stdout, stderr *os.File) int {
	return dropin.RunLLVMSymbolizer(args, dropin.Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Getenv: os.Getenv, Open: dropin.OpenEngine, Version: version,
	})
}

// faceEnv gives a drop-in face the command's streams.
func faceEnv(cmd *cobra.Command) dropin.Env {
	return dropin.Env{
		Stdin: cmd.InOrStdin(), Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
		Getenv: os.Getenv, Open: dropin.OpenEngine, Version: version,
	}
}
