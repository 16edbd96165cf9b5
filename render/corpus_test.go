package render

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
)

// The corpus cases under testdata/corpus are copies of
// ../shared/corpus/cases/<id>/{symbolized.log,expected.json}: real runtime
// output and the corpus's reference parse of it. Until parse.NewScanner
// exists, the models rendered here are built from that reference parse
// (never from our own output); frames "filled by sanitrace" come from the
// llvm-symbolizer answers stored in expected_unsymbolized.json.

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

// glibcBacktrace is testdata/glibc/backtrace.log (backtrace_symbols_fd from
// a SIGSEGV handler, gcc -O0 -g -rdynamic) as a model; the functions and
// lines of the ./bt frames are what llvm-symbolizer 14 answered for
// offset-1 of each return address.
func glibcBacktrace(t *testing.T) *parse.Report {
	lines := readLines(t, filepath.Join("testdata", "glibc", "backtrace.log"))
	re := regexp.MustCompile(`^(.*?)\((.*?)\)\[(0x[0-9a-f]+)\]$`)
	sym := map[string][3]any{ // return address offset -> function, file, line:col
		"0x119e": {"on_fault", "/build/sanitrace/bt/bt.c", [2]int{9, 11}},
		"0x11f4": {"parse_record", "/build/sanitrace/bt/bt.c", [2]int{15, 75}},
		"0x1210": {"load_config", "/build/sanitrace/bt/bt.c", [2]int{16, 67}},
		"0x1237": {"main", "/build/sanitrace/bt/bt.c", [2]int{20, 10}},
	}
	offsets := map[string]string{"load_config+0x18": "0x1210", "main+0x22": "0x1237", "_start+0x21": "0x10b1"}
	r := &parse.Report{Tool: "glibc", Kind: "backtrace", Headline: lines[0],
		Input: parse.InputRange{Name: "backtrace.log", FirstLine: 1, LastLine: len(lines)}, Raw: lines}
	s := parse.Stack{Title: lines[0], Role: "other"}
	for i, l := range lines[1:] {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("backtrace.log line %d: %q", i+2, l)
		}
		f := parse.Frame{Index: -1, Module: m[1], Adjust: 1, Raw: l, Symbolized: parse.SymbolizedNone}
		f.PC, f.HasPC = mustHex(t, m[3]), true
		off := strings.TrimPrefix(m[2], "+")
		if o, ok := offsets[off]; ok {
			f.Function = strings.SplitN(off, "+", 2)[0]
			f.Symbolized = parse.SymbolizedReport
			off = o
		}
		if strings.HasPrefix(off, "0x") {
			f.Offset, f.HasOffset = mustHex(t, off), true
		} else if j := strings.Index(off, "+"); j > 0 {
			f.Function = off[:j]
			f.Symbolized = parse.SymbolizedReport
		}
		if v, ok := sym[off]; ok && f.Module == "./bt" {
			f.Function, f.File = v[0].(string), v[1].(string)
			lc := v[2].([2]int)
			f.Line, f.Column = lc[0], lc[1]
			f.Symbolized = parse.SymbolizedSanitrace
		}
		s.Frames = append(s.Frames, f)
	}
	r.Stacks = []parse.Stack{s}
	return r
}
