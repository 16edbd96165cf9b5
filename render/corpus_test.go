package render

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
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
func scanLog(t *testing.T, path string) []*parse.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := parse.NewScanner(f, filepath.Base(path))
	var out []*parse.Report
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
func fillFromReference(t *testing.T, reports []*parse.Report, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reports []corpusReport `json:"reports"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	answers := map[string]corpusFrame{}
	for _, r := range doc.Reports {
		for _, s := range r.Stacks {
			for _, f := range s.Frames {
				if f.Module != nil && f.ModuleOffset != nil && len(f.LLVMSymbolizer) > 0 {
					answers[*f.Module+"+"+*f.ModuleOffset] = f
				}
			}
		}
	}
	filled := 0
	for _, r := range reports {
		for i := range r.Stacks {
			var frames []parse.Frame
			for _, f := range r.Stacks[i].Frames {
				cf, ok := answers[fmt.Sprintf("%s+0x%x", f.Module, f.Offset)]
				if !ok || !f.HasOffset || f.Symbolized != parse.SymbolizedNone {
					frames = append(frames, f)
					continue
				}
				for j, a := range cf.LLVMSymbolizer {
					g := f
					g.Function, g.File, g.Line, g.Column = a.Function, a.File, a.Line, a.Column
					g.Inlined = j < len(cf.LLVMSymbolizer)-1
					g.Symbolized = parse.SymbolizedSanitrace
					frames = append(frames, g)
				}
				filled++
			}
			r.Stacks[i].Frames = frames
		}
	}
	if filled == 0 {
		t.Fatalf("%s: no frame matched a reference answer", path)
	}
}

type corpusFrame struct {
	PC              *string `json:"pc"`
	Function        *string `json:"function"`
	File            *string `json:"file"`
	Line            *int    `json:"line"`
	Column          *int    `json:"column"`
	Module          *string `json:"module"`
	ModuleOffset    *string `json:"module_offset"`
	ModuleAsPrinted *string `json:"module_as_printed"`
	BuildID         *string `json:"build_id"`
	Inlined         bool    `json:"inlined"`
	Raw             string  `json:"raw"`
	LLVMSymbolizer  []struct {
		Function string `json:"function"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
	} `json:"llvm_symbolizer"`
}

type corpusReport struct {
	Tool            string `json:"tool"`
	Severity        string `json:"severity"`
	PID             int    `json:"pid"`
	LineRange       [2]int `json:"line_range"`
	Headline        string `json:"headline"`
	HeadlineBugType string `json:"headline_bug_type"`
	BugType         string `json:"bug_type"`
	Access          *struct {
		Kind    string `json:"kind"`
		Size    int    `json:"size"`
		Address string `json:"address"`
		Thread  string `json:"thread"`
	} `json:"access"`
	Locations []struct {
		Text string `json:"text"`
	} `json:"locations"`
	Stacks []struct {
		Title  string        `json:"title"`
		Role   string        `json:"role"`
		Frames []corpusFrame `json:"frames"`
	} `json:"stacks"`
	Summary *struct {
		Raw string `json:"raw"`
	} `json:"summary"`
	Shadow *struct {
		Rows []struct {
			Address     string   `json:"address"`
			Bytes       []string `json:"bytes"`
			Current     bool     `json:"current"`
			MarkedIndex *int     `json:"marked_index"`
		} `json:"rows"`
	} `json:"shadow"`
	ShadowLegend *struct {
		Entries []struct {
			Name  string   `json:"name"`
			Bytes []string `json:"bytes"`
		} `json:"entries"`
	} `json:"shadow_legend"`
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// corpusRoles maps the corpus's finer stack roles onto the model's.
var corpusRoles = map[string]string{
	"access": "access", "error": "access", "free": "free", "alloc": "alloc",
	"thread_creation": "thread", "stack_frame": "other", "leak": "leak",
	"previous_access": "previous", "mutex_creation": "mutex",
	"mutex_acquire": "mutex", "mutex_previous_acquire": "mutex",
	"location_heap": "alloc", "sleep": "other", "origin_store": "origin",
	"origin_heap": "origin", "origin_stack": "origin", "origin_unknown": "origin",
}

// loadCorpus builds models for the reports of dir/log from dir/expected.
// With fill, frames the log left unsymbolized get the reference
// llvm-symbolizer inline chain, marked as symbolized by sanitrace.
func loadCorpus(t *testing.T, dir, log, expected string, fill bool) []*parse.Report {
	t.Helper()
	lines := readLines(t, filepath.Join(dir, log))
	data, err := os.ReadFile(filepath.Join(dir, expected))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reports []corpusReport `json:"reports"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", expected, err)
	}
	var out []*parse.Report
	for _, cr := range doc.Reports {
		r := &parse.Report{
			Tool: cr.Tool, Severity: cr.Severity, PID: cr.PID, Kind: cr.HeadlineBugType,
			Input: parse.InputRange{Name: log, FirstLine: cr.LineRange[0], LastLine: cr.LineRange[1]},
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
			if frameObjectRE.MatchString(l) || strings.Contains(l, "Cycle in lock order graph") {
				r.Location = append(r.Location, strings.TrimSpace(l))
			}
		}
		if a := cr.Access; a != nil {
			r.Access = &parse.Access{Op: a.Kind, Size: a.Size, Address: a.Address, Thread: a.Thread}
		}
		var locs []string
		for _, l := range cr.Locations {
			locs = append(locs, l.Text)
		}
		r.Location = append(locs, r.Location...)
		for _, cs := range cr.Stacks {
			s := parse.Stack{Title: cs.Title, Role: corpusRoles[cs.Role]}
			for _, cf := range cs.Frames {
				s.Frames = append(s.Frames, corpusFrames(t, cf, fill)...)
			}
			r.Stacks = append(r.Stacks, s)
		}
		if cr.Summary != nil {
			r.Summary = strings.TrimPrefix(cr.Summary.Raw, "SUMMARY: ")
		}
		if cr.Shadow != nil {
			r.Shadow = &parse.Shadow{Legend: map[string]string{}}
			for _, row := range cr.Shadow.Rows {
				m := -1
				if row.MarkedIndex != nil {
					m = *row.MarkedIndex
				}
				r.Shadow.Rows = append(r.Shadow.Rows, parse.ShadowRow{Address: row.Address, Bytes: row.Bytes, Marked: m, Current: row.Current})
			}
			if cr.ShadowLegend != nil {
				for _, e := range cr.ShadowLegend.Entries {
					for _, b := range e.Bytes {
						r.Shadow.Legend[b] = e.Name
					}
				}
			}
		}
		out = append(out, r)
	}
	return out
}

func corpusFrames(t *testing.T, cf corpusFrame, fill bool) []parse.Frame {
	f := parse.Frame{Index: -1, Raw: cf.Raw, Inlined: cf.Inlined, Symbolized: parse.SymbolizedNone}
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
	case cf.Module != nil && strings.Contains(cf.Raw, "("+*cf.Module+"+"):
		f.Module = *cf.Module
	}
	if f.Module != "" && cf.ModuleOffset != nil {
		f.Offset, f.HasOffset = mustHex(t, *cf.ModuleOffset), true
	}
	if cf.BuildID != nil {
		f.BuildID = *cf.BuildID
	}
	if f.Function != "" || f.File != "" {
		f.Symbolized = parse.SymbolizedReport
	}
	if !fill || len(cf.LLVMSymbolizer) == 0 || f.Symbolized != parse.SymbolizedNone {
		return []parse.Frame{f}
	}
	var chain []parse.Frame
	for i, s := range cf.LLVMSymbolizer {
		g := f
		g.Function, g.File, g.Line, g.Column = s.Function, s.File, s.Line, s.Column
		g.Inlined = i < len(cf.LLVMSymbolizer)-1
		g.Symbolized = parse.SymbolizedSanitrace
		chain = append(chain, g)
	}
	return chain
}

func mustHex(t *testing.T, s string) uint64 {
	v, ok := parseHex(s)
	if !ok {
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
func glibcBacktrace(t *testing.T) []*parse.Report {
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
					f.Symbolized = parse.SymbolizedSanitrace
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
