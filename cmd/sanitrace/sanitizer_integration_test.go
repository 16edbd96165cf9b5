package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSanitizerIntegration runs small buggy programs under the clang 14
// sanitizer runtimes twice: once with the real llvm-symbolizer, once with a
// link named llvm-symbolizer that points at a freshly built sanitrace. The
// two reports must be identical apart from addresses, pids and thread ids.
func TestSanitizerIntegration(t *testing.T) {
	t.Parallel() // long and self-contained
	if testing.Short() {
		t.Skip("builds sanitrace and runs sanitized programs; skipped with -short")
	}
	clang := reftool.NeedFor(t, "clang-14", "cannot build the sanitized programs (.ci/run installs it)")
	realSym := "/usr/bin/llvm-symbolizer"
	if _, err := os.Stat(realSym); err != nil {
		t.Skipf("%s not found: no reference symbolizer to compare with", realSym)
	}
	dir := t.TempDir()
	ourSym := buildSanitraceAs(t, dir, "llvm-symbolizer")
	src, err := filepath.Abs("../../testdata/src/sanitizer")
	if err != nil {
		t.Fatal(err)
	}
	programs := []struct {
		name, file, flag, env, mustShow string
	}{
		// Frame #0 is an inline chain (read_at inlined into sum into main).
		{"heap-overflow-inlined", "heap_inline.c", "-fsanitize=address", "ASAN", " in read_at /build/sanitrace/src/sanitizer/heap_inline.c:6"},
		// The global's name and extent come from a DATA answer.
		{"global-overflow-data", "global_overflow.c", "-fsanitize=address", "ASAN", "global variable 'table'"},
		// The location line "Location is global 'counter'" is a DATA answer.
		{"tsan-race", "race.c", "-fsanitize=thread", "TSAN", "Location is global 'counter'"},
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			bin := filepath.Join(dir, strings.TrimSuffix(p.file, ".c"))
			build := exec.Command(clang, "-g", "-O1", p.flag, "-pthread",
				"-ffile-prefix-map="+src+"=/build/sanitrace/src/sanitizer",
				"-o", bin, filepath.Join(src, p.file))
			if out, err := build.CombinedOutput(); err != nil {
				// A missing runtime library is an environment problem, not a failure.
				if bytes.Contains(out, []byte("libclang_rt")) || bytes.Contains(out, []byte("cannot find")) {
					t.Skipf("clang-14 sanitizer runtime missing (libclang-rt-14-dev): %s", out)
				}
				t.Fatalf("build %s: %v\n%s", p.file, err, out)
			}
			want := runSanitized(t, bin, p.env, realSym)
			got := runSanitized(t, bin, p.env, ourSym)
			if !strings.Contains(want, p.mustShow) {
				t.Fatalf("the report does not show %q:\n%s", p.mustShow, want)
			}
			if nw, ng := normalizeReport(want), normalizeReport(got); nw != ng {
				t.Errorf("reports differ (after normalising addresses and ids)\n%s\n--- with llvm-symbolizer:\n%s\n--- with sanitrace:\n%s",
					golden.FirstDiff(nw, ng), want, got)
			}
		})
	}
	// ThreadSanitizer also accepts an external symbolizer named exactly
	// "addr2line" (one process per module, "-C -i -fe MODULE", each query
	// followed by a 0xffffffffffffffff sentinel): sanitrace under that
	// name must give the report binutils' addr2line gives.
	t.Run("tsan-race-addr2line", func(t *testing.T) {
		realA2L := reftool.Need(t, "addr2line")
		bin := filepath.Join(dir, "race-a2l")
		build := exec.Command(clang, "-g", "-O1", "-fsanitize=thread", "-pthread",
			"-ffile-prefix-map="+src+"=/build/sanitrace/src/sanitizer",
			"-o", bin, filepath.Join(src, "race.c"))
		if out, err := build.CombinedOutput(); err != nil {
			t.Skipf("build race.c with clang-14 -fsanitize=thread: %v\n%s", err, out)
		}
		refDir := filepath.Join(dir, "binutils")
		if err := os.MkdirAll(refDir, 0o755); err != nil {
			t.Fatal(err)
		}
		refLink := filepath.Join(refDir, "addr2line")
		if err := os.Symlink(realA2L, refLink); err != nil {
			t.Fatal(err)
		}
		oursDir := filepath.Join(dir, "ours")
		if err := os.MkdirAll(oursDir, 0o755); err != nil {
			t.Fatal(err)
		}
		oursLink := filepath.Join(oursDir, "addr2line")
		if err := os.Symlink(filepath.Join(dir, "sanitrace"), oursLink); err != nil {
			t.Fatal(err)
		}
		want := runSanitized(t, bin, "TSAN", refLink)
		got := runSanitized(t, bin, "TSAN", oursLink)
		if !strings.Contains(want, "race.c:") {
			t.Fatalf("binutils addr2line did not symbolize the report:\n%s", want)
		}
		if nw, ng := normalizeReport(want), normalizeReport(got); nw != ng {
			t.Errorf("reports differ (after normalising addresses and ids)\n%s\n--- with addr2line:\n%s\n--- with sanitrace:\n%s",
				golden.FirstDiff(nw, ng), want, got)
		}
	})
	t.Run("malformed-lines-never-hang", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, ourSym, "--demangle", "--inlines", "--default-arch=x86_64")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		for _, q := range []string{"", "garbage", `CODE "unterminated 0x10`, "CODE", "DATA", strings.Repeat("x", 70000), "CODE \"" + ourSym + "\" 0x0"} {
			if _, err := io.WriteString(stdin, q+"\n"); err != nil {
				t.Fatalf("write %.20q: %v", q, err)
			}
			// Every answer ends with a blank line: read until one.
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("query %.20q: %v (timed out or exited)", q, err)
				}
				if line == "\n" {
					break
				}
			}
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("exit: %v", err)
		}
	})
}

// buildSanitraceAs builds this command into dir and links it there under
// name (the runtimes accept an external symbolizer by its basename).
func buildSanitraceAs(t *testing.T, dir, name string) string {
	t.Helper()
	exe := filepath.Join(dir, "sanitrace")
	out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	link := filepath.Join(dir, name)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// runSanitized runs bin with the runtime's external symbolizer set to sym.
func runSanitized(t *testing.T, bin, tool, sym string) string {
	t.Helper()
	return runSanitizedArgs(t, []string{bin}, []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		tool + "_SYMBOLIZER_PATH=" + sym,
		tool + "_OPTIONS=symbolize=1:color=never:external_symbolizer_path=" + sym,
	})
}

// runSanitizedArgs runs argv (the program in its directory) in the
// environment env (which names the external symbolizer last) and returns
// what it printed.
func runSanitizedArgs(t *testing.T, argv, env []string) string {
	t.Helper()
	sym := env[len(env)-1][strings.LastIndexByte(env[len(env)-1], '=')+1:]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := argv[0]
	for _, a := range argv {
		if filepath.IsAbs(a) {
			bin = a // the program, after a wrapper (setarch)
		}
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s with %s timed out: the symbolizer pipe stalled\n%s", filepath.Base(bin), sym, out.String())
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("run %s: %v", bin, err)
	}
	return out.String()
}

var reportNoise = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`0x[0-9a-f]+`), "0xADDR"},
	{regexp.MustCompile(`==\d+==`), "==PID=="},
	{regexp.MustCompile(`pid=\d+`), "pid=PID"},
	{regexp.MustCompile(`tid=\d+`), "tid=TID"},
	{regexp.MustCompile(`\(pid=PID, tid=TID\)`), "(ids)"},
	{regexp.MustCompile(`thread T\d+ \(tid=TID`), "thread T (tid=TID"},
	// Whether TSan's worker thread has returned when the race is reported
	// depends on the scheduler, not on the symbolizer (a CI run saw
	// "running" under one and "finished" under the other).
	{regexp.MustCompile(`\(tid=TID, (running|finished)\)`), "(tid=TID, STATE)"},
}

// normalizeReport removes what legitimately differs between two runs.
func normalizeReport(s string) string {
	for _, n := range reportNoise {
		s = n.re.ReplaceAllString(s, n.repl)
	}
	return s
}
