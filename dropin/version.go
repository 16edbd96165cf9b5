package dropin

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/symbolize"
)

// The llvm-symbolizer face answers as llvm-symbolizer 14 by default, or as
// 19 when asked (--llvm-version=19, or invoked as llvm-symbolizer-19).
// What 19 answers differently (docs/differences.md, "llvm-symbolizer 19
// versus 14") is decided in two places only: the engine's answers by the
// policy value (symbolize.LLVM19: ">>" in demangled names, DWARF 5's
// directory 0, no .zdebug sections), and the face's own printing by the
// version here (the error lines, an --obj that cannot be read).

// llvmVersions are the versions the face can answer as.
var llvmVersions = map[int]*symbolize.Policy{14: symbolize.LLVM14, 19: symbolize.LLVM19}

// llvmVersion is the version p asks for (--llvm-version=N, the last one),
// else def (0: 14). msg is the error when N is not one of llvmVersions.
func llvmVersion(p *parsedArgs, def int) (v int, msg string) {
	v = def
	if a, ok := p.last(idLLVMVersion); ok {
		n, err := strconv.Atoi(a.value)
		if err != nil || llvmVersions[n] == nil {
			return 0, fmt.Sprintf("error: --llvm-version: expected 14 or 19, but got '%s'\n", a.value)
		}
		v = n
	}
	if llvmVersions[v] == nil {
		v = 14
	}
	return v, ""
}

// VersionOfName is the llvm-symbolizer version a face invoked as name (its
// argv[0]'s base name) answers as: 19 for "llvm-symbolizer-19", else 0
// (the default, 14).
func VersionOfName(name string) int {
	const prefix = "llvm-symbolizer-"
	if len(name) > len(prefix) && name[:len(prefix)] == prefix {
		if n, err := strconv.Atoi(name[len(prefix):]); err == nil && llvmVersions[n] != nil {
			return n
		}
	}
	return 0
}

// setVersion makes the configuration answer as llvm-symbolizer v; prog is
// the program's name in v19's error lines.
func (c *llvmConfig) setVersion(v int, prog string) {
	c.version = v
	c.lookup.Policy = llvmVersions[v]
	if prog == "" {
		prog = "llvm-symbolizer"
	}
	c.print.v19 = v >= 19
	c.print.prog = prog
}

// openObjFirst is llvm-symbolizer 19's opening of --obj before any query is
// read: a file that cannot be read ends the run with its error, on stderr
// (JSON: one error object for address 0 on stdout, out), where 14 answers
// every query unknown after one error line. It reports whether the run
// ends. (--build-id's file is looked up per query in 19 too.)
func (s *llvmSession) openObjFirst(out, stderr io.Writer) bool {
	obj := s.cfg.obj
	if s.cfg.version < 19 || obj == "" || strings.HasPrefix(obj, buildIDPrefix) {
		return false
	}
	l, err := s.modules.get(obj)
	defer l.Release()
	if err == nil {
		return false
	}
	msg := llvmErrorMessage(obj, err)
	if s.cfg.style == styleJSON {
		p := &jsonPrinter{cfg: s.cfg.print, out: out}
		p.moduleError(request{module: obj, hasAddr: true}, msg)
		return true
	}
	fmt.Fprintf(stderr, "%s: error: '%s': %s\n", s.cfg.print.prog, obj, msg)
	return true
}

// llvm19Error is the error line llvm-symbolizer 19 prints for a module
// that could not be read (printError): the program, the module as the
// query names it, LLVM's message; an unknown build-id is named by the id,
// the message then without it.
func llvm19Error(prog, module, msg string) string {
	if _, ok := strings.CutPrefix(msg, "could not find build ID '"); ok {
		msg = "could not find build ID"
	}
	return fmt.Sprintf("%s: error: '%s': %s\n", prog, module, msg)
}
