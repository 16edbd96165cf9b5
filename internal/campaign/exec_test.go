package campaign

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is also the limiting wrapper (WrapArg) and, for the
// runner's tests, a tool that allocates, panics or hangs.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case WrapArg:
			os.Exit(Wrap(os.Args[2:]))
		case "-tool-alloc":
			mib, _ := strconv.Atoi(os.Args[2])
			b := make([]byte, mib<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			os.Exit(int(b[len(b)/2]) - 1)
		case "-tool-panic":
			panic("tool: " + os.Args[2])
		case "-tool-hang":
			select {}
		}
	}
	os.Exit(m.Run())
}

func testRunner(t *testing.T, timeout time.Duration, memMiB int64) (*Runner, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{Self: self, Limits: Limits{Timeout: timeout, Memory: memMiB << 20}}, self
}

func TestRunnerExitAndSignal(t *testing.T) {
	rn, _ := testRunner(t, 10*time.Second, 256)
	res := rn.Run(context.Background(), Spec{Path: "sh", Args: []string{"-c", "echo out; echo err >&2; exit 3"}})
	if res.Err != nil || res.Exit != 3 || string(res.Stdout) != "out\n" || string(res.Stderr) != "err\n" {
		t.Fatalf("exit 3: %+v", res)
	}
	res = rn.Run(context.Background(), Spec{Path: "sh", Args: []string{"-c", "kill -SEGV $$"}})
	if res.Signal != syscall.SIGSEGV || res.Exit != -1 {
		t.Fatalf("SIGSEGV: %+v", res)
	}
	if got := classify(res, "t", false, false, false, 256<<20); len(got) != 1 || got[0].Class != Panic {
		t.Fatalf("a death by SIGSEGV classified %v", got)
	}
	if got := refClass(res, 256<<20); got != "crash" {
		t.Fatalf("refClass = %q", got)
	}
	// No core file is left, wherever the tool ran.
	dir := t.TempDir()
	rn.Run(context.Background(), Spec{Path: "sh", Args: []string{"-c", "kill -ABRT $$"}, Dir: dir})
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("the crash left %v", ents)
	}
	res = rn.Run(context.Background(), Spec{Path: "no-such-tool-here"})
	if res.Err == nil {
		t.Fatalf("a missing tool gave no error: %+v", res)
	}
}

// TestRunnerRSS: the peak RSS is the tool's, not the memory of the
// process that started it (see WrapArg).
func TestRunnerRSS(t *testing.T) {
	ballast := make([]byte, 200<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	rn, self := testRunner(t, 30*time.Second, 100)
	res := rn.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-alloc", "1"}})
	if res.Exit != 0 || res.MaxRSS > 64<<20 {
		t.Fatalf("a tool of 1 MiB: exit %d, peak RSS %d MiB", res.Exit, res.MaxRSS>>20)
	}
	res = rn.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-alloc", "150"}})
	if res.Exit != 0 || res.MaxRSS < 150<<20 {
		t.Fatalf("a tool of 150 MiB: exit %d, peak RSS %d MiB", res.Exit, res.MaxRSS>>20)
	}
	if got := classify(res, "t", false, false, false, rn.Limits.Memory); len(got) != 1 || got[0].Class != Memory {
		t.Fatalf("150 MiB over a bound of 100 classified %v", got)
	}
	// Past the address-space cap (the bound plus ASSlack), Go's allocator
	// fails: counted as memory, not as a panic.
	res = rn.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-alloc", strconv.Itoa(100 + ASSlack>>20 + 512)}})
	got := classify(res, "t", false, false, false, rn.Limits.Memory)
	if len(got) == 0 || got[0].Class != Memory {
		t.Fatalf("an allocation past the cap: exit %d, classified %v, stderr %.300s", res.Exit, got, res.Stderr)
	}
	_ = ballast[len(ballast)-1]
}

func TestRunnerTimeout(t *testing.T) {
	rn, self := testRunner(t, 300*time.Millisecond, 256)
	res := rn.Run(context.Background(), Spec{Path: "sleep", Args: []string{"30"}})
	if !res.TimedOut || res.Duration > 10*time.Second {
		t.Fatalf("sleep 30 under a 300ms bound: %+v", res)
	}
	// A Go tool gets SIGQUIT first: its goroutines name the hang. Its
	// bound leaves time for the wrapper and the tool to start on a loaded
	// machine: a SIGQUIT before the Go runtime is up kills without a word.
	quitRunner, _ := testRunner(t, 5*time.Second, 256)
	res = quitRunner.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-hang"}, Quit: true})
	if !res.TimedOut || !strings.Contains(string(res.Stderr), "goroutine ") {
		t.Fatalf("a hung Go tool: timed out %v, stderr %.300s", res.TimedOut, res.Stderr)
	}
	got := classify(res, "t", false, false, false, 256<<20)
	if len(got) != 1 || got[0].Class != Hang {
		t.Fatalf("classified %v", got)
	}
	// A canceled context stops a run at once; it is not a hang.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rn.Limits.Timeout = time.Minute
	res = rn.Run(ctx, Spec{Path: "sleep", Args: []string{"30"}})
	if res.TimedOut || res.Duration > 10*time.Second {
		t.Fatalf("canceled: %+v", res)
	}
}

func TestRunnerPanic(t *testing.T) {
	rn, self := testRunner(t, 30*time.Second, 256)
	res := rn.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-panic", "boom 0x1234"}})
	got := classify(res, "symbolize", false, false, false, 256<<20)
	if res.Exit != 2 || len(got) != 1 || got[0].Class != Panic || !strings.Contains(got[0].Detail, "panic: tool: boom 0x1234") {
		t.Fatalf("exit %d, classified %+v", res.Exit, got)
	}
	// The signature drops the numbers, so that two mutants hitting the
	// same bug are one finding.
	res2 := rn.Run(context.Background(), Spec{Path: self, Args: []string{"-tool-panic", "boom 0x99"}})
	if got2 := classify(res2, "symbolize", false, false, false, 256<<20); got2[0].Sig != got[0].Sig {
		t.Fatalf("signatures differ: %q, %q", got[0].Sig, got2[0].Sig)
	}
}
