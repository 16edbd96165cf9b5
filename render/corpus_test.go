package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/corpustest"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

// The corpus cases under testdata/corpus are copies of
// ../shared/corpus/cases/<id>/: real runtime output (symbolized.log,
// unsymbolized.log) and the corpus's reference parse of it (expected*.json).
// The golden tests read the logs with parse.NewScanner, as sanitrace does;
// frames "filled by sanitrace" get the llvm-symbolizer 14 answers stored in
// expected_unsymbolized.json, i.e. what a correct symbolizer must produce.
// loadCorpus, which builds models from expected.json alone, checks the
// renderer independently of our parser.

// scanLog returns the reports parse.Scanner finds in path.
func scanLog(t *testing.T, path string) []*report.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := parse.NewScanner(f, filepath.Base(path))
	var out []*report.Report
	for {
		r, err := sc.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
}

// fillFromReference expands every unsymbolized frame whose module+offset
// has an llvm-symbolizer answer in the expected_unsymbolized.json at path
// into that inline chain, marked as symbolized by sanitrace.
func fillFromReference(t *testing.T, reports []*report.Report, path string) {
	t.Helper()
	doc, err := corpustest.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string][]corpustest.LLVMAnswer{}
	for _, r := range doc.Reports {
		for _, s := range r.Stacks {
			for _, f := range s.Frames {
				if f.Module != "" && f.ModuleOffset != nil && len(f.LLVMSymbolizer) > 0 {
					answers[f.Module+"+"+*f.ModuleOffset] = f.LLVMSymbolizer
				}
			}
		}
	}
	filled := 0
	for _, r := range reports {
		for i := range r.Stacks {
			var frames []report.Frame
			for _, f := range r.Stacks[i].Frames {
				answer, ok := answers[fmt.Sprintf("%s+0x%x", f.Module, f.Offset)]
				if !ok || !f.HasOffset || f.Symbolized != report.SymbolizedNone {
					frames = append(frames, f)
					continue
				}
				frames = append(frames, referenceChain(f, answer)...)
				filled++
			}
			r.Stacks[i].Frames = frames
		}
	}
	if filled == 0 {
		t.Fatalf("%s: no frame matched a reference answer", path)
	}
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// loadCorpus builds models for the reports of dir/log from dir/expected.
// With fill, frames the log left unsymbolized get the reference
// llvm-symbolizer inline chain, marked as symbolized by sanitrace.
func loadCorpus(t *testing.T, dir, log, expected string, fill bool) []*report.Report {
	t.Helper()
	lines := readLines(t, filepath.Join(dir, log))
	doc, err := corpustest.Load(filepath.Join(dir, expected))
	if err != nil {
		t.Fatal(err)
	}
	var out []*report.Report
	for _, cr := range doc.Reports {
		r := &report.Report{
			Tool: cr.Tool, Severity: cr.Severity, PID: corpustest.Deref(cr.PID), Kind: cr.HeadlineBugType,
			Input: report.InputRange{Name: log, FirstLine: cr.LineRange[0], LastLine: cr.LineRange[1]},
		}
		if cr.Tool == "UndefinedBehaviorSanitizer" {
			r.Kind = cr.BugType
		}
		for i := cr.LineRange[0]; i <= cr.LineRange[1] && i <= len(lines); i++ {
			l := lines[i-1]
			r.Raw = append(r.Raw, l)
			if r.Headline == "" && strings.Contains(l, cr.Headline) {
				r.Headline = strings.TrimSpace(l)
			}
		}
		if a := cr.Access; a != nil {
			r.Access = &report.Access{Op: a.Kind, Size: a.Size, Address: a.Address, Thread: a.Thread}
		}
		for _, l := range cr.Locations {
			r.Location = append(r.Location, report.Location{Text: l.Text})
		}
		for _, cs := range cr.Stacks {
			s := report.Stack{Title: cs.Title, Role: corpustest.Role(cs.Role)}
			for _, cf := range cs.Frames {
				s.Frames = append(s.Frames, corpusFrames(t, cf, fill)...)
			}
			r.Stacks = append(r.Stacks, s)
		}
		if cr.Summary != nil {
			r.Summary.Text = strings.TrimPrefix(cr.Summary.Raw, "SUMMARY: ")
		}
		if cr.Shadow != nil {
			r.Shadow = &report.Shadow{Legend: map[string]string{}}
			for _, row := range cr.Shadow.Rows {
				m := -1
				if row.MarkedIndex != nil {
					m = *row.MarkedIndex
				}
				r.Shadow.Rows = append(r.Shadow.Rows, report.ShadowRow{Address: row.Address, Bytes: row.Bytes, Marked: m, Current: row.Current})
			}
			if cr.ShadowLegend != nil {
				for _, e := range cr.ShadowLegend.Entries {
					for _, b := range e.Bytes {
						r.Shadow.Legend[b] = e.Name
					}
				}
			}
		}
		parse.Fill(r) // the typed parts, as the parser would give them
		out = append(out, r)
	}
	return out
}

func corpusFrames(t *testing.T, cf corpustest.Frame, fill bool) []report.Frame {
	f := report.Frame{Index: -1, Raw: cf.Raw, Inlined: cf.Inlined, Symbolized: report.SymbolizedNone}
	if m := regexp.MustCompile(`^#(\d+)`).FindStringSubmatch(cf.Raw); m != nil {
		f.Index, _ = strconv.Atoi(m[1])
	}
	if cf.PC != nil {
		f.PC, f.HasPC = mustHex(t, *cf.PC), true
	}
	if cf.Function != nil {
		f.Function = *cf.Function
	}
	if cf.File != nil {
		f.File = *cf.File
	}
	if cf.Line != nil {
		f.Line = *cf.Line
	}
	if cf.Column != nil {
		f.Column = *cf.Column
	}
	switch {
	case cf.ModuleAsPrinted != nil:
		f.Module = *cf.ModuleAsPrinted
	case cf.Module != "" && strings.Contains(cf.Raw, "("+cf.Module+"+"):
		f.Module = cf.Module
	}
	if f.Module != "" && cf.ModuleOffset != nil {
		f.Offset, f.HasOffset = mustHex(t, *cf.ModuleOffset), true
	}
	if cf.BuildID != nil {
		f.BuildID = *cf.BuildID
	}
	if f.Function != "" || f.File != "" {
		f.Symbolized = report.SymbolizedReport
	}
	if !fill || len(cf.LLVMSymbolizer) == 0 || f.Symbolized != report.SymbolizedNone {
		return []report.Frame{f}
	}
	return referenceChain(f, cf.LLVMSymbolizer)
}

// referenceChain expands f into llvm-symbolizer's inline chain for it,
// marked as symbolized by sanitrace.
func referenceChain(f report.Frame, answer []corpustest.LLVMAnswer) []report.Frame {
	chain := make([]report.Frame, 0, len(answer))
	for i, a := range answer {
		g := f
		g.Function, g.File = a.Function, corpustest.Deref(a.File)
		g.Line, g.Column = corpustest.Deref(a.Line), corpustest.Deref(a.Column)
		g.Inlined = i < len(answer)-1
		g.Symbolized = report.SymbolizedSanitrace
		chain = append(chain, g)
	}
	return chain
}

func mustHex(t *testing.T, s string) uint64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("bad hex %q", s)
	}
	return v
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		out = append(out, ansiRE.ReplaceAllString(sc.Text(), ""))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// glibcBacktrace is testdata/glibc/backtrace.log (backtrace_symbols_fd
// from a SIGSEGV handler, gcc 12 -O0 -g -rdynamic, loaded at
// 0x55bb1d69a000) read by parse.Scanner, with the frames of ./bt filled by
// what llvm-symbolizer 14 answered for their return address minus one.
func glibcBacktrace(t *testing.T) []*report.Report {
	reports := scanLog(t, filepath.Join("testdata", "glibc", "backtrace.log"))
	type answer struct {
		fn        string
		line, col int
	}
	byPC := map[uint64]answer{ // llvm-symbolizer --obj=bt 0x119d 0x11f3 0x120f 0x1236
		0x55bb1d69b19e: {"on_fault", 9, 11},
		0x55bb1d69b1f4: {"parse_record", 15, 75},
		0x55bb1d69b210: {"load_config", 16, 67},
		0x55bb1d69b237: {"main", 20, 10},
	}
	filled := 0
	for _, r := range reports {
		for i := range r.Stacks {
			for j := range r.Stacks[i].Frames {
				f := &r.Stacks[i].Frames[j]
				if a, ok := byPC[f.PC]; ok && f.Module == "./bt" {
					f.Function, f.File, f.Line, f.Column = a.fn, "/build/sanitrace/bt/bt.c", a.line, a.col
					f.Symbolized = report.SymbolizedSanitrace
					filled++
				}
			}
		}
	}
	if len(reports) != 1 || filled != len(byPC) {
		t.Fatalf("backtrace.log: %d reports, %d frames filled; want 1 and %d", len(reports), filled, len(byPC))
	}
	return reports
}
