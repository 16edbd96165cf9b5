package campaign

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// WrapArg is the first argument that makes the campaign's program (or a
// test binary) the limiting wrapper: "PROG WrapArg AS -- TOOL ARGS..."
// caps the address space at AS bytes, turns core dumps off, runs TOOL as
// its child and writes on file descriptor 3 how the tool ended and its
// peak RSS. Limits set before the tool's exec bind from its first
// instruction on, which prlimit(2) on a running child cannot promise, and
// they need no external program. The tool is the wrapper's child, not
// what the wrapper execs into, because Linux carries the RSS high-water
// mark of the memory a process was forked with into its ru_maxrss: Go
// forks with the parent's memory shared (CLONE_VM), so a tool started by
// the campaign itself would be charged with the campaign's hundreds of
// MiB of seeds; started by the wrapper it is charged with a few MiB.
const WrapArg = "-exec-limited"

// Wrap is the wrapper's body: args are what follows WrapArg. It returns
// the wrapper's exit status.
func Wrap(args []string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "campaign wrapper:", err)
		return 127
	}
	if len(args) < 3 || args[1] != "--" {
		return fail(errors.New("usage: " + WrapArg + " AS_BYTES -- TOOL [ARGS...]"))
	}
	as, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil {
		return fail(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
		return fail(fmt.Errorf("RLIMIT_AS: %w", err))
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{}); err != nil {
		return fail(fmt.Errorf("RLIMIT_CORE: %w", err))
	}
	// SIGQUIT at the time bound is for the tool (a Go program prints its
	// goroutines); the wrapper lets it pass. A caught signal is reset to
	// its default in the child at exec, unlike an ignored one.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	report := os.NewFile(3, "report")
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fail(err)
	}
	st := cmd.ProcessState
	code, sig := st.ExitCode(), 0
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig = int(ws.Signal())
	}
	var rss int64
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	if report != nil {
		fmt.Fprintf(report, "%d %d %d\n", code, sig, rss)
		report.Close()
	}
	if sig != 0 {
		return 128 + sig
	}
	return code
}

// Limits bound every run of a tool.
type Limits struct {
	// Timeout is the wall-clock time after which a run is stopped and
	// counted as a hang (after one confirming run with twice the time).
	Timeout time.Duration
	// Memory is the peak resident set size (bytes) over which a run is
	// counted. The address space is capped at Memory plus ASSlack, so a
	// runaway allocation fails instead of taking the machine down; the
	// slack covers the Go runtime's reservations (about 0.6 GiB of
	// address space on amd64 before the first allocation), so a Go
	// program is measured by what it uses, not what it reserves.
	Memory int64
}

// ASSlack is the address space a run may reserve beyond Limits.Memory.
const ASSlack = 2 << 30

// outputCap bounds what is kept of a run's stdout and stderr.
const outputCap = 64 << 20

// Spec is one invocation of a tool.
type Spec struct {
	Path  string
	Args  []string
	Stdin string // a file, or "" for /dev/null
	Dir   string // working directory
	Env   []string
	// Quit, for Go programs, sends SIGQUIT at the timeout first, so that
	// the hang's goroutines are in stderr, then kills.
	Quit bool
}

// Result is what a run did.
type Result struct {
	Exit     int // -1 when killed by a signal
	Signal   syscall.Signal
	TimedOut bool
	MaxRSS   int64 // bytes
	Duration time.Duration
	Stdout   []byte
	Stderr   []byte
	// Truncated is set when stdout went past what is kept.
	Truncated bool
	Err       error // the run could not be started
}

// Runner starts runs through the limiting wrapper, which is the program
// Self (the campaign itself, or a test binary).
type Runner struct {
	Self   string
	Limits Limits
}

// Run runs r under the limits.
func (rn *Runner) Run(ctx context.Context, r Spec) Result {
	return rn.run(ctx, r, rn.Limits.Timeout)
}

func (rn *Runner) run(ctx context.Context, r Spec, timeout time.Duration) Result {
	as := rn.Limits.Memory + ASSlack
	args := append([]string{WrapArg, strconv.FormatInt(as, 10), "--", r.Path}, r.Args...)
	cmd := exec.Command(rn.Self, args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	repR, repW, err := os.Pipe()
	if err != nil {
		return Result{Err: err}
	}
	defer repR.Close()
	cmd.ExtraFiles = []*os.File{repW}
	if r.Stdin != "" {
		f, err := os.Open(r.Stdin)
		if err != nil {
			return Result{Err: err}
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		repW.Close()
		return Result{Err: err}
	}
	repW.Close()
	reported := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(repR)
		reported <- b
	}()
	pgid := cmd.Process.Pid
	done := make(chan struct{})
	timedOut := make(chan bool, 1)
	go func() {
		t := time.NewTimer(timeout)
		defer t.Stop()
		select {
		case <-done:
			timedOut <- false
			return
		case <-ctx.Done():
			syscall.Kill(-pgid, syscall.SIGKILL)
			timedOut <- false
			return
		case <-t.C:
		}
		if r.Quit {
			syscall.Kill(-pgid, syscall.SIGQUIT) // a Go tool prints its goroutines (the wrapper lets it pass)
			select {
			case <-done:
				timedOut <- true
				return
			case <-time.After(3 * time.Second):
			}
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		timedOut <- true
	}()
	err = cmd.Wait()
	close(done)
	res := Result{
		Duration:  time.Since(start),
		TimedOut:  <-timedOut,
		Stdout:    stdout.buf.Bytes(),
		Stderr:    stderr.buf.Bytes(),
		Truncated: stdout.dropped,
	}
	// A tool that left children behind (gdb) must not outlive its run.
	syscall.Kill(-pgid, syscall.SIGKILL)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		res.Err = err
		return res
	}
	// The tool's end as the wrapper saw it; without a report (the wrapper
	// was killed at the time bound), the wrapper's own.
	var code, sig int
	var rss int64
	if n, _ := fmt.Sscanf(string(<-reported), "%d %d %d", &code, &sig, &rss); n == 3 {
		res.Exit, res.MaxRSS = code, rss*1024
		if sig != 0 {
			res.Exit, res.Signal = -1, syscall.Signal(sig)
		}
		return res
	}
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Exit, res.Signal = -1, ws.Signal()
	} else {
		res.Exit = st.ExitCode()
	}
	if res.Exit == 127 && !res.TimedOut {
		res.Err = fmt.Errorf("the wrapper failed: %s", bytes.TrimSpace(res.Stderr))
	}
	return res
}

// Confirm reruns a run that timed out with twice the time: a loaded
// machine makes a slow run look like a hang once, rarely twice.
func (rn *Runner) Confirm(ctx context.Context, r Spec) Result {
	return rn.run(ctx, r, 2*rn.Limits.Timeout)
}

// capped keeps the first outputCap bytes written to it and drops the
// rest, still draining the pipe so that the writer is not blocked.
type capped struct {
	buf     bytes.Buffer
	dropped bool
}

func (c *capped) Write(p []byte) (int, error) {
	keep := p
	if room := outputCap - c.buf.Len(); len(p) > room {
		keep, c.dropped = p[:max(room, 0)], true
	}
	c.buf.Write(keep)
	return len(p), nil
}

var _ io.Writer = (*capped)(nil)
