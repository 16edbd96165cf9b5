package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cmdDecode measures `sanitrace decode --symbolize=false` on report-dense
// logs of several sizes (throughput, and peak RSS that should not grow
// with the size) and on a log of program output alone.
func cmdDecode(args []string) error {
	fs := flag.NewFlagSet("decode", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (logs go to DIR/logs)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary")
	sizes := fs.String("sizes-mib", "64,256,512", "sizes of the report-dense logs, MiB")
	noiseSize := fs.Int64("noise-mib", 512, "size of the log without reports, MiB (0: none)")
	reps := fs.Int("reps", 3, "runs of each cell, interleaved")
	dirs := fs.String("reports", "", "directories of *.log reports (default ../shared/corpus/cases, else testdata/reports)")
	seed := fs.Uint64("seed", 1, "seed")
	gap := fs.Int("gap", 16, "at most this many lines of program output between two reports")
	fs.Parse(args)

	srcDirs := fields(*dirs)
	if len(srcDirs) == 0 {
		srcDirs = defaultReportDirs()
	}
	reports, err := findReports(srcDirs)
	if err != nil {
		return err
	}
	logDir := filepath.Join(*cache, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}
	type input struct {
		name, path string
		size       int64
		reports    int
	}
	var inputs []input
	add := func(name string, spec logSpec) error {
		p := filepath.Join(logDir, fmt.Sprintf("%s-%dMiB-seed%d.log", name, spec.size>>20, spec.seed))
		countFile := p + ".reports"
		if b, err := os.ReadFile(countFile); err == nil && isFile(p) {
			n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			inputs = append(inputs, input{name, p, spec.size, n})
			return nil
		}
		fmt.Fprintf(os.Stderr, "[benchrun] writing %s\n", p)
		n, err := makeLog(p, spec)
		if err != nil {
			return err
		}
		inputs = append(inputs, input{name, p, spec.size, n})
		return os.WriteFile(countFile, []byte(fmt.Sprintln(n)), 0o644)
	}
	for _, s := range fields(*sizes) {
		mib, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("-sizes-mib %q: %v", s, err)
		}
		if err := add("dense", logSpec{reports: reports, maxGap: *gap, size: mib << 20, seed: *seed}); err != nil {
			return err
		}
	}
	if *noiseSize > 0 {
		if err := add("noreport", logSpec{size: *noiseSize << 20, seed: *seed}); err != nil {
			return err
		}
	}

	formats := []string{"text", "json"}
	type key struct {
		in  int
		fmt string
	}
	runs := map[key][]run{}
	load0, t0 := loadAvg(), time.Now()
	for rep := range *reps {
		for i, in := range inputs {
			for _, f := range formats {
				j := job{argv: []string{*sanitrace, "decode", "--symbolize=false", "--color=never", "--format", f},
					stdin: in.path}
				r, err := measure(j, 10*time.Minute)
				if err != nil {
					return err
				}
				if r.Exit > 1 {
					return fmt.Errorf("%s on %s: exit status %d", strings.Join(j.argv, " "), in.path, r.Exit)
				}
				fmt.Fprintf(os.Stderr, "[benchrun] %s %s rep %d: %s, %.0f MiB\n", filepath.Base(in.path), f, rep+1, fmtDur(r.Wall), float64(r.MaxRSSKB)/1024)
				runs[key{i, f}] = append(runs[key{i, f}], r)
			}
		}
	}
	p := func(format string, a ...any) { fmt.Printf(format, a...) }
	p("## decode --symbolize=false (%s UTC)\n\n", t0.UTC().Format("2006-01-02 15:04"))
	p("- sanitrace: %s\n- machine: %s\n", sanitraceVersion(*sanitrace), machine())
	p("- load average: %s before, %s after; %d runs per cell, medians\n", load0, loadAvg(), *reps)
	p("- logs: reports drawn (splitmix64, seed %d) from the %d `*.log` files under %s, each after 0–%d lines of program output; the report-free log is program output alone\n",
		*seed, len(reports), strings.Join(srcDirs, ", "), *gap)
	p("- command: `sanitrace decode --symbolize=false --color=never --format F < LOG > /dev/null`\n\n")
	p("| log | MiB | reports | output | wall | MB/s | CPU (user+sys) | MB per CPU s | peak RSS |\n|---|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for i, in := range inputs {
		for _, f := range formats {
			s := summarize(runs[key{i, f}])
			p("| %s | %d | %s | %s | %s | %.0f | %.2f s | %.0f | %.0f MiB |\n", in.name, in.size>>20, thousands(in.reports), f,
				fmtDur(s.wall), float64(in.size)/1e6/s.wall, s.cpu, float64(in.size)/1e6/s.cpu, s.rss)
		}
	}
	p("\nMB/s: 10^6 bytes of log per second of wall time; MB per CPU s: per second of user+sys time, the figure a loaded machine moves least.\n")
	return nil
}

func sanitraceVersion(path string) string {
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		return "?"
	}
	return firstLine(string(out))
}

// cmdBatch measures `sanitrace batch` over a tree of N logs (copies of the
// report logs, each case's binaries beside them so the logs' modules are
// found), on one core and on two.
func cmdBatch(args []string) error {
	fs := flag.NewFlagSet("batch", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (the tree goes to DIR/batch)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary")
	logs := fs.Int("logs", 10000, "logs in the tree")
	reps := fs.Int("reps", 3, "runs of each cell, interleaved")
	cases := fs.String("cases", "", "directory of case folders with *.log and binaries (default ../shared/corpus/cases, else testdata/reports)")
	fs.Parse(args)
	src := *cases
	if src == "" {
		src = defaultReportDirs()[0]
	}
	tree := filepath.Join(*cache, "batch", fmt.Sprintf("tree-%d", *logs))
	n, err := batchTree(src, tree, *logs)
	if err != nil {
		return err
	}
	type cfg struct {
		cpus string
		jobs int
	}
	cfgs := []cfg{{"0", 1}, {"0,1", 2}}
	runs := map[int][]run{}
	load0, t0 := loadAvg(), time.Now()
	out := filepath.Join(*cache, "batch", "out.json")
	for rep := range *reps {
		for i, c := range cfgs {
			j := job{argv: []string{"taskset", "-c", c.cpus, *sanitrace, "batch", "-j", strconv.Itoa(c.jobs),
				"--fail-on", "none", "--progress=never", "-o", out, tree},
				env: []string{"GOMAXPROCS=" + strconv.Itoa(c.jobs)}}
			r, err := measure(j, 30*time.Minute)
			if err != nil {
				return err
			}
			if r.Exit != 0 {
				return fmt.Errorf("%s: exit status %d", strings.Join(j.argv, " "), r.Exit)
			}
			fmt.Fprintf(os.Stderr, "[benchrun] batch -j %d rep %d: %s, %.0f MiB\n", c.jobs, rep+1, fmtDur(r.Wall), float64(r.MaxRSSKB)/1024)
			runs[i] = append(runs[i], r)
		}
	}
	p := func(format string, a ...any) { fmt.Printf(format, a...) }
	p("## batch over %s logs (%s UTC)\n\n", thousands(n), t0.UTC().Format("2006-01-02 15:04"))
	p("- sanitrace: %s\n- machine: %s\n", sanitraceVersion(*sanitrace), machine())
	p("- load average: %s before, %s after; %d runs per cell, medians\n", load0, loadAvg(), *reps)
	p("- tree: the `*.log` files of %s copied until there are %s, each case's binaries once beside them\n", src, thousands(n))
	p("- command: `GOMAXPROCS=J taskset -c CPUS sanitrace batch -j J --fail-on none --progress=never -o OUT TREE`\n\n")
	p("| cores | wall | logs/s | CPU (user+sys) | peak RSS | speed-up |\n|---:|---:|---:|---:|---:|---:|\n")
	one := summarize(runs[0])
	for i, c := range cfgs {
		s := summarize(runs[i])
		p("| %d | %s | %.0f | %.2f s | %.0f MiB | %.2fx |\n", c.jobs, fmtDur(s.wall), float64(n)/s.wall, s.cpu, s.rss, one.wall/s.wall)
	}
	return nil
}

// batchTree lays out dst/cases/<case>/ (binaries) and
// dst/runs/NNNN/cases/<case>/*.log until it holds want logs; kept between
// runs (a stamp names the source and count).
func batchTree(src, dst string, want int) (int, error) {
	stamp := filepath.Join(dst, "STAMP")
	id := fmt.Sprintf("%s %d\n", src, want)
	if b, err := os.ReadFile(stamp); err == nil && string(b) == id {
		return want, nil
	}
	if err := os.RemoveAll(dst); err != nil {
		return 0, err
	}
	logs, err := findReports([]string{src})
	if err != nil {
		return 0, err
	}
	// the binaries: every other regular file of a case folder
	caseDirs := map[string]bool{}
	for _, l := range logs {
		caseDirs[filepath.Dir(l)] = true
	}
	for d := range caseDirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return 0, err
		}
		rel, _ := filepath.Rel(src, d)
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || strings.HasSuffix(name, ".log") || strings.HasSuffix(name, ".json") {
				continue
			}
			if err := copyFile(filepath.Join(d, name), filepath.Join(dst, "cases", rel, name)); err != nil {
				return 0, err
			}
		}
	}
	n := 0
	for round := 0; n < want; round++ {
		for _, l := range logs {
			if n == want {
				break
			}
			rel, _ := filepath.Rel(src, l)
			if err := copyFile(l, filepath.Join(dst, "runs", fmt.Sprintf("%04d", round), "cases", rel)); err != nil {
				return 0, err
			}
			n++
		}
	}
	return n, os.WriteFile(stamp, []byte(id), 0o644)
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
