package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The bars of issue 29 that one run can check, against the peers measured
// in that run.
const (
	goalW1WallVsLLVM = 0.2 // W1 wall against llvm-symbolizer 19's
	goalW1CPUVsGimli = 0.7 // W1 user+sys against gimli's
	goalW1RSSVsLLVM  = 0.4 // W1 peak RSS against llvm-symbolizer 19's
	goalW2VsGimli    = 1.0 // W2 wall against gimli's
)

func (c *symConfig) sum(b, t, w string) summary { return summarize(c.cells[cellKey{b, t, w}]) }

func (c *symConfig) has(name string) bool {
	_, ok := c.tool(name)
	return ok
}

// tool returns the run's tool of that name.
func (c *symConfig) tool(name string) (tool, bool) {
	for _, t := range c.tools {
		if t.name == name {
			return t, true
		}
	}
	return tool{}, false
}

func (c *symConfig) report(w io.Writer) error {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	took := time.Since(c.started).Round(time.Second)
	p("## Symbolizers side by side (%s UTC)\n\n", c.started.UTC().Format("2006-01-02 15:04"))
	p("- sanitrace: %s\n", orDash(c.sanitraceVersion))
	p("- machine: %s\n", machine())
	p("- load average (1/5/15 min): %s before, %s after; the run took %s\n", c.loadBefore, loadAvg(), took)
	p("- W1 = %d addresses, W2 = 1, W3 = %d (seed %d); runs per cell W1 %d, W2 %d, W3 %d, interleaved across tools; medians\n",
		c.nBatch, c.nSmall, c.seed, c.reps["W1"], c.reps["W2"], c.reps["W3"])
	p("- tools:\n")
	for _, t := range c.tools {
		p("  - %s: `%s` (%s)\n", t.name, strings.Join(t.argv("BIN"), " "), orDash(t.version))
	}
	if len(c.missing) > 0 {
		p("- not found, skipped: %s\n", strings.Join(c.missing, ", "))
	}
	p("\n")
	if err := sectionTable(w, c.binPaths()); err != nil {
		return err
	}

	p("\n### Wall time / peak RSS, medians\n\n| binary | tool |")
	for _, wl := range c.workloads {
		p(" %s |", c.workloadTitle(wl))
	}
	p("\n|---|---|%s\n", strings.Repeat("---:|", len(c.workloads)))
	for _, b := range c.binNames {
		for _, t := range c.tools {
			p("| %s | %s |", b, t.name)
			for _, wl := range c.workloads {
				p(" %s |", c.cell(b, t, wl))
			}
			p("\n")
		}
	}

	p("\n### CPU (user+sys), medians; cpu/wall above 1 means more than one core busy\n\n")
	p("| binary | tool | W1 CPU | W1 cpu/wall | W2 CPU | W3 CPU |\n|---|---|---:|---:|---:|---:|\n")
	for _, b := range c.binNames {
		for _, t := range c.tools {
			w1, w2, w3 := c.sum(b, t.name, "W1"), c.sum(b, t.name, "W2"), c.sum(b, t.name, "W3")
			p("| %s | %s | %s | %s | %s | %s |\n", b, t.name, secs(w1), perWall(w1), secs(w2), secs(w3))
		}
	}

	if c.has("sanitrace") {
		c.ratioTables(p)
	}
	c.agreementTables(p)
	p("\nCells: median wall / median peak RSS (MiB). \"1 run\": took more than %s of CPU, not repeated. "+
		"\"rc=N\": the tool exited non-zero. \"skipped (est.)\": W1 not run, its CPU time extrapolated from W2 and W3 above %s. "+
		"\"x/N blocks!\": an llvm-style tool printed the wrong number of answers. Ratios are of medians "+
		"taken in this run; below 1 sanitrace is faster or smaller. Only ratios within one run compare: "+
		"absolute times move with the host's load.\n", c.singleAbove, c.w1MaxEst)
	return nil
}

func (c *symConfig) binPaths() []string {
	var ps []string
	for _, b := range c.binNames {
		ps = append(ps, filepath.Join(c.cache, "corpus", b, b))
	}
	return ps
}

func (c *symConfig) workloadTitle(wl string) string {
	switch wl {
	case "W1":
		return fmt.Sprintf("W1 %s", thousands(c.nBatch))
	case "W3":
		return fmt.Sprintf("W3 %s", thousands(c.nSmall))
	}
	return "W2 cold (1 addr)"
}

func (c *symConfig) cell(b string, t tool, wl string) string {
	key := cellKey{b, t.name, wl}
	s := c.sum(b, t.name, wl)
	note := c.notes[key]
	if s.n == 0 {
		return orDash(note)
	}
	txt := fmt.Sprintf("%s / %.0f MiB", fmtDur(s.wall), s.rss)
	var marks []string
	if note != "" {
		marks = append(marks, note)
	}
	if s.exit != 0 {
		marks = append(marks, fmt.Sprintf("rc=%d", s.exit))
	}
	if wl == "W1" && t.style == llvmStyle {
		if nb, ok := c.w1Blocks[key]; ok && nb != c.nBatch {
			marks = append(marks, fmt.Sprintf("%d/%d blocks!", nb, c.nBatch))
		}
	}
	if len(marks) > 0 {
		txt += " (" + strings.Join(marks, ", ") + ")"
	}
	return txt
}

func secs(s summary) string {
	if s.n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f s", s.cpu)
}

func perWall(s summary) string {
	if s.n == 0 || s.wall == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", s.cpu/s.wall)
}

// ratioTables prints sanitrace against every peer, and the bars.
func (c *symConfig) ratioTables(p func(string, ...any)) {
	p("\n### sanitrace against each peer (ratio of medians; < 1: sanitrace faster or smaller)\n\n")
	p("| binary | peer | W1 wall | W1 CPU | W1 RSS | W2 wall | W2 CPU | W2 RSS | W3 wall | W3 CPU |\n")
	p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, b := range c.binNames {
		s := map[string]summary{}
		for _, wl := range []string{"W1", "W2", "W3"} {
			s[wl] = c.sum(b, "sanitrace", wl)
		}
		for _, t := range c.tools {
			if strings.HasPrefix(t.name, "sanitrace") {
				continue
			}
			o := map[string]summary{}
			for _, wl := range []string{"W1", "W2", "W3"} {
				o[wl] = c.sum(b, t.name, wl)
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", b, t.name,
				ratio(s["W1"].wall, o["W1"].wall), ratio(s["W1"].cpu, o["W1"].cpu), ratio(s["W1"].rss, o["W1"].rss),
				ratio(s["W2"].wall, o["W2"].wall), ratio(s["W2"].cpu, o["W2"].cpu), ratio(s["W2"].rss, o["W2"].rss),
				ratio(s["W3"].wall, o["W3"].wall), ratio(s["W3"].cpu, o["W3"].cpu))
		}
	}
	if !c.has("llvm-symbolizer-19") || !c.has("gimli-addr2line") {
		return
	}
	p("\n### Issue 29's bars in this run\n\n")
	p("| binary | W1 wall / llvm 19 (≤ %.1f) | W1 CPU / gimli (≤ %.1f) | W1 RSS / llvm 19 (≤ %.1f) | W2 wall / gimli (≤ %.1f) |\n",
		goalW1WallVsLLVM, goalW1CPUVsGimli, goalW1RSSVsLLVM, goalW2VsGimli)
	p("|---|---:|---:|---:|---:|\n")
	for _, b := range c.binNames {
		st, l, g := "sanitrace", "llvm-symbolizer-19", "gimli-addr2line"
		p("| %s | %s | %s | %s | %s |\n", b,
			bar(c.sum(b, st, "W1").wall, c.sum(b, l, "W1").wall, goalW1WallVsLLVM),
			bar(c.sum(b, st, "W1").cpu, c.sum(b, g, "W1").cpu, goalW1CPUVsGimli),
			bar(c.sum(b, st, "W1").rss, c.sum(b, l, "W1").rss, goalW1RSSVsLLVM),
			bar(c.sum(b, st, "W2").wall, c.sum(b, g, "W2").wall, goalW2VsGimli))
	}
}

// bar prints a/b and whether it is within the goal.
func bar(a, b, goal float64) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	if a/b <= goal {
		return fmt.Sprintf("%.2fx met", a/b)
	}
	return fmt.Sprintf("%.2fx **not met**", a/b)
}

// agreementTables compares W3's answers: each llvm-style tool with each
// llvm-symbolizer, sanitrace's addr2line face with GNU addr2line, and
// counts every tool's frames and unknown locations.
func (c *symConfig) agreementTables(p func(string, ...any)) {
	type pair struct{ cand, ref string }
	var pairs []pair
	for _, cand := range []string{"sanitrace", "llvm-symbolizer-14"} {
		for _, ref := range []string{"llvm-symbolizer-19", "llvm-symbolizer-14"} {
			if cand != ref && c.has(cand) && c.has(ref) {
				pairs = append(pairs, pair{cand, ref})
			}
		}
	}
	if c.has("sanitrace") && c.has("llvm-symbolizer-19") {
		pairs = append(pairs, pair{as19, "llvm-symbolizer-19"})
	}
	if c.has("sanitrace-addr2line") && c.has("addr2line") {
		pairs = append(pairs, pair{"sanitrace-addr2line", "addr2line"})
	}
	w3 := func(b, t string) []byte {
		out, _ := os.ReadFile(filepath.Join(c.out, "w3", b+"."+t+".out"))
		return out
	}
	var diffs []string
	if len(pairs) > 0 {
		p("\n### W3 answers compared (identical answers / addresses; GNU-style outputs: identical lines)\n\n| binary |")
		for _, pr := range pairs {
			p(" %s = %s |", pr.cand, pr.ref)
		}
		p("\n|---|%s\n", strings.Repeat("---:|", len(pairs)))
		for _, b := range c.binNames {
			p("| %s |", b)
			for _, pr := range pairs {
				ref, cand := w3(b, pr.ref), w3(b, pr.cand)
				if len(ref) == 0 || len(cand) == 0 {
					p(" - |")
					continue
				}
				var a agreement
				if pr.ref == "addr2line" {
					a = compareLines(ref, cand, 3)
				} else {
					a = compareLLVM(ref, cand, c.nSmall, 3)
				}
				p(" %d/%d |", a.same, a.total)
				if pr.cand == "sanitrace" || pr.cand == as19 || pr.cand == "sanitrace-addr2line" {
					for _, d := range a.diffs {
						diffs = append(diffs, fmt.Sprintf("%s, %s against %s, answer %d:\n%s--- %s\n%s",
							b, pr.cand, pr.ref, d.index+1, indent(d.ref), pr.cand, indent(d.cand)))
					}
				}
			}
			p("\n")
		}
	}
	if c.has("sanitrace") && c.has("llvm-symbolizer-19") {
		p("\n%s: sanitrace's W3 answers with `--llvm-version=19` (run once, untimed); the timed runs answer as llvm-symbolizer 14 does, whose names differ from 19's (`> >`).\n", as19)
	}
	if len(diffs) > 0 {
		p("\nFirst differences (reference first):\n\n```\n%s```\n", strings.Join(diffs, "\n"))
	}
	p("\n### W3 frames printed (share without file:line)\n\n| binary |")
	for _, t := range c.tools {
		p(" %s |", t.name)
	}
	p("\n|---|%s\n", strings.Repeat("---:|", len(c.tools)))
	for _, b := range c.binNames {
		p("| %s |", b)
		for _, t := range c.tools {
			out := w3(b, t.name)
			if len(out) == 0 {
				p(" - |")
				continue
			}
			n, unk := frames(out)
			p(" %d (%.1f%% ??) |", n, 100*float64(unk)/float64(max(n, 1)))
		}
		p("\n")
	}
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
