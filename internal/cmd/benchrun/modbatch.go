package main

import (
	"bytes"
	"debug/elf"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// cmdModulesBatch measures a batch run whose logs name many distinct
// binaries: the modules part's copies, each log a real sanitizer report
// whose frames are pointed at a few of them (its program and its
// libraries), the logs going over all the copies -passes times. It prints
// wall, CPU and peak RSS (medians of -reps runs, interleaved), the RSS over
// each tenth of the run, and whether every run's document is the first
// run's, byte for byte.
func cmdModulesBatch(args []string) error {
	fs := flag.NewFlagSet("modules-batch", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (modules go to DIR/modules, logs to DIR/modules-batch)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary")
	template := fs.String("template", "testdata/elf/cxx-O2-dw5", "the binary to copy (as the modules part)")
	reportPath := fs.String("report", "testdata/batch/overflow_gcc_O2/unsymbolized.log", "the report each log is made of (a real unsymbolized report: its frames' modules become copies, their offsets addresses in the copies)")
	count := fs.Int("n", 2000, "distinct binaries")
	passes := fs.Int("passes", 2, "passes of the logs over all binaries")
	jobs := fs.Int("j", 2, "batch -j")
	variantList := fs.String("variants", "", "more batch processes, separated by ';': LABEL=PATH [ARG...] (PATH is a sanitrace), e.g. 'main=/tmp/old-sanitrace;64MiB=bin/sanitrace --cache-size=64M'")
	reps := fs.Int("reps", 1, "runs of each process, interleaved; the tables give medians")
	fs.Parse(args)
	mods, err := makeModules(*template, filepath.Join(*cache, "modules", fmt.Sprintf("n%d", *count)), *count)
	if err != nil {
		return err
	}
	tree := filepath.Join(*cache, "modules-batch", fmt.Sprintf("n%d-p%d", *count, *passes))
	logs, perLog, err := moduleLogs(*template, *reportPath, mods, *passes, tree)
	if err != nil {
		return err
	}
	procs := []variant{{label: "sanitrace", path: *sanitrace, sanitrace: true, version: sanitraceVersion(*sanitrace)}}
	more, err := parseVariants(*variantList)
	if err != nil {
		return err
	}
	procs = append(procs, more...)
	type result struct {
		runs   []run
		series [][]int64
		out    []byte
	}
	results := make([]result, len(procs))
	out := filepath.Join(*cache, "modules-batch", "out.json")
	load0, t0 := loadAvg(), time.Now()
	for rep := range *reps {
		for k := range procs {
			i := (k + rep) % len(procs)
			v := procs[i]
			argv := append([]string{v.path, "batch", "-j", strconv.Itoa(*jobs), "--fail-on", "none", "--progress=never", "-o", out}, v.args...)
			r, series, err := sampledRun(append(argv, filepath.Join(tree, "logs")), []string{"GOMAXPROCS=" + strconv.Itoa(*jobs)})
			if err != nil {
				return fmt.Errorf("%s: %w", v.label, err)
			}
			if r.Exit != 0 {
				return fmt.Errorf("%s: exit status %d", strings.Join(argv, " "), r.Exit)
			}
			fmt.Fprintf(os.Stderr, "[benchrun] modules-batch %s rep %d: %s wall, %.2f s CPU, %.0f MiB\n", v.label, rep+1, fmtDur(r.Wall), r.cpu(), float64(r.MaxRSSKB)/1024)
			results[i].runs = append(results[i].runs, r)
			results[i].series = append(results[i].series, series)
			if rep == 0 {
				if results[i].out, err = os.ReadFile(out); err != nil {
					return err
				}
			}
		}
	}
	p := func(format string, a ...any) { fmt.Printf(format, a...) }
	p("## batch over logs naming %s distinct binaries (%s UTC)\n\n", thousands(*count), t0.UTC().Format("2006-01-02 15:04"))
	p("- logs: %s, each `%s` with its %d modules pointed at %d of the %s copies of %s (distinct build-ids) and its frames' offsets drawn in their code; the logs go over all copies %d times\n",
		thousands(logs), *reportPath, perLog, perLog, thousands(*count), filepath.Base(*template), *passes)
	p("- machine: %s; load average %s before, %s after; %d runs per process, interleaved, medians\n", machine(), load0, loadAvg(), *reps)
	for _, v := range procs {
		p("- %s: `GOMAXPROCS=%d sanitrace batch -j %d --fail-on none --progress=never -o OUT %sLOGS`%s\n", v.label, *jobs, *jobs, strings.Join(append(v.args, ""), " "), v.describe())
	}
	p("\nRSS (MiB): the highest in each tenth of the run's wall time, then the peak:\n\n| process | wall | CPU |")
	for i := 1; i <= 10; i++ {
		p(" %d%% |", i*10)
	}
	p(" peak |\n|---|---:|---:|%s---:|\n", strings.Repeat("---:|", 10))
	for i, v := range procs {
		s := summarize(results[i].runs)
		p("| %s | %s | %.2f s |", v.label, fmtDur(s.wall), s.cpu)
		for tenth := range 10 {
			var xs []float64
			for _, series := range results[i].series {
				if tenth < len(series) {
					xs = append(xs, float64(series[tenth]))
				}
			}
			if m := median(xs); m > 0 {
				p(" %.0f |", m/1024)
			} else {
				p(" - |") // no sample fell in this tenth (a run of a few tenths of a second)
			}
		}
		p(" %.0f |\n", s.rss)
	}
	p("\nDocuments (first run of each): ")
	for i, v := range procs[1:] {
		if bytes.Equal(results[i+1].out, results[0].out) {
			p("%s's is sanitrace's, byte for byte. ", v.label)
		} else {
			p("%s's **differs** from sanitrace's. ", v.label)
		}
	}
	p("sanitrace's holds %s bytes.\n", thousands(len(results[0].out)))
	return nil
}

// frameModule is a module and offset in a sanitizer frame, "(PATH+0xOFF)",
// with the build-id the runtime prints after it, if any.
var frameModule = regexp.MustCompile(`\((/[^()\s]+)\+0x([0-9a-f]+)\)( \(BuildId: [0-9a-f]+\))?`)

// framePC is the pc of a frame line, "    #3 0x7f5451c45304".
var framePC = regexp.MustCompile(`^(\s*#\d+ 0x)[0-9a-f]+`)

// moduleLogs writes under dir/logs the logs of the run (kept between runs:
// a stamp names what they were made from) and returns how many there are
// and how many modules each names. Log i is the report with its k modules
// (in order of appearance) replaced by copies i*k..i*k+k-1 (modulo their
// number), each frame's offset by an address drawn in the copy's code, its
// pc by that address in a PIE's usual range, and the build-id by the
// copy's.
func moduleLogs(template, reportPath string, mods []string, passes int, dir string) (int, int, error) {
	report, err := os.ReadFile(reportPath)
	if err != nil {
		return 0, 0, err
	}
	var names []string
	for _, m := range frameModule.FindAllSubmatch(report, -1) {
		if name := string(m[1]); !containsString(names, name) {
			names = append(names, name)
		}
	}
	k := len(names)
	if k == 0 {
		return 0, 0, fmt.Errorf("%s: no frame names a module and an offset", reportPath)
	}
	logs := (passes*len(mods) + k - 1) / k
	stamp := filepath.Join(dir, "STAMP")
	id := fmt.Sprintf("%s %s %d %d\n", template, reportPath, len(mods), passes)
	if b, err := os.ReadFile(stamp); err == nil && string(b) == id {
		return logs, k, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return 0, 0, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return 0, 0, err
	}
	f, err := elf.Open(template)
	if err != nil {
		return 0, 0, err
	}
	spans, err := codeSpans(f)
	f.Close()
	if err != nil {
		return 0, 0, err
	}
	ids := make([]string, len(mods))
	for i, m := range mods {
		b, err := os.ReadFile(m)
		if err != nil {
			return 0, 0, err
		}
		ef, err := elf.NewFile(bytes.NewReader(b))
		if err != nil {
			return 0, 0, err
		}
		if note := ef.Section(".note.gnu.build-id"); note != nil {
			if d, err := note.Data(); err == nil && len(d) > 16 {
				ids[i] = hex.EncodeToString(d[16:])
			}
		}
	}
	for i := range logs {
		var addrs bytes.Buffer
		if err := sampleAddresses(&addrs, spans, 64, uint64(i+1)); err != nil {
			return 0, 0, err
		}
		offs := strings.Fields(addrs.String())
		frame := 0
		seen := map[string]string{} // a frame named again (SUMMARY's) keeps its replacement
		var b bytes.Buffer
		for _, line := range bytes.SplitAfter(report, []byte("\n")) {
			m := frameModule.FindSubmatchIndex(line)
			if m == nil {
				b.Write(line)
				continue
			}
			name := string(line[m[2]:m[3]])
			key := string(line[m[2]:m[5]])
			repl, ok := seen[key]
			if !ok {
				copyIdx := (i*k + indexOf(names, name)) % len(mods)
				repl = mods[copyIdx] + "+" + offs[frame%len(offs)]
				frame++
				seen[key] = repl
			}
			mod, off, _ := strings.Cut(repl, "+")
			pc, _ := strconv.ParseUint(strings.TrimPrefix(off, "0x"), 16, 64)
			text := "(" + repl + ")"
			if m[6] >= 0 {
				if id := ids[indexOf(mods, mod)]; id != "" {
					text += " (BuildId: " + id + ")"
				}
			}
			line = append(append(append([]byte(nil), line[:m[0]]...), text...), line[m[1]:]...)
			line = framePC.ReplaceAll(line, []byte(fmt.Sprintf("${1}%x", 0x55d000000000+pc)))
			b.Write(line)
		}
		if err := os.WriteFile(filepath.Join(dir, "logs", fmt.Sprintf("%05d.log", i)), b.Bytes(), 0o644); err != nil {
			return 0, 0, err
		}
	}
	return logs, k, os.WriteFile(stamp, []byte(id), 0o644)
}

func containsString(xs []string, s string) bool { return indexOf(xs, s) >= 0 }

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// sampledRun runs argv with env added and samples its resident set every
// 50 ms; the series it returns is the highest sample in each tenth of the
// run's wall time (KiB).
func sampledRun(argv, env []string) (run, []int64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run{}, nil, err
	}
	type sample struct {
		at time.Duration
		kb int64
	}
	var samples []sample
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var werr error
wait:
	for {
		select {
		case werr = <-done:
			break wait
		case <-tick.C:
			if kb := vmRSS(cmd.Process.Pid); kb > 0 {
				samples = append(samples, sample{time.Since(start), kb})
			}
		}
	}
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return run{}, nil, werr
	}
	r := finished(cmd.ProcessState, wall.Seconds())
	series := make([]int64, 10)
	for _, s := range samples {
		t := min(int(10*s.at/wall), 9)
		series[t] = max(series[t], s.kb)
	}
	return r, series, nil
}
