package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/dropin"
	"github.com/sanitrace/sanitrace/internal/startup"
)

// The drop-in faces as subcommands. Their flags follow the reference
// tools' own syntax (llvm-symbolizer 14's -f=short, -demangle=false and
// grouped short options; binutils' getopt), which pflag cannot express, so
// cobra hands the arguments over untouched and dropin parses them. Their
// long help is the face's --help, so that the man pages, which cobra
// writes from the commands, describe the options too.

func newSymbolizeCmd() *cobra.Command {
	return faceCmd(dropin.RunLLVMSymbolizer, "symbolize [options] [addresses...]",
		"Symbolize addresses: a drop-in for llvm-symbolizer 14 (or 19: --llvm-version=19)",
		dropin.LLVMSymbolizerHelp(), symbolizeOptions)
}

func newAddr2lineCmd() *cobra.Command {
	return faceCmd(dropin.RunAddr2line, "addr2line [-afiCpsrR] [-e FILE] [-j SECTION] [addresses...]",
		"Translate addresses into file:line: a drop-in for GNU addr2line 2.40",
		dropin.Addr2lineHelp("addr2line"), addr2lineOptions)
}

// faceCmd is the subcommand of a face; its exit code comes through.
func faceCmd(face func([]string, dropin.Env) int, use, short, long string, opts faceOptions) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		Long:               long,
		DisableFlagParsing: true,
		ValidArgsFunction:  opts.complete,
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
	env := faceEnv(stdin, stdout, stderr)
	if len(os.Args) > 0 {
		// A link named llvm-symbolizer-19 answers as llvm-symbolizer 19
		// does, and names itself as invoked, as llvm does.
		env.LLVMVersion = dropin.VersionOfName(filepath.Base(os.Args[0]))
		env.LLVMName = os.Args[0]
	}
	return dropin.RunLLVMSymbolizer(args, env)
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
//
// A face is about to serve a session (a sanitizer runtime's pipe, a batch
// of addresses) whose memory is measured against llvm-symbolizer's and
// addr2line's: the pages of the executable that the process's start-up
// touched (package inits, the command tree) are handed back first
// (internal/startup): a session on sqlite3 then peaks at 21 MB, not 25.
func faceEnv(stdin io.Reader, stdout, stderr io.Writer) dropin.Env {
	startup.Release() // best effort: nothing is lost when it cannot
	return dropin.Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Getenv: os.Getenv, Open: dropin.OpenEngine, Version: version,
		Fetch: debuginfodFetcher(os.Getenv, newWarner(stderr)),
		// Again now and then in a long session (the code it runs and
		// the 64 KB around each page of it).
		ReleaseExecutable: func() { startup.Release() },
	}
}

// faceOptions is what shell completion knows of a face's options, which
// cobra does not parse: their names, the values of the enumerated ones,
// and which take a file or a directory.
type faceOptions struct {
	names  []string
	values map[string][]string // by name, for "--name=" and "--name VALUE"
	files  []string
	dirs   []string
}

// complete is the face command's ValidArgsFunction.
func (o faceOptions) complete(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	valueOf := func(name string) ([]string, cobra.ShellCompDirective, bool) {
		switch {
		case o.values[name] != nil:
			return o.values[name], cobra.ShellCompDirectiveNoFileComp, true
		case slices.Contains(o.files, name):
			return nil, cobra.ShellCompDirectiveDefault, true
		case slices.Contains(o.dirs, name):
			return nil, cobra.ShellCompDirectiveFilterDirs, true
		}
		return nil, cobra.ShellCompDirectiveNoFileComp, false
	}
	if name, _, ok := strings.Cut(toComplete, "="); ok && strings.HasPrefix(name, "-") {
		vs, d, _ := valueOf(name) // the shell scripts keep the "--name=" part
		return vs, d
	}
	if len(args) > 0 && !strings.HasPrefix(toComplete, "-") {
		if vs, d, ok := valueOf(args[len(args)-1]); ok {
			return vs, d
		}
	}
	if strings.HasPrefix(toComplete, "-") {
		var match []string
		for _, n := range o.names {
			if strings.HasPrefix(n, toComplete) {
				match = append(match, n)
			}
		}
		d := cobra.ShellCompDirectiveNoFileComp
		if len(match) == 1 && strings.HasSuffix(match[0], "=") {
			d |= cobra.ShellCompDirectiveNoSpace // the value follows
		}
		return match, d
	}
	return nil, cobra.ShellCompDirectiveNoFileComp // addresses
}

var symbolizeOptions = faceOptions{
	names: []string{"--addresses", "--adjust-vma=", "--basenames", "--build-id=", "--color", "--color=",
		"--debug-file-directory=", "--debuginfod", "--demangle", "--no-debuginfod", "--no-demangle", "--dwp=",
		"--exe=", "--fallback-debug-path=", "--filter-markup", "--functions", "--functions=", "--help",
		"--inlines", "--no-inlines", "--llvm-version=", "--obj=", "--output-style=", "--pretty-print", "--print-address",
		"--print-source-context-lines=", "--relativenames", "--verbose", "--version"},
	values: map[string][]string{
		"--output-style": {"LLVM", "GNU", "JSON"},
		"--functions":    {"linkage", "short", "none"},
		"-f":             {"linkage", "short", "none"},
		"--color":        {"always", "auto", "never"},
		"--llvm-version": {"14", "19"},
	},
	files: []string{"--obj", "--exe", "-e", "--dwp"},
	dirs:  []string{"--debug-file-directory", "--fallback-debug-path"},
}

var addr2lineOptions = faceOptions{
	names: []string{"--addresses", "--basenames", "--demangle", "--demangle=", "--exe=", "--functions", "--help",
		"--inlines", "--pretty-print", "--section=", "--target=", "--version"},
	values: map[string][]string{
		"--demangle": {"auto", "gnu-v3", "rust", "java", "gnat", "dlang", "none"},
	},
	files: []string{"--exe", "-e"},
}
