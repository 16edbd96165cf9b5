package resolve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// summary completes an unsymbolized SUMMARY line (one that names a module
// offset and no function) the way the runtime prints it when it
// symbolizes itself (compiler-rt RenderFrame "%L %F"): the innermost frame
// at the summary's module offset gives "file:line[:col] in function", or
// "(module+0xoff) in function" without a file.
func summary(rep *report.Report) {
	s := &rep.Summary
	if !s.HasOffset || s.Function != "" || s.File != "" {
		return
	}
	f, ok := summaryFrame(rep, s.Module, s.Offset)
	if !ok {
		return
	}
	loc := fmt.Sprintf("(%s+0x%x)", s.Module, s.Offset)
	if s.BuildID != "" {
		loc += " (BuildId: " + s.BuildID + ")"
	}
	if f.File != "" {
		loc = f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
			if f.Column > 0 {
				loc += ":" + strconv.Itoa(f.Column)
			}
		}
		s.File, s.Line, s.Column = f.File, f.Line, f.Column
	}
	s.Function = f.Function
	head := s.Kind
	if s.Tool != "" {
		head = s.Tool + ": " + s.Kind
	}
	s.Text = head + " " + loc + " in " + f.Function
}

// summaryFrame finds the innermost sanitrace-symbolized frame at module
// (by full path, or by base name for TSan frames) and offset.
func summaryFrame(rep *report.Report, module string, off uint64) (report.Frame, bool) {
	for _, s := range rep.Stacks {
		for _, f := range s.Frames {
			if !f.HasOffset || f.Offset != off || f.Symbolized != report.SymbolizedSanitrace || f.Function == "" {
				continue
			}
			if f.Module == module || (!strings.Contains(f.Module, "/") && strings.HasSuffix(module, "/"+f.Module)) {
				return f, true
			}
		}
	}
	return report.Frame{}, false
}
