package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// run is one measured process: wall time from the parent's clock, CPU and
// peak RSS from the rusage of that one child (what wait4 returns, the
// numbers /usr/bin/time prints, without its 10 ms resolution).
type run struct {
	Wall     float64 `json:"wall"`      // seconds
	User     float64 `json:"user"`      // seconds
	Sys      float64 `json:"sys"`       // seconds
	MaxRSSKB int64   `json:"maxrss_kb"` // KiB, as the kernel counts it
	Exit     int     `json:"rc"`
	TimedOut bool    `json:"timed_out,omitempty"`
	OutBytes int64   `json:"out_bytes,omitempty"`
}

func (r run) cpu() float64 { return r.User + r.Sys }

// job is a command line with where its standard streams go.
type job struct {
	argv   []string
	env    []string // added to the environment
	stdin  string   // file, or "" for /dev/null
	stdout string   // file, or "" for /dev/null
	stderr string   // file, or "" for /dev/null
}

// measure runs j once, killing it after timeout.
func measure(j job, timeout time.Duration) (run, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.argv[0], j.argv[1:]...)
	cmd.Env = append(os.Environ(), j.env...)
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	open := func(name string, write bool) (*os.File, error) {
		if name == "" {
			name = os.DevNull
		}
		var f *os.File
		var err error
		if write {
			f, err = os.Create(name)
		} else {
			f, err = os.Open(name)
		}
		if err == nil {
			closers = append(closers, f)
		}
		return f, err
	}
	var err error
	if cmd.Stdin, err = open(j.stdin, false); err != nil {
		return run{}, err
	}
	out, err := open(j.stdout, true)
	if err != nil {
		return run{}, err
	}
	cmd.Stdout = out
	if cmd.Stderr, err = open(j.stderr, true); err != nil {
		return run{}, err
	}
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start).Seconds()
	st := cmd.ProcessState
	if st == nil { // did not start
		return run{}, fmt.Errorf("%s: %w", j.argv[0], err)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return run{}, fmt.Errorf("%s: %w", j.argv[0], err)
	}
	r := finished(st, wall)
	r.TimedOut = ctx.Err() != nil
	if fi, err := out.Stat(); err == nil && fi.Mode().IsRegular() {
		r.OutBytes = fi.Size()
	}
	return r, nil
}

// finished is the run of a process that exited after wall seconds: its
// exit status, CPU times and peak RSS from its rusage.
func finished(st *os.ProcessState, wall float64) run {
	r := run{Wall: wall, Exit: st.ExitCode()}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		r.User = time.Duration(ru.Utime.Nano()).Seconds()
		r.Sys = time.Duration(ru.Stime.Nano()).Seconds()
		r.MaxRSSKB = ru.Maxrss
	}
	return r
}

// median of xs (the mean of the middle two for an even count); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summary is the medians of a cell's runs that finished in time.
type summary struct {
	n              int
	wall, cpu, rss float64 // seconds, seconds, MiB
	exit           int     // a non-zero exit status seen, else 0
}

func summarize(runs []run) summary {
	var wall, cpu, rss []float64
	s := summary{}
	for _, r := range runs {
		if r.TimedOut {
			continue
		}
		wall = append(wall, r.Wall)
		cpu = append(cpu, r.cpu())
		rss = append(rss, float64(r.MaxRSSKB)/1024)
		if r.Exit != 0 {
			s.exit = r.Exit
		}
	}
	s.n, s.wall, s.cpu, s.rss = len(wall), median(wall), median(cpu), median(rss)
	return s
}

// loadAvg is /proc/loadavg's three averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " / ")
}

// machine describes the host in one line: CPU model, cores, memory, kernel.
func machine() string {
	model := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "?"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf("%.0f GiB", float64(kb)/(1<<20))
		}
	}
	kernel := "?"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("%s, %d cores, %s, Linux %s", model, runtime.NumCPU(), mem, kernel)
}

// warm reads a file once so that every tool finds it in the page cache.
func warm(path string) {
	if f, err := os.Open(path); err == nil {
		io.Copy(io.Discard, f)
		f.Close()
	}
}

// fmtDur prints seconds as "0.75 s" or "12.3 ms".
func fmtDur(s float64) string {
	if s < 0.1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}

// ratio prints a/b as "0.25x", or "-" when either is missing.
func ratio(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
