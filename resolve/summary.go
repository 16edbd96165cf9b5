package resolve

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/parse"
)

// summaryLocRE is the location an unsymbolized SUMMARY line ends with:
// "(module+0xoff)", then " (BuildId: hex)" on clang runtimes, then the
// space that the empty function name leaves.
var summaryLocRE = regexp.MustCompile(`^(.*?) ?\(([^()]+)\+0x([0-9a-fA-F]+)\)( \(BuildId: [0-9a-fA-F]+\))? ?$`)

// summary rewrites an unsymbolized SUMMARY text the way the runtime prints
// it when it symbolizes itself (compiler-rt RenderFrame "%L %F"): the
// innermost frame at the summary's module offset gives "file:line[:col]
// in function", or "(module+0xoff) in function" without a file.
func summary(rep *parse.Report) {
	m := summaryLocRE.FindStringSubmatch(rep.Summary)
	if m == nil {
		return
	}
	off, err := strconv.ParseUint(m[3], 16, 64)
	if err != nil {
		return
	}
	f, ok := summaryFrame(rep, m[2], off)
	if !ok {
		return
	}
	loc := fmt.Sprintf("(%s+0x%s)%s", m[2], m[3], m[4])
	if f.File != "" {
		loc = f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
			if f.Column > 0 {
				loc += ":" + strconv.Itoa(f.Column)
			}
		}
	}
	rep.Summary = m[1] + " " + loc + " in " + f.Function
}

// summaryFrame finds the innermost sanitrace-symbolized frame at module
// (by full path, or by base name for TSan frames) and offset.
func summaryFrame(rep *parse.Report, module string, off uint64) (parse.Frame, bool) {
	for _, s := range rep.Stacks {
		for _, f := range s.Frames {
			if !f.HasOffset || f.Offset != off || f.Symbolized != parse.SymbolizedSanitrace || f.Function == "" {
				continue
			}
			if f.Module == module || (!strings.Contains(f.Module, "/") && strings.HasSuffix(module, "/"+f.Module)) {
				return f, true
			}
		}
	}
	return parse.Frame{}, false
}
