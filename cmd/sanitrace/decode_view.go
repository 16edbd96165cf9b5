package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/sanitrace/sanitrace/report"
)

// viewFlags choose which of decode's findings are shown and how: the
// whole input or the reports only, which reports, which frames.
type viewFlags struct {
	passthrough bool
	sanitize    bool // --sanitize-passthrough
	tools       []string
	kinds       []string
	frames      string
	rules       string
	quiet       bool
}

func (v *viewFlags) add(f *pflag.FlagSet) {
	f.BoolVar(&v.passthrough, "passthrough", false, "write the whole input back, each report replaced by its completed rendering (default when stdin is a pipe and stdout a terminal)")
	f.BoolVar(&v.sanitize, "sanitize-passthrough", false, "in passthrough, spell the control characters of the input's own lines as \\xHH, as in the reports (escape sequences, colors and carriage returns included); without it those lines are written back byte for byte")
	f.StringSliceVar(&v.tools, "tool", nil, "show only reports of these `tools` (AddressSanitizer or asan, tsan, msan, lsan, ubsan, hwasan, ...; repeatable, comma-separated)")
	f.StringSliceVar(&v.kinds, "kind", nil, "show only reports of these `kinds` as the runtime names them (heap-use-after-free, data race, ...; repeatable, comma-separated)")
	f.StringVar(&v.rules, "rules", "", "stack-trace rules `FILE` (Sentry's syntax, docs/guide.md \"Rules\"): which frames --frames user keeps, after the built-in rules")
	enumFlag(f, &v.frames, "frames", "all", []string{"all", "user"}, false, "frames in text: all, or user (each run of runtime, interceptor, libc and C++ runtime frames collapsed into one line)")
	f.BoolVarP(&v.quiet, "quiet", "q", false, "print nothing on stdout: only the exit status says whether reports were found (input errors still go to stderr)")
}

// keep returns the report filter of --tool and --kind (nil: keep all).
func (v *viewFlags) keep() func(*report.Report) bool { return report.Select(v.tools, v.kinds) }

// wantPassthrough decides whether decode gives the whole input back.
// Asked for, it is; not asked either way, it is the default for someone
// who pipes a test run into decode and watches: stdin a pipe or a file
// redirect (not a terminal), no input files named, stdout a terminal and
// no --format given. Scripts (stdout not a terminal) and --format keep the
// report-only output.
func (v *viewFlags) wantPassthrough(f *pflag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) bool {
	if f.Changed("passthrough") {
		return v.passthrough
	}
	if f.Changed("format") || v.quiet {
		return false
	}
	for _, a := range args {
		if a != "-" {
			return false
		}
	}
	return isTerminal(stdout) && !isTerminal(stdin)
}
