package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/wire"
)

// gdbFrame is one line of gdb's `bt` with `set print frame-info
// location-and-address`: every frame shows its pc, a signal trampoline
// shows "<signal handler called>".
type gdbFrame struct {
	pc       string // "" for the trampoline
	function string
}

var (
	gdbThreadRE = regexp.MustCompile(`^Thread \d+ \(.*\(LWP (\d+)\)`)
	gdbFrameRE  = regexp.MustCompile(`^#\d+\s+(?:0x0*([0-9a-f]+) in )?(\S+)`)
)

// parseGDBBacktrace reads `thread apply all bt` output: frames by LWP.
func parseGDBBacktrace(t *testing.T, text string) map[int][]gdbFrame {
	t.Helper()
	out := map[int][]gdbFrame{}
	lwp := -1
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		l := sc.Text()
		if m := gdbThreadRE.FindStringSubmatch(l); m != nil {
			lwp, _ = strconv.Atoi(m[1])
			continue
		}
		if m := gdbFrameRE.FindStringSubmatch(l); m != nil && lwp >= 0 {
			f := gdbFrame{function: m[2]}
			if m[1] != "" {
				f.pc = "0x" + m[1]
			}
			if strings.HasPrefix(l[strings.Index(l, " ")+1:], " <signal handler called>") || strings.Contains(l, "<signal handler called>") {
				f = gdbFrame{function: "<signal handler called>"}
			}
			out[lwp] = append(out[lwp], f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no threads in gdb's backtrace:\n%s", text)
	}
	return out
}

// compareWithGDB checks core's JSON against gdb's backtrace of the same
// core: the same threads, and in each the same frames (inline frames
// included), with the same pcs and function names.
func compareWithGDB(t *testing.T, got wire.Core, gdb map[int][]gdbFrame) {
	t.Helper()
	if len(got.Threads) != len(gdb) {
		t.Errorf("%d threads, gdb has %d", len(got.Threads), len(gdb))
	}
	for _, th := range got.Threads {
		want, ok := gdb[th.TID]
		if !ok {
			t.Errorf("thread %d: not in gdb's backtrace", th.TID)
			continue
		}
		if th.Error != "" {
			t.Errorf("thread %d: %s", th.TID, th.Error)
		}
		if len(th.Frames) != len(want) {
			t.Errorf("thread %d: %d frames, gdb %d", th.TID, len(th.Frames), len(want))
		}
		for i := 0; i < min(len(th.Frames), len(want)); i++ {
			g, w := th.Frames[i], want[i]
			if w.pc == "" { // the trampoline
				if g.Kind != "sigtramp" {
					t.Errorf("thread %d frame %d: kind %s, gdb: <signal handler called>", th.TID, i, g.Kind)
				}
				continue
			}
			if str(g.PC) != w.pc || str(g.Function) != w.function {
				t.Errorf("thread %d frame %d: %s in %s, gdb: %s in %s", th.TID, i, str(g.PC), str(g.Function), w.pc, w.function)
			}
		}
	}
}

// gunzipTo writes the gzip file src, unpacked, to dst.
func gunzipTo(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(dst, fixture.Gunzip(t, src), mode); err != nil {
		t.Fatal(err)
	}
}

// coreFixtureRun is where testdata/Makefile ran the fixture (the core's
// NT_FILE names the executable there).
const coreFixtureRun = "/tmp/sanitrace/core"

// TestCoreFixture: the committed gcore core (testdata/core, from
// testdata/Makefile's core target) unwinds to exactly what gdb printed for
// it, and its text rendering is stable (golden).
func TestCoreFixture(t *testing.T) {
	fix := filepath.Join(repoRoot, "testdata", "core")
	dir := t.TempDir()
	gunzipTo(t, filepath.Join(fix, "crash.gz"), filepath.Join(dir, "crash"), 0o755)
	gunzipTo(t, filepath.Join(fix, "core.gz"), filepath.Join(dir, "core"), 0o644)
	bt, err := os.ReadFile(filepath.Join(fix, "gdb-bt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	corePath := filepath.Join(dir, "core")
	out, stderr, code := runCLI(t, "", "core", "--format", "json", "--prefix-map", coreFixtureRun+"="+dir, corePath)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got := parseCoreJSON(t, out)
	compareWithGDB(t, got, parseGDBBacktrace(t, string(bt)))
	if got.Signal == nil || got.Signal.Name != "SIGSEGV" || str(got.Signal.Address) != "0x0" {
		t.Errorf("signal %+v, want SIGSEGV at 0x0", got.Signal)
	}
	if !got.Threads[0].Crashed || len(got.Modules) == 0 || str(got.Modules[0].Found) == "" || str(got.Modules[0].BuildID) == "" {
		t.Errorf("crashing thread first and the executable found with its build-id: %+v %+v", got.Threads[0].Crashed, got.Modules)
	}

	// Text, against the golden (the core's own path is the only varying part).
	text, _, code := runCLI(t, "", "core", "--color=never", "--prefix-map", coreFixtureRun+"="+dir, corePath)
	if code != 0 {
		t.Fatalf("text: exit %d", code)
	}
	golden.Check(t, filepath.Join(golden.Dir("core"), "crash.txt"), text)

	// --exe names the executable when the core's path is not here; a wrong
	// file is refused by its build-id.
	out, stderr, _ = runCLI(t, "", "core", "--format", "json", "--exe", filepath.Join(dir, "crash"), corePath)
	if got := parseCoreJSON(t, out); len(got.Threads[0].Frames) < 5 || str(got.Threads[0].Frames[0].Function) != "dispatch" || stderr != "" {
		t.Errorf("--exe: frames %+v, stderr %q", got.Threads[0].Frames, stderr)
	}
	_, stderr, _ = runCLI(t, "", "core", "--exe", filepath.Join(repoRoot, "testdata", "elf", "c-O2-dw5-pie"), corePath)
	if !strings.Contains(stderr, "build-id mismatch") {
		t.Errorf("--exe with another binary: stderr %q, want a build-id mismatch", stderr)
	}
}

// TestCoreUsage: exit codes and messages for what is not a core.
func TestCoreUsage(t *testing.T) {
	_, stderr, code := runCLI(t, "", "core", filepath.Join(repoRoot, "testdata", "elf", "c-O2-dw5-pie"))
	if code != exitUsage || !strings.Contains(stderr, "ET_CORE") {
		t.Errorf("a non-core: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runCLI(t, "", "core", "/nonexistent/core")
	if code != exitUsage || !strings.Contains(stderr, "/nonexistent/core") {
		t.Errorf("a missing file: exit %d, stderr %q", code, stderr)
	}
	_, _, code = runCLI(t, "", "core", "--format", "xml", "x")
	if code != exitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
}

// TestCoreLive builds the fixture's program (dynamically linked this
// time), lets it crash under gdb, which writes a core with gcore and
// prints its backtrace, and compares sanitrace core with that backtrace.
func TestCoreLive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program under gdb")
	}
	for _, tool := range []string{"gcc", "gdb"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: %v", tool, err)
		}
	}
	src, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "src", "core"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "crash")
	for _, opt := range []string{"-O0", "-O2"} {
		t.Run(opt, func(t *testing.T) {
			build := exec.Command("gcc", "-g", opt, "-pthread", "-ffile-prefix-map="+src+"=/build/ci/core-live",
				"-o", bin, filepath.Join(src, "crash.c"))
			if msg, err := build.CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, msg)
			}
			corePath := filepath.Join(dir, "core"+opt)
			cmd := exec.Command("gdb", "-nx", "-batch", "-q",
				"-iex", "set debuginfod enabled off", "-ex", "set pagination off", "-ex", "set width 0",
				"-ex", "handle SIGUSR1 nostop noprint pass", "-ex", "run", "-ex", "generate-core-file "+corePath,
				"-ex", "set print frame-info location-and-address", "-ex", "set print frame-arguments none",
				"-ex", "set backtrace past-main on", "-ex", "thread apply all bt", "-x", gdbTailCallScript(t), "-ex", "kill", "--args", bin)
			cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "LANG=C"}
			cmd.Dir = dir
			cmd.WaitDelay = 5 * time.Second
			done := make(chan struct{})
			timer := time.AfterFunc(2*time.Minute, func() {
				select {
				case <-done:
				default:
					cmd.Process.Kill()
				}
			})
			outb, err := cmd.CombinedOutput()
			close(done)
			timer.Stop()
			if _, serr := os.Stat(corePath); err != nil || serr != nil {
				t.Skipf("gdb could not run the program and write a core here (ptrace not permitted?): %v %v\n%s", err, serr, outb)
			}
			coreMatchesGDB(t, corePath, string(outb))
		})
	}
}

// TestCoreKernelLive lets the kernel write the core (ulimit -c, the
// core_pattern in force) of the same program and compares sanitrace core
// with gdb's bt of that core: the kernel's note layout, and the code pages
// it leaves out, read from the mapped files.
func TestCoreKernelLive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	for _, tool := range []string{"gcc", "gdb", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: %v", tool, err)
		}
	}
	pattern, err := os.ReadFile("/proc/sys/kernel/core_pattern")
	if err != nil || strings.TrimSpace(string(pattern)) != "core" {
		t.Skipf("core_pattern is %q, not a plain file name in the working directory: the kernel's core cannot be picked up here", strings.TrimSpace(string(pattern)))
	}
	src, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "src", "core", "crash.c"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "crash")
	if msg, err := exec.Command("gcc", "-g", "-O2", "-pthread", "-ffile-prefix-map="+filepath.Dir(src)+"=/build/ci/core-live", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, msg)
	}
	run := exec.Command("sh", "-c", "ulimit -c unlimited && exec ./crash")
	run.Dir = dir
	run.Env = []string{"PATH=/usr/bin:/bin", "LANG=C"}
	run.Run() // it crashes
	corePath := filepath.Join(dir, "core")
	if _, err := os.Stat(corePath); err != nil {
		t.Skipf("the kernel wrote no core (core dumps disabled for this process?): %v", err)
	}
	gdb := exec.Command("gdb", "-nx", "-batch", "-q", "-iex", "set debuginfod enabled off",
		"-ex", "set pagination off", "-ex", "set width 0", "-ex", "set print frame-info location-and-address",
		"-ex", "set print frame-arguments none", "-ex", "set backtrace past-main on", "-ex", "thread apply all bt",
		"-x", gdbTailCallScript(t), bin, corePath)
	gdb.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "LANG=C"}
	outb, err := gdb.CombinedOutput()
	if err != nil {
		t.Fatalf("gdb: %v\n%s", err, outb)
	}
	coreMatchesGDB(t, corePath, string(outb))
}

// coreMatchesGDB runs `sanitrace core --format json` on corePath and
// compares its threads with gdb's "thread apply all bt" in gdbOut (a whole
// gdb session's output: its backtraces start at the first "Thread").
func coreMatchesGDB(t *testing.T, corePath, gdbOut string) {
	t.Helper()
	if i := strings.Index(gdbOut, "\nThread "); i >= 0 {
		gdbOut = gdbOut[i+1:]
	}
	out, stderr, code := runCLI(t, "", "core", "--format", "json", corePath)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	compareWithGDB(t, parseCoreJSON(t, out), dropTailCalls(parseGDBBacktrace(t, gdbOut), gdbOut))
	if t.Failed() {
		t.Logf("gdb:\n%s\nsanitrace stderr:\n%s", gdbOut, stderr)
	}
}

// gdbTailCallScript writes the gdb script that names, after the
// backtraces, every frame gdb built from DW_TAG_call_site rather than
// found on the stack ("tailcall LWP LEVEL"): sanitrace leaves those out
// (docs/differences.md, "gdb's tail-call frames"), as the corpus's truth
// marks them kind "tailcall". A live core can catch a thread inside a
// function reached by a tail call (the signaller in pthread_kill, which
// jumps to __pthread_kill_implementation), and gdb then shows one.
func gdbTailCallScript(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tailcalls.py")
	const script = `for th in gdb.selected_inferior().threads():
    th.switch()
    f = gdb.newest_frame()
    i = 0
    while f is not None:
        if f.type() == gdb.TAILCALL_FRAME:
            print("tailcall %d %d" % (th.ptid[1], i))
        f = f.older()
        i += 1
`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var gdbTailCallRE = regexp.MustCompile(`(?m)^tailcall (\d+) (\d+)$`)

// dropTailCalls removes from gdb's frames the tail-call frames the
// script of gdbTailCallScript named in gdbOut.
func dropTailCalls(frames map[int][]gdbFrame, gdbOut string) map[int][]gdbFrame {
	ms := gdbTailCallRE.FindAllStringSubmatch(gdbOut, -1)
	for i := len(ms) - 1; i >= 0; i-- { // deepest first, so levels stay right
		lwp, _ := strconv.Atoi(ms[i][1])
		level, _ := strconv.Atoi(ms[i][2])
		if fs := frames[lwp]; level < len(fs) {
			frames[lwp] = append(fs[:level:level], fs[level+1:]...)
		}
	}
	return frames
}
