package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"debug/elf"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cmdModules measures one symbolize session that touches many distinct
// binaries: copies of one small binary, each with its own build-id, asked
// for a few addresses each, in passes over all of them. It prints the
// resident memory at each tenth of the queries and the peak, wall and CPU
// time (medians of -reps runs, interleaved), for sanitrace and
// llvm-symbolizer 19 and any -variants (another sanitrace build, other
// --cache-size values), and compares the answers: every sanitrace run's
// must be the first sanitrace's, byte for byte.
func cmdModules(args []string) error {
	fs := flag.NewFlagSet("modules", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (modules go to DIR/modules)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary")
	template := fs.String("template", "testdata/elf/cxx-O2-dw5", "the binary to copy (a small C++ program with DWARF 5: many modules, as a process with many libraries)")
	count := fs.Int("n", 2000, "distinct binaries")
	per := fs.Int("per-module", 4, "addresses asked of each binary in a pass")
	passes := fs.Int("passes", 2, "passes over all binaries")
	toolList := fs.String("tools", "sanitrace llvm-symbolizer-19", "tools (llvm-symbolizer style)")
	variantList := fs.String("variants", "", "more processes to measure, separated by ';': LABEL=PATH [ARG...] (a PATH named llvm-symbolizer* is called as llvm-symbolizer, any other as sanitrace symbolize), e.g. 'main=/tmp/old-sanitrace;64MiB=bin/sanitrace --cache-size=67108864'")
	reps := fs.Int("reps", 1, "runs of each process, interleaved; the tables give medians")
	fs.Parse(args)
	tmpl := *template
	dir := filepath.Join(*cache, "modules", fmt.Sprintf("n%d", *count))
	mods, err := makeModules(tmpl, dir, *count)
	if err != nil {
		return err
	}
	// the queries: each binary asked for its own draw of addresses
	f, err := elf.Open(tmpl)
	if err != nil {
		return err
	}
	spans, err := codeSpans(f)
	f.Close()
	if err != nil {
		return err
	}
	var q bytes.Buffer
	for range *passes {
		for i, m := range mods {
			var addrs bytes.Buffer
			if err := sampleAddresses(&addrs, spans, *per, uint64(i+1)); err != nil {
				return err
			}
			for _, a := range strings.Fields(addrs.String()) {
				fmt.Fprintf(&q, "%s %s\n", m, a)
			}
		}
	}
	queries := *count * *per * *passes
	tools, missing := findTools(fields(*toolList), *sanitrace, *cache)
	var procs []variant
	for _, t := range tools {
		v := variant{label: t.name, path: t.path, sanitrace: t.name == "sanitrace"}
		if v.sanitrace {
			v.version = t.version
		}
		procs = append(procs, v)
	}
	more, err := parseVariants(*variantList)
	if err != nil {
		return err
	}
	procs = append(procs, more...)
	p := func(format string, a ...any) { fmt.Printf(format, a...) }
	fi, _ := os.Stat(tmpl)
	load0, t0 := loadAvg(), time.Now()
	type result struct {
		runs   []run
		series [][]int64
		out    []byte
	}
	results := make([]result, len(procs))
	for rep := range *reps {
		for k := range procs {
			i := (k + rep) % len(procs) // each run's order rotated, as the symbolize part does
			v := procs[i]
			r, series, out, err := sessionRSS(v.path, v.argv(), q.Bytes(), queries)
			if err != nil {
				return fmt.Errorf("%s: %w", v.label, err)
			}
			fmt.Fprintf(os.Stderr, "[benchrun] modules %s rep %d: %s wall, %.2f s CPU, %.0f MiB\n", v.label, rep+1, fmtDur(r.Wall), r.cpu(), float64(r.MaxRSSKB)/1024)
			results[i].runs = append(results[i].runs, r)
			results[i].series = append(results[i].series, series)
			if rep == 0 {
				results[i].out = out
			}
		}
	}
	p("## One symbolize session over %s distinct binaries (%s UTC)\n\n", thousands(*count), t0.UTC().Format("2006-01-02 15:04"))
	p("- binaries: copies of %s (%.1f MB) with distinct build-ids; %d addresses each per pass, %d passes: %s queries as `MODULE 0xADDR` lines on stdin\n",
		filepath.Base(tmpl), float64(fi.Size())/1e6, *per, *passes, thousands(queries))
	p("- machine: %s; load average %s before, %s after; %d runs per process, interleaved, medians\n", machine(), load0, loadAvg(), *reps)
	for _, v := range procs {
		p("- %s: `%s`%s\n", v.label, strings.Join(append([]string{filepath.Base(v.path)}, v.argv()...), " "), v.describe())
	}
	if len(missing) > 0 {
		p("- not found: %s\n", strings.Join(missing, ", "))
	}
	p("\nRSS (MiB) after each tenth of the queries, then the peak:\n\n| process | wall | CPU |")
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
			p(" %.0f |", median(xs)/1024)
		}
		p(" %.0f |\n", s.rss)
	}
	// the answers: every sanitrace process's against the first one's
	p("\nAnswers (first run of each):\n\n")
	ref := -1
	for i, v := range procs {
		if !v.sanitrace {
			continue
		}
		if ref < 0 {
			ref = i
			p("- %s: the reference, %s bytes\n", v.label, thousands(len(results[i].out)))
			continue
		}
		if bytes.Equal(results[i].out, results[ref].out) {
			p("- %s: identical to %s's, byte for byte\n", v.label, procs[ref].label)
		} else {
			p("- %s: **differs** from %s's (%d of %s answers the same)\n", v.label, procs[ref].label, sameAnswers(results[i].out, results[ref].out), thousands(queries))
		}
	}
	for i, v := range procs {
		if !v.sanitrace && ref >= 0 {
			p("- %s: %d of %s answers the same as %s's\n", v.label, sameAnswers(results[i].out, results[ref].out), thousands(queries), procs[ref].label)
		}
	}
	return nil
}

// variant is one process the modules part measures.
type variant struct {
	label, path string
	args        []string // before the session's own
	sanitrace   bool     // called as "sanitrace symbolize"
	version     string
}

func (v variant) argv() []string {
	a := append(slices.Clone(v.args), "--inlining", "--demangle")
	if v.sanitrace {
		a = append([]string{"symbolize"}, a...)
	}
	return a
}

func (v variant) describe() string {
	if v.version != "" {
		return " (" + v.version + ")"
	}
	return ""
}

// parseVariants reads -variants: LABEL=PATH [ARG...] separated by ';'.
func parseVariants(list string) ([]variant, error) {
	var out []variant
	for _, spec := range strings.Split(list, ";") {
		if strings.TrimSpace(spec) == "" {
			continue
		}
		label, cmd, ok := strings.Cut(spec, "=")
		words := strings.Fields(cmd)
		if !ok || len(words) == 0 {
			return nil, fmt.Errorf("-variants: %q is not LABEL=PATH [ARG...]", spec)
		}
		path, err := exec.LookPath(words[0])
		if err != nil {
			return nil, fmt.Errorf("-variants %s: %w", label, err)
		}
		v := variant{label: strings.TrimSpace(label), path: path, args: words[1:],
			sanitrace: !strings.HasPrefix(filepath.Base(path), "llvm-symbolizer")}
		if v.sanitrace {
			v.version = sanitraceVersion(path)
		}
		out = append(out, v)
	}
	return out, nil
}

// sameAnswers counts the answers (blocks ended by an empty line) that a
// and b hold alike, in order.
func sameAnswers(a, b []byte) int {
	x, y := bytes.Split(a, []byte("\n\n")), bytes.Split(b, []byte("\n\n"))
	n := 0
	for i := range min(len(x), len(y)) {
		if bytes.Equal(x[i], y[i]) && len(x[i]) > 0 {
			n++
		}
	}
	return n
}

// makeModules copies tmpl to dir/mNNNN n times, each with a build-id of
// its own (the note's bytes replaced by a hash of the copy's number), and
// returns their paths. Kept between runs.
func makeModules(tmpl, dir string, n int) ([]string, error) {
	f, err := elf.Open(tmpl)
	if err != nil {
		return nil, err
	}
	sec := f.Section(".note.gnu.build-id")
	if sec == nil {
		f.Close()
		return nil, fmt.Errorf("%s: no .note.gnu.build-id", tmpl)
	}
	note, err := sec.Data()
	f.Close()
	if err != nil || len(note) < 16 {
		return nil, fmt.Errorf("%s: unreadable build-id note", tmpl)
	}
	namesz := binary.LittleEndian.Uint32(note[0:])
	descsz := binary.LittleEndian.Uint32(note[4:])
	descOff := int64(sec.Offset) + 12 + int64((namesz+3)&^3)
	data, err := os.ReadFile(tmpl)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("m%04d", i))
		paths = append(paths, p)
		if fi, err := os.Stat(p); err == nil && fi.Size() == int64(len(data)) {
			continue
		}
		sum := sha1.Sum([]byte("sanitrace-bench-module-" + strconv.Itoa(i)))
		id := bytes.Repeat(sum[:], int(descsz)/len(sum)+1)[:descsz]
		copy(data[descOff:], id)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// sessionRSS feeds queries (one a line) to one process a tenth at a time
// and reads the answers (an empty line ends each), which it returns; once
// a tenth is answered, while the process waits for more, it samples VmRSS
// from /proc.
func sessionRSS(path string, args []string, queries []byte, n int) (run, []int64, []byte, error) {
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return run{}, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return run{}, nil, nil, err
	}
	cmd.Stderr = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run{}, nil, nil, err
	}
	lines := bytes.SplitAfter(queries, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var series []int64
	var out bytes.Buffer
	answered, sent := 0, 0
	for tenth := 1; tenth <= 10; tenth++ {
		upto := tenth * len(lines) / 10
		chunk := bytes.Join(lines[sent:upto], nil)
		sent = upto
		werr := make(chan error, 1)
		go func() { _, err := stdin.Write(chunk); werr <- err }()
		for answered < upto && sc.Scan() {
			out.Write(sc.Bytes())
			out.WriteByte('\n')
			if len(sc.Bytes()) == 0 {
				answered++
			}
		}
		if err := <-werr; err != nil || answered < upto {
			break
		}
		series = append(series, vmRSS(cmd.Process.Pid))
	}
	stdin.Close()
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	r := run{Wall: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		r = finished(cmd.ProcessState, r.Wall)
	}
	if answered != n {
		return r, series, nil, fmt.Errorf("%d answers to %d queries (%v)", answered, n, err)
	}
	return r, series, out.Bytes(), err
}

// vmRSS is a live process's resident set in KiB.
func vmRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
