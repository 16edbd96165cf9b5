package parse

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/corpustest"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/report"
)

// The shared corpus (../shared/corpus relative to the module root, or
// $SANITRACE_SHARED/corpus) holds real runtime logs and the reference
// parse of each (expected.json, made by the corpus's own tools/sanlog.py
// and cross-checked against a third verification run).

func corpusCases(t testing.TB) []string {
	dirs, err := filepath.Glob(filepath.Join(sharedtest.Dir(t, "corpus", "cases"), "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus cases: %v", err)
	}
	sort.Strings(dirs)
	return dirs
}

func parseAll(t testing.TB, r io.Reader, name string) []*report.Report {
	t.Helper()
	return allReports(t, NewScanner(r, name))
}

// eachReport calls fn with every report of sc, numbered from 0; an error
// other than io.EOF fails the test.
func eachReport(tb testing.TB, sc *Scanner, fn func(n int, r *report.Report)) {
	tb.Helper()
	for n := 0; ; n++ {
		r, err := sc.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
		fn(n, r)
	}
}

// allReports returns every report of sc.
func allReports(tb testing.TB, sc *Scanner) []*report.Report {
	tb.Helper()
	var out []*report.Report
	eachReport(tb, sc, func(_ int, r *report.Report) { out = append(out, r) })
	return out
}

func parseFile(t testing.TB, path string) []*report.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return parseAll(t, f, path)
}

// compareExpected lists every difference between the parse of a log and
// its expected.json.
func compareExpected(got []*report.Report, exp *corpustest.Log, lines []string) []string {
	var d []string
	diff := func(where string, g, e any) {
		if !reflect.DeepEqual(g, e) {
			d = append(d, fmt.Sprintf("%s: got %#v, want %#v", where, g, e))
		}
	}
	diff("report count", len(got), exp.ReportCount)
	for i := range min(len(got), len(exp.Reports)) {
		g, e := got[i], exp.Reports[i]
		p := fmt.Sprintf("report %d", i)
		diff(p+" tool", g.Tool, e.Tool)
		diff(p+" severity", g.Severity, e.Severity)
		diff(p+" pid", g.PID, corpustest.Deref(e.PID))
		diff(p+" message", g.Message, e.Headline)
		wantKind := e.HeadlineBugType
		if e.UBSanCheck != nil {
			wantKind = *e.UBSanCheck
		}
		diff(p+" kind", g.Kind, wantKind)
		// Known difference: sanlog.py ends a report at the line after
		// SUMMARY unless that line is ABORTING, so it leaves out
		// "==PID==HINT: ..." + "==PID==ABORTING"; we keep them.
		if end := e.LineRange[1]; g.Input.LastLine > end && g.Input.LastLine <= len(lines) &&
			strings.HasSuffix(lines[g.Input.LastLine-1], "==ABORTING") && strings.HasPrefix(lines[end], "==") {
			e.LineRange[1] = g.Input.LastLine
		}
		diff(p+" lines", [2]int{g.Input.FirstLine, g.Input.LastLine}, e.LineRange)
		diff(p+" truncated", g.Truncated, false)
		if e.Access == nil {
			diff(p+" access", g.Access, (*report.Access)(nil))
		} else {
			diff(p+" access", g.Access, &report.Access{Op: e.Access.Kind, Size: e.Access.Size, Address: e.Access.Address, Thread: e.Access.Thread})
		}
		var locs []string
		for _, l := range e.Locations {
			locs = append(locs, l.Text)
		}
		var glocs []string
		for _, l := range g.Location {
			glocs = append(glocs, l.Text)
		}
		diff(p+" location", glocs, locs)
		if e.Summary != nil {
			diff(p+" summary", g.Summary.Text, strings.TrimPrefix(e.Summary.Raw, "SUMMARY: "))
			// The typed parts: the bug class (LSan sums up the leaks
			// instead, and UBSan without report_error_type=1 says only
			// "undefined-behavior") and, unsymbolized, the module.
			if !strings.Contains(g.Summary.Kind, " leaked in ") && g.Summary.Kind != "undefined-behavior" {
				diff(p+" summary kind", g.Summary.Kind, e.BugType)
			}
			diff(p+" summary module", g.Summary.Module, e.Summary.Module)
		} else {
			diff(p+" summary", g.Summary.Text, "")
		}
		d = append(d, compareShadow(p, g, e)...)
		diff(p+" stack count", len(g.Stacks), len(e.Stacks))
		for j := range min(len(g.Stacks), len(e.Stacks)) {
			gs, es := g.Stacks[j], e.Stacks[j]
			q := fmt.Sprintf("%s stack %d", p, j)
			diff(q+" title", gs.Title, es.Title)
			diff(q+" role", gs.Role, corpustest.Role(es.Role))
			diff(q+" role detail", gs.RoleDetail, es.Role)
			diff(q+" frame count", len(gs.Frames), len(es.Frames))
			for k := range min(len(gs.Frames), len(es.Frames)) {
				d = append(d, compareFrame(fmt.Sprintf("%s frame %d", q, k), gs.Frames[k], es.Frames[k])...)
			}
		}
	}
	return d
}

func compareFrame(where string, g report.Frame, e corpustest.Frame) []string {
	type view struct {
		Index                  int
		PC                     string
		Function, File         string
		Line, Column           int
		Module, Offset         string
		BuildID                string
		Inlined                bool
		Symbolized             string
		Raw                    string
		HasPCWhenPrinted, Adj0 bool
	}
	gv := view{Index: g.Index, Function: g.Function, File: g.File, Line: g.Line, Column: g.Column,
		BuildID: g.BuildID, Inlined: g.Inlined, Symbolized: g.Symbolized, Raw: g.Raw, Adj0: g.Adjust == 0}
	if g.HasPC {
		gv.PC = "0x" + strconv.FormatUint(g.PC, 16)
	}
	ev := view{
		Index:    e.Index,
		PC:       corpustest.Deref(e.PC),
		Function: corpustest.Deref(e.Function),
		File:     corpustest.Deref(e.File),
		Line:     corpustest.Deref(e.Line),
		Column:   corpustest.Deref(e.Column),
		BuildID:  corpustest.Deref(e.BuildID),
		Inlined:  e.Inlined, Symbolized: report.SymbolizedNone, Raw: e.Raw, Adj0: true,
	}
	if ev.Function != "" || ev.File != "" {
		ev.Symbolized = report.SymbolizedReport
	}
	// The expected module and offset of a frame whose line shows none come
	// from the corpus's hidden verification run, not from the log: compare
	// them only where the log printed them (module_as_printed).
	if e.ModuleAsPrinted != nil {
		ev.Module = *e.ModuleAsPrinted
		ev.Offset = corpustest.Deref(e.ModuleOffset)
		gv.Module = g.Module
		if g.HasOffset {
			gv.Offset = "0x" + strconv.FormatUint(g.Offset, 16)
		}
	}
	if !reflect.DeepEqual(gv, ev) {
		return []string{fmt.Sprintf("%s:\n\tgot  %+v\n\twant %+v", where, gv, ev)}
	}
	return nil
}

func compareShadow(p string, g *report.Report, e corpustest.Report) []string {
	var d []string
	if (g.Shadow != nil) != (e.Shadow != nil || e.ShadowLegend != nil) {
		return []string{fmt.Sprintf("%s shadow: got %v, want present=%v", p, g.Shadow != nil, e.Shadow != nil)}
	}
	if g.Shadow == nil {
		return nil
	}
	var rows []report.ShadowRow
	if e.Shadow != nil {
		for _, r := range e.Shadow.Rows {
			m := -1
			if r.MarkedIndex != nil {
				m = *r.MarkedIndex
			}
			row := report.ShadowRow{Address: r.Address, Bytes: r.Bytes, Marked: m, Current: r.Current}
			if v, err := strconv.ParseUint(strings.TrimPrefix(r.Address, "0x"), 16, 64); err == nil {
				row.Base, row.HasBase = v, true
			}
			rows = append(rows, row)
		}
	}
	if !reflect.DeepEqual(g.Shadow.Rows, rows) {
		d = append(d, fmt.Sprintf("%s shadow rows:\n\tgot  %v\n\twant %v", p, g.Shadow.Rows, rows))
	}
	if e.ShadowLegend != nil {
		legend := map[string]string{}
		for _, en := range e.ShadowLegend.Entries {
			for _, b := range en.Bytes {
				legend[b] = en.Name
			}
		}
		if !reflect.DeepEqual(g.Shadow.Legend, legend) || g.Shadow.Granularity != e.ShadowLegend.Granularity {
			d = append(d, fmt.Sprintf("%s shadow legend: got %d %v, want %d %v", p, g.Shadow.Granularity, g.Shadow.Legend, e.ShadowLegend.Granularity, legend))
		}
	}
	return d
}

// TestCorpus parses both logs of every corpus case and compares the model
// with expected.json / expected_unsymbolized.json field by field.
func TestCorpus(t *testing.T) {
	cases := corpusCases(t)
	logs := []struct{ log, exp string }{
		{"symbolized.log", "expected.json"},
		{"unsymbolized.log", "expected_unsymbolized.json"},
	}
	total, ok, reports := 0, 0, 0
	for _, dir := range cases {
		for _, l := range logs {
			name := filepath.Base(dir) + "/" + l.log
			total++
			pass := t.Run(name, func(t *testing.T) {
				exp, err := corpustest.Load(filepath.Join(dir, l.exp))
				if err != nil {
					t.Fatal(err)
				}
				got := parseFile(t, filepath.Join(dir, l.log))
				reports += len(got)
				data, err := os.ReadFile(filepath.Join(dir, l.log))
				if err != nil {
					t.Fatal(err)
				}
				d := compareExpected(got, exp, strings.Split(string(data), "\n"))
				for i, s := range d {
					if i == 20 {
						t.Errorf("... and %d more differences", len(d)-i)
						break
					}
					t.Error(s)
				}
			})
			if pass {
				ok++
			}
		}
	}
	t.Logf("corpus: %d/%d logs (%d cases) parse exactly as expected; %d reports", ok, total, len(cases), reports)
}
