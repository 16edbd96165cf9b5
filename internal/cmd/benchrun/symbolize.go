package main

import (
	"debug/elf"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// corpusOrder is the report order of the binaries bench/build.sh makes;
// any other corpus directory follows in name order.
var corpusOrder = []string{"sqlite3-gcc-O2", "sqlite3-clang-O2", "cpp-heavy", "go-large", "cppcheck-testrunner", "cppcheck-asan"}

type symConfig struct {
	cache, out       string
	tools            []tool
	binNames         []string
	workloads        []string
	nBatch, nSmall   int
	reps             map[string]int
	timeout          time.Duration
	singleAbove      time.Duration
	w1MaxEst         time.Duration
	seed             uint64
	log              io.Writer
	results          *json.Encoder
	cells            map[cellKey][]run
	notes            map[cellKey]string
	w1Blocks         map[cellKey]int
	loadBefore       string
	started          time.Time
	missing          []string
	sanitraceVersion string
}

type cellKey struct{ bin, tool, workload string }

func cmdSymbolize(args []string) error {
	fs := flag.NewFlagSet("symbolize", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (corpus/, tools/, results/)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary to measure")
	toolList := fs.String("tools", defaultTools, "tools to run, space- or comma-separated")
	binList := fs.String("binaries", "", "corpus binaries (default: every one in DIR/corpus)")
	wl := fs.String("workloads", "W3,W2,W1", "workloads, in the order run (W3 first: it sizes W1's estimate)")
	nBatch := fs.Int("n-batch", 100000, "addresses in W1")
	nSmall := fs.Int("n-small", 1000, "addresses in W3")
	reps := fs.Int("reps", 3, "runs of each cell (interleaved across tools)")
	repsW1 := fs.Int("reps-w1", 0, "runs of W1 cells (default -reps)")
	repsW2 := fs.Int("reps-w2", 0, "runs of W2 cells (default -reps)")
	repsW3 := fs.Int("reps-w3", 0, "runs of W3 cells (default -reps)")
	timeout := fs.Duration("timeout", 180*time.Second, "a run is killed after this")
	// The guards count CPU time, which a loaded machine moves far less than
	// wall time: on a shared machine they cut the same cells as on a quiet one.
	single := fs.Duration("single-above", 20*time.Second, "a run that took more CPU time (user+sys) than this is not repeated")
	est := fs.Duration("w1-max-est", 120*time.Second, "W1 is skipped for a tool whose W2 and W3 CPU times extrapolate above this")
	out := fs.String("out", "", "results dir (default DIR/results/<time>)")
	seed := fs.Uint64("seed", 1, "address sampling seed")
	fs.Parse(args)

	c := &symConfig{
		cache: *cache, nBatch: *nBatch, nSmall: *nSmall, timeout: *timeout, singleAbove: *single,
		w1MaxEst: *est, seed: *seed, log: os.Stderr, cells: map[cellKey][]run{},
		notes: map[cellKey]string{}, w1Blocks: map[cellKey]int{},
	}
	c.workloads = fields(*wl)
	c.reps = map[string]int{"W1": pick(*repsW1, *reps), "W2": pick(*repsW2, *reps), "W3": pick(*repsW3, *reps)}
	c.tools, c.missing = findTools(fields(*toolList), *sanitrace, c.cache)
	if len(c.tools) == 0 {
		return fmt.Errorf("none of the tools %q found", *toolList)
	}
	var err error
	if c.binNames, err = corpusBinaries(c.cache, fields(*binList)); err != nil {
		return err
	}
	c.out = *out
	if c.out == "" {
		c.out = filepath.Join(c.cache, "results", time.Now().UTC().Format("20060102-150405"))
	}
	for _, d := range []string{"w1", "w2", "w3", "stderr"} {
		if err := os.MkdirAll(filepath.Join(c.out, d), 0o755); err != nil {
			return err
		}
	}
	rf, err := os.Create(filepath.Join(c.out, "results.jsonl"))
	if err != nil {
		return err
	}
	defer rf.Close()
	c.results = json.NewEncoder(rf)
	c.loadBefore, c.started = loadAvg(), time.Now()
	for _, t := range c.tools {
		if t.name == "sanitrace" {
			c.sanitraceVersion = t.version
		}
	}
	for _, b := range c.binNames {
		if err := c.runBinary(b); err != nil {
			return err
		}
	}
	report, err := os.Create(filepath.Join(c.out, "report.md"))
	if err != nil {
		return err
	}
	defer report.Close()
	w := io.MultiWriter(os.Stdout, report)
	if err := c.report(w); err != nil {
		return err
	}
	fmt.Fprintf(c.log, "[benchrun] report and raw runs in %s\n", c.out)
	return nil
}

func pick(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// fields splits a list given with spaces or commas.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

func defaultCache() string {
	if d := os.Getenv("SANITRACE_BENCH_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ".sanitrace-bench"
	}
	return filepath.Join(home, ".cache", "sanitrace-bench-own")
}

// corpusBinaries lists the binaries to run: the named ones, or every
// DIR/corpus/NAME/NAME in the report order.
func corpusBinaries(cache string, named []string) ([]string, error) {
	if len(named) == 0 {
		seen := map[string]bool{}
		for _, b := range corpusOrder {
			if isFile(filepath.Join(cache, "corpus", b, b)) {
				named, seen[b] = append(named, b), true
			}
		}
		dirs, _ := filepath.Glob(filepath.Join(cache, "corpus", "*"))
		for _, d := range dirs {
			b := filepath.Base(d)
			if !seen[b] && isFile(filepath.Join(d, b)) {
				named = append(named, b)
			}
		}
	}
	if len(named) == 0 {
		return nil, fmt.Errorf("no corpus binaries in %s/corpus: run bench/build.sh first", cache)
	}
	for _, b := range named {
		if !isFile(filepath.Join(cache, "corpus", b, b)) {
			return nil, fmt.Errorf("%s: not in %s/corpus", b, cache)
		}
	}
	return named, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// addressFile returns DIR/corpus/BIN/addrs-N-seedS.txt, drawing it when it
// is missing or older than the binary.
func addressFile(cache, bin string, n int, seed uint64) (string, error) {
	binPath := filepath.Join(cache, "corpus", bin, bin)
	p := filepath.Join(cache, "corpus", bin, fmt.Sprintf("addrs-%d-seed%d.txt", n, seed))
	if fa, err := os.Stat(p); err == nil {
		if fb, err := os.Stat(binPath); err == nil && !fa.ModTime().Before(fb.ModTime()) {
			return p, nil
		}
	}
	return p, writeAddressFile(binPath, p, n, seed)
}

func writeAddressFile(bin, path string, n int, seed uint64) error {
	f, err := elf.Open(bin)
	if err != nil {
		return err
	}
	defer f.Close()
	spans, err := codeSpans(f)
	if err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	tmp := path + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := sampleAddresses(out, spans, n, seed); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// runBinary runs the workloads on one binary: W1 many addresses in one
// process (throughput once the DWARF is loaded), W2 one address in a fresh
// process (what one crash report or one addr2line call in a script pays),
// W3 a thousand (where lazy and eager loading differ most; its answers are
// compared).
func (c *symConfig) runBinary(b string) error {
	binPath := filepath.Join(c.cache, "corpus", b, b)
	small, err := addressFile(c.cache, b, c.nSmall, c.seed)
	if err != nil {
		return err
	}
	one := filepath.Join(c.out, "w2", b+".input")
	if err := writeFirstLine(small, one); err != nil {
		return err
	}
	warm(binPath)
	for _, w := range c.workloads {
		input := one
		n := 1
		switch w {
		case "W1":
			if input, err = addressFile(c.cache, b, c.nBatch, c.seed); err != nil {
				return err
			}
			n = c.nBatch
		case "W3":
			input, n = small, c.nSmall
		case "W2":
		default:
			return fmt.Errorf("unknown workload %s", w)
		}
		c.runCell(b, binPath, w, input, n)
		if w == "W3" {
			c.answersAs19(b, binPath, input)
		}
	}
	return nil
}

// as19 names sanitrace's W3 answers in llvm-symbolizer 19's spelling
// (`sanitrace symbolize --llvm-version=19`).
const as19 = "sanitrace-v19"

// answersAs19 records, untimed, sanitrace's W3 answers as llvm-symbolizer
// 19 spells them, when both tools are in the run: the timed runs answer
// as llvm-symbolizer 14 does (the face's default), so their comparison
// with 19 counts the ">>" of 19's names, not wrong answers.
func (c *symConfig) answersAs19(b, binPath, input string) {
	st, ok := c.tool("sanitrace")
	if !ok || !c.has("llvm-symbolizer-19") {
		return
	}
	j := job{argv: append(st.argv(binPath), "--llvm-version=19"), stdin: input,
		stdout: filepath.Join(c.out, "w3", b+"."+as19+".out"),
		stderr: filepath.Join(c.out, "stderr", b+"."+as19+".W3.txt")}
	if r, err := measure(j, c.timeout); err != nil || r.Exit != 0 {
		fmt.Fprintf(c.log, "[benchrun] %s %s W3: %v (exit %d)\n", b, as19, err, r.Exit)
	}
}

// runCell runs one workload on one binary for every tool, repetitions
// interleaved (rep r starts with the tool r places further on), so a slow
// drift of a shared machine hits every tool alike.
func (c *symConfig) runCell(b, binPath, w, input string, n int) {
	done := map[string]bool{}
	if w == "W1" {
		for _, t := range c.tools {
			if est, ok := c.estimateW1(b, t.name); ok && est > c.w1MaxEst.Seconds() {
				done[t.name] = true
				c.notes[cellKey{b, t.name, w}] = fmt.Sprintf("skipped (est. ~%.0f s CPU)", est)
			}
		}
	}
	for rep := range c.reps[w] {
		for i := range c.tools {
			t := c.tools[(i+rep)%len(c.tools)]
			key := cellKey{b, t.name, w}
			if done[t.name] {
				continue
			}
			stdout := filepath.Join(c.out, strings.ToLower(w), b+"."+t.name+".out")
			if w == "W1" { // one scratch file: cpp-heavy's answers run to ~0.5 GB a tool
				stdout = filepath.Join(c.out, "w1", "last.out")
			}
			j := job{argv: t.argv(binPath), stdin: input, stdout: stdout,
				stderr: filepath.Join(c.out, "stderr", b+"."+t.name+"."+w+".txt")}
			r, err := measure(j, c.timeout)
			if err != nil {
				fmt.Fprintf(c.log, "[benchrun] %s %s %s: %v\n", b, t.name, w, err)
				done[t.name] = true
				c.notes[key] = "failed to start"
				continue
			}
			fmt.Fprintf(c.log, "[benchrun] %-18s %-20s %s rep %d: %s, %.0f MiB, rc=%d\n",
				b, t.name, w, rep+1, fmtDur(r.Wall), float64(r.MaxRSSKB)/1024, r.Exit)
			c.cells[key] = append(c.cells[key], r)
			c.results.Encode(map[string]any{"binary": b, "tool": t.name, "workload": w, "n": n, "rep": rep + 1, "run": r})
			if w == "W1" && t.style == llvmStyle && rep == 0 {
				if nb, err := countBlocks(stdout); err == nil {
					c.w1Blocks[key] = nb
				}
			}
			switch {
			case r.TimedOut:
				done[t.name] = true
				c.notes[key] = fmt.Sprintf("timeout %s", c.timeout)
			case r.cpu() > c.singleAbove.Seconds():
				done[t.name] = true
				c.notes[key] = "1 run"
			}
		}
	}
}

// estimateW1 extrapolates W1's CPU time from W2 (start-up) and W3 (per
// address beyond it).
func (c *symConfig) estimateW1(b, t string) (float64, bool) {
	w2, w3 := summarize(c.cells[cellKey{b, t, "W2"}]), summarize(c.cells[cellKey{b, t, "W3"}])
	if w2.n == 0 || w3.n == 0 || c.nSmall < 2 {
		return 0, false
	}
	per := max(w3.cpu-w2.cpu, 0) / float64(c.nSmall-1)
	return w2.cpu + per*float64(c.nBatch-1), true
}

func writeFirstLine(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	l, _, _ := strings.Cut(string(b), "\n")
	return os.WriteFile(dst, []byte(l+"\n"), 0o644)
}
