package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/corpustest"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/wire"
)

// physical groups decoded frames into the physical frames of the log: an
// inline chain (frames marked inlined, then their caller) is one.
func physical(frames []wire.Frame) [][]wire.Frame {
	var out [][]wire.Frame
	var cur []wire.Frame
	for _, f := range frames {
		cur = append(cur, f)
		if !f.Inlined {
			out = append(out, cur)
			cur = nil
		}
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

// corpusTally counts, over the corpus, what must show: reports and stacks
// found, and frames of the case binaries carrying llvm-symbolizer's answer.
type corpusTally struct {
	cases, reports, reportsOK, stacks, stacksOK int
	frames, framesOK                            int // in-case physical frames
	otherFrames, otherOK                        int // frames in system modules: module+offset only
	summaries, summariesOK                      int // clang cases: SUMMARY as the runtime symbolized it
	diffs                                       []string
}

func (c *corpusTally) diff(format string, args ...any) {
	c.diffs = append(c.diffs, fmt.Sprintf(format, args...))
}

// TestDecodeCorpus decodes every corpus case's unsymbolized.log with
// /build/ci mapped onto the corpus and compares the result with the case's
// expected_unsymbolized.json: the same reports, tools, kinds, stack titles
// and frame sequence (module, offset, pc), and for every frame in a case
// binary the inline chain llvm-symbolizer 14 gives (function, file, line,
// column).
func TestDecodeCorpus(t *testing.T) {
	corpus := filepath.Dir(sharedtest.Dir(t, "corpus", "cases"))
	ids, err := filepath.Glob(filepath.Join(corpus, "cases", "*", "expected_unsymbolized.json"))
	if err != nil || len(ids) == 0 {
		t.Skipf("no corpus cases under %s", corpus)
	}
	sort.Strings(ids)
	var all corpusTally
	for _, exp := range ids {
		dir := filepath.Dir(exp)
		id := filepath.Base(dir)
		var tally corpusTally
		t.Run(id, func(t *testing.T) {
			tally = decodeCase(t, corpus, dir)
			for i, d := range tally.diffs {
				if i == 5 {
					t.Logf("... %d more", len(tally.diffs)-5)
					break
				}
				t.Log(d)
			}
			if tally.reportsOK != tally.reports || tally.stacksOK != tally.stacks {
				t.Errorf("reports %d/%d, stacks %d/%d found as expected", tally.reportsOK, tally.reports, tally.stacksOK, tally.stacks)
			}
		})
		all.cases++
		all.reports += tally.reports
		all.reportsOK += tally.reportsOK
		all.stacks += tally.stacks
		all.stacksOK += tally.stacksOK
		all.frames += tally.frames
		all.framesOK += tally.framesOK
		all.otherFrames += tally.otherFrames
		all.otherOK += tally.otherOK
		all.summaries += tally.summaries
		all.summariesOK += tally.summariesOK
	}
	strict := 100 * float64(all.framesOK) / float64(max(all.frames, 1))
	t.Logf("corpus: %d cases; reports %d/%d; stacks %d/%d; case-binary frames identical to llvm-symbolizer %d/%d (%.2f%%); system-module frames with the right module+offset %d/%d; clang SUMMARY lines as the runtime printed them %d/%d",
		all.cases, all.reportsOK, all.reports, all.stacksOK, all.stacks, all.framesOK, all.frames, strict, all.otherOK, all.otherFrames, all.summariesOK, all.summaries)
	if all.summariesOK != all.summaries {
		t.Errorf("%d of %d SUMMARY lines differ from the runtime's", all.summaries-all.summariesOK, all.summaries)
	}
	if strict < 99 {
		t.Errorf("only %.2f%% of case-binary frames identical, want >= 99%%", strict)
	}
}

func decodeCase(t *testing.T, corpus, dir string) corpusTally {
	var tally corpusTally
	want, err := corpustest.Load(filepath.Join(dir, "expected_unsymbolized.json"))
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "unsymbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	// Decoded from stdin in the log's directory, as a user would: TSan
	// names the executable by base name only, and some reports print no
	// absolute path for it anywhere.
	t.Chdir(dir)
	stdout, stderr, code := runCLI(t, string(log), "decode", "--format", "json", "--prefix-map", "/build/ci="+corpus)
	wantCode := exitOK
	if len(want.Reports) > 0 {
		wantCode = exitFound
	}
	if code != wantCode {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, wantCode, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(line, "/build/ci/") {
			t.Errorf("a case module was not usable: %s", line)
		}
	}
	got := parseDecodeJSON(t, stdout)
	symbolizedSummaries := clangSummaries(t, dir)

	tally.reports = len(want.Reports)
	if len(got.Reports) != len(want.Reports) {
		tally.diff("%d reports, want %d", len(got.Reports), len(want.Reports))
	}
	for ri := range min(len(got.Reports), len(want.Reports)) {
		g, w := got.Reports[ri], want.Reports[ri]
		ok := true
		if g.Tool != w.Tool {
			tally.diff("report %d: tool %q, want %q", ri, g.Tool, w.Tool)
			ok = false
		}
		if g.Kind != w.HeadlineBugType && g.Kind != w.BugType && g.Kind != corpustest.Deref(w.UBSanCheck) {
			tally.diff("report %d: kind %q, want %q (or %q)", ri, g.Kind, w.HeadlineBugType, w.BugType)
			ok = false
		}
		tally.stacks += len(w.Stacks)
		if len(g.Stacks) != len(w.Stacks) {
			tally.diff("report %d: %d stacks, want %d", ri, len(g.Stacks), len(w.Stacks))
			ok = false
		}
		for si := range min(len(g.Stacks), len(w.Stacks)) {
			gs, ws := g.Stacks[si], w.Stacks[si]
			stackOK := true
			if strings.TrimSpace(gs.Title) != strings.TrimSpace(ws.Title) {
				tally.diff("report %d stack %d: title %q, want %q", ri, si, gs.Title, ws.Title)
				stackOK = false
			}
			phys := physical(gs.Frames)
			if len(phys) != len(ws.Frames) {
				tally.diff("report %d stack %d (%s): %d physical frames, want %d", ri, si, ws.Title, len(phys), len(ws.Frames))
				stackOK = false
			}
			for fi := range min(len(phys), len(ws.Frames)) {
				chain, wf := phys[fi], ws.Frames[fi]
				wantOffset := corpustest.Deref(wf.ModuleOffset)
				where := fmt.Sprintf("report %d stack %d frame %d (%s+%s)", ri, si, fi, wf.Module, wantOffset)
				// Every frame of one chain carries the physical frame's module, offset and pc.
				placeOK := true
				for _, f := range chain {
					mod := str(f.Module)
					if mod != wf.Module && mod != str(wf.ModuleAsPrinted) {
						tally.diff("%s: module %q", where, mod)
						placeOK = false
					}
					if str(f.Offset) != wantOffset {
						tally.diff("%s: offset %q", where, str(f.Offset))
						placeOK = false
					}
					if wf.PC != nil && str(f.PC) != *wf.PC {
						tally.diff("%s: pc %q, want %q", where, str(f.PC), *wf.PC)
						placeOK = false
					}
				}
				if !placeOK {
					stackOK = false
				}
				if wf.InCase == nil {
					tally.otherFrames++
					if placeOK {
						tally.otherOK++
					}
					continue
				}
				tally.frames++
				if placeOK {
					if sameChain(&tally, where, chain, runtimeNames(w.Tool, wf.LLVMSymbolizer)) {
						tally.framesOK++
					}
				}
			}
			if stackOK {
				tally.stacksOK++
			}
		}
		if ri < len(symbolizedSummaries) && symbolizedSummaries[ri] != "" && w.Summary != nil && strings.HasPrefix(w.Summary.Module, "/build/ci/cases/") {
			tally.summaries++
			if want := g.Tool + ": " + symbolizedSummaries[ri]; str(g.Summary) == want {
				tally.summariesOK++
			} else {
				tally.diff("report %d: summary %q, want %q", ri, str(g.Summary), want)
			}
		}
		if ok {
			tally.reportsOK++
		}
	}
	return tally
}

// clangSummaries returns the SUMMARY texts of the symbolized run of a
// clang case (its runtime used llvm-symbolizer, as decode does), per report;
// nil for gcc cases, whose runtime symbolizes with libbacktrace.
func clangSummaries(t *testing.T, dir string) []string {
	if !strings.Contains(filepath.Base(dir), "_clang_") {
		return nil
	}
	exp, err := corpustest.Load(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range exp.Reports {
		text := "" // gcc's libubsan prints no SUMMARY line
		if r.Summary != nil {
			text = r.Summary.Text
		}
		out = append(out, text)
	}
	return out
}

// runtimeNames turns llvm-symbolizer's answer into what the runtime prints
// from it: ThreadSanitizer drops the "__interceptor_" prefix of function
// names in its stacks (compiler-rt tsan_report.cpp); the other tools print
// the answer as it is.
func runtimeNames(tool string, answer []corpustest.LLVMAnswer) []corpustest.LLVMAnswer {
	if tool != "ThreadSanitizer" {
		return answer
	}
	out := make([]corpustest.LLVMAnswer, len(answer))
	for i, a := range answer {
		a.Function = strings.TrimPrefix(a.Function, "__interceptor_")
		out[i] = a
	}
	return out
}

// sameChain compares a decoded inline chain with llvm-symbolizer's.
func sameChain(tally *corpusTally, where string, chain []wire.Frame, want []corpustest.LLVMAnswer) bool {
	format := func(fn, file string, line, col int) string {
		return fmt.Sprintf("%s %s:%d:%d", fn, file, line, col)
	}
	var g, w []string
	for _, f := range chain {
		g = append(g, format(str(f.Function), str(f.File), f.Line, f.Column))
	}
	for _, a := range want {
		w = append(w, format(a.Function, corpustest.Deref(a.File), corpustest.Deref(a.Line), corpustest.Deref(a.Column)))
	}
	gs, ws := strings.Join(g, " | "), strings.Join(w, " | ")
	if gs != ws {
		tally.diff("%s:\n    got  %s\n    want %s", where, gs, ws)
		return false
	}
	known := len(want) > 0 && (want[0].Function != "" || corpustest.Deref(want[0].File) != "")
	for _, f := range chain {
		if known && f.Symbolized != "sanitrace" {
			tally.diff("%s: symbolized %q, want \"sanitrace\"", where, f.Symbolized)
			return false
		}
	}
	return true
}
