// Command sanitrace is a post-mortem crash forensics tool: it parses
// sanitizer reports and other stack dumps, symbolizes ELF addresses with a
// pure-Go DWARF symbolizer, decodes libwebsockets compressed backtraces and
// renders the result. See README.md and docs/.
//
// Invoked under a name that starts with "llvm-symbolizer" it behaves as
// "sanitrace symbolize"; invoked as "addr2line" it behaves as
// "sanitrace addr2line". This is how the sanitizer runtimes use it through
// ASAN_SYMBOLIZER_PATH and friends.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// exit codes, as in the command-line contract.
const (
	exitOK    = 0
	exitFound = 1 // decode: at least one report found
	exitUsage = 2
)

func run(args []string, stdin *os.File, stdout, stderr *os.File) (code int) {
	defer guard(args, stderr, &code)
	name := filepath.Base(args[0])
	switch {
	case strings.HasPrefix(name, "llvm-symbolizer"):
		return runLLVMSymbolizer(args[1:], stdin, stdout, stderr)
	case name == "addr2line":
		return runAddr2line(args[1:], stdin, stdout, stderr)
	}
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args[1:])
	if err := root.Execute(); err != nil {
		reportError(stderr, err)
		return codeOf(err)
	}
	return exitOK
}

// guard is a run's outermost edge: a panic of sanitrace's (a bug; inputs
// get errors, not panics) ends the run with one line on stderr naming the
// command line it ran, and exit status 2, as a usage error. It must be
// deferred by run itself. Goroutines that work on inputs have their own
// edges (batch's per-log workers, the symbolizer face's queries).
func guard(args []string, stderr io.Writer, code *int) {
	p := recover()
	if p == nil {
		return
	}
	cmdline := strings.Join(append([]string{filepath.Base(args[0])}, args[1:]...), " ")
	newWarner(stderr).warn(fmt.Sprintf("internal error (please report it) in %q: %v", cmdline, p))
	*code = exitUsage
}
