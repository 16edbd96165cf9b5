package dropin

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/sanitrace/sanitrace/markup"
)

// The options llvm-symbolizer 19 added that do not depend on how the
// engine names things: --build-id, --color (for --filter-markup, filter.go)
// and --debuginfod/--no-debuginfod (RunLLVMSymbolizer).

// useBuildID applies --build-id=HEX: every query names no module and is
// answered from the file with that build-id, as a BUILDID: query is. msg is
// v19's fatal error, with its newline.
func (c *llvmConfig) useBuildID(p *parsedArgs) (msg string) {
	a, ok := p.last(idBuildID)
	if !ok {
		return ""
	}
	if p.has(idObj) {
		return "error: cannot specify both --build-id and --obj\n"
	}
	id, ok := markup.ParseBuildID(a.value)
	if !ok {
		return fmt.Sprintf("%s: expected a build ID, but got '%s'\n", a.valueSpelling(), a.value)
	}
	c.obj = fmt.Sprintf("%s%x", buildIDPrefix, id)
	return ""
}

// markupColors is whether --filter-markup colours its output: --color and
// --color=always say yes, --color=never no, --color=auto (the default)
// asks whether stdout is a terminal that takes colours. v19 reads any
// other value as yes (its StringSwitch has no default).
func markupColors(p *parsedArgs, env Env) bool {
	if p.has(idColor) {
		return true
	}
	if a, ok := p.last(idColorEq); ok {
		switch a.value {
		case "never":
			return false
		case "auto":
		default:
			return true
		}
	}
	return llvmHasColors(env.Stdout, env.getenv)
}

// llvmHasColors is raw_fd_ostream::has_colors on Unix (LLVM 19, without
// terminfo): the stream is a terminal and TERM names one known to take
// ANSI colours.
func llvmHasColors(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return false
	}
	term := getenv("TERM")
	switch {
	case term == "ansi", term == "cygwin", term == "linux",
		strings.HasPrefix(term, "screen"), strings.HasPrefix(term, "xterm"),
		strings.HasPrefix(term, "vt100"), strings.HasPrefix(term, "rxvt"),
		strings.HasSuffix(term, "color"):
		return true
	}
	return false
}
