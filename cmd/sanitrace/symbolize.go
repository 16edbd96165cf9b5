package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/dropin"
)

// The drop-in faces as subcommands. Their flags follow the reference
// tools' own syntax (llvm-symbolizer 14's -f=short, -demangle=false and
// grouped short options; binutils' getopt), which pflag cannot express, so
// cobra hands the arguments over untouched and dropin parses them.

func newSymbolizeCmd() *cobra.Command {
	return faceCmd(dropin.RunLLVMSymbolizer, "symbolize [flags] [addresses...]",
		"Symbolize addresses: a drop-in for llvm-symbolizer 14",
		`symbolize answers addresses as llvm-symbolizer 14 does, byte for byte:
addresses on the command line, else one query per stdin line
("0x401136", "MODULE 0xOFF", "CODE|DATA|FRAME \"MODULE\" 0xOFF"),
flushed after each answer. Flags are llvm-symbolizer's (run with --help).
Invoked through a link named llvm-symbolizer*, sanitrace behaves as this
command, so ASAN_SYMBOLIZER_PATH and friends can point at it.`)
}

func newAddr2lineCmd() *cobra.Command {
	return faceCmd(dropin.RunAddr2line, "addr2line [-afiCps] [-e FILE] [-j SECTION] [addresses...]",
		"Translate addresses into file:line: a drop-in for GNU addr2line 2.40",
		`addr2line answers hexadecimal addresses (argv, else one per stdin line)
exactly as binutils 2.40 addr2line does. Run with --help for its flags.
Invoked through a link named addr2line, sanitrace behaves as this command.`)
}

// faceCmd is the subcommand of a face; its exit code comes through.
func faceCmd(face func([]string, dropin.Env) int, use, short, long string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		Long:               long,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := face(args, faceEnv(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())); code != 0 {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

// runLLVMSymbolizer and runAddr2line are the faces invoked through their
// argv[0] (a link named llvm-symbolizer* or addr2line).
func runLLVMSymbolizer(args []string, stdin *os.File, stdout, stderr *os.File) int {
	return dropin.RunLLVMSymbolizer(args, faceEnv(stdin, stdout, stderr))
}

func runAddr2line(args []string, stdin *os.File, stdout, stderr *os.File) int {
	env := faceEnv(stdin, stdout, stderr)
	// binutils names itself by its argv[0] in messages.
	if len(os.Args) > 0 && filepath.Base(os.Args[0]) == "addr2line" {
		env.Name = os.Args[0]
	}
	return dropin.RunAddr2line(args, env)
}

// faceEnv gives a drop-in face its streams, the environment and the engine.
func faceEnv(stdin io.Reader, stdout, stderr io.Writer) dropin.Env {
	return dropin.Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Getenv: os.Getenv, Open: dropin.OpenEngine, Version: version,
		Fetch: debuginfodFetcher(os.Getenv, stderr),
	}
}
