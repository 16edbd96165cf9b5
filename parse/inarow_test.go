package parse

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// inARow returns the pairs of stackCounts' logs, a and b, for which the
// log of a followed by the log of b does not give the reports of both.
func inARow(t *testing.T, keep func(name string) bool) []string {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "reports", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		return string(b)
	}
	var lost []string
	for _, a := range stackCounts {
		for _, b := range stackCounts {
			if !keep(a.log) || !keep(b.log) {
				continue
			}
			reps := parseAll(t, strings.NewReader(read(a.log)+read(b.log)), "joined.log")
			if len(reps) != a.reports+b.reports {
				lost = append(lost, a.log+" then "+b.log)
			}
		}
	}
	return lost
}

// TestGoCrashesInARow: a Go crash right after another one's goroutine
// dump is a report of its own, as when two test binaries of a CI job
// panic one after the other (reliability campaign finding F1,
// docs/reliability.md: the second one was read as part of the first).
func TestGoCrashesInARow(t *testing.T) {
	if lost := inARow(t, func(name string) bool { return strings.HasPrefix(name, "go_") }); len(lost) > 0 {
		t.Errorf("reports lost when one log follows the other:\n%s", strings.Join(lost, "\n"))
	}
}

// TestLogsInARow: any two sample logs one after the other give the
// reports of both.
func TestLogsInARow(t *testing.T) {
	if lost := inARow(t, func(string) bool { return true }); len(lost) > 0 {
		t.Errorf("%d pairs lose reports when one log follows the other:\n%s", len(lost), strings.Join(lost, "\n"))
	}
}

// TestSeedsInARow: the FuzzScanner seeds of the campaign's findings F1,
// F2 and F5 to F9, each a log (cut down) after another, give the reports of both,
// in order. Each failed before its fix.
func TestSeedsInARow(t *testing.T) {
	for _, c := range []struct {
		seed  string
		tools []string
	}{
		{"campaign-F1-go-crashes-in-a-row", []string{"GoPanic", "GoPanic"}},
		{"campaign-F2-gdb-session-then-go-panic", []string{"gdb", "GoPanic"}},
		{"campaign-F2-go-then-kfence", []string{"GoPanic", "Kernel", "Kernel"}},
		// gdb: a second stop after the session's backtrace
		{"campaign-F2-gdb-then-gdb", []string{"gdb", "gdb"}},
		// gdb: after a held-back line an indented line is no local
		{"campaign-F2-gdb-then-boost", []string{"gdb", "boost::stacktrace"}},
		// gdb: "Nov 24 18:02:11 host kernel: ..." is no register row
		{"campaign-F2-gdb-then-syslog-kernel", []string{"gdb", "Kernel"}},
		// kernel: an Oops after a call trace is the next report's
		{"campaign-F2-lockdep-then-kernel-bug", []string{"Kernel", "Kernel"}},
		{"campaign-F2-kernel-then-rust", []string{"Kernel", "Rust"}},
		// a sanitizer report without its end, then Chromium's headline
		{"campaign-F2-asan-check-then-chromium", []string{"AddressSanitizer", "Chromium"}},
		// another process's "==PID==" lines are not the report's
		{"campaign-F2-libfuzzer-then-valgrind", []string{"libFuzzer", "Valgrind"}},
		// F5: a report behind ctest's "368: " prefix, then a dmesg log
		// without it: the kernel's headline ends the report, not a
		// writer's line inside it
		{"campaign-F5-prefixed-tsan-then-kasan", []string{"ThreadSanitizer", "Kernel"}},
		// F6: a logcat-prefixed HWASan report pasted inside a Valgrind
		// log: Valgrind's next message ends it (no cue word; its frames
		// were another writer's lines to the open report)
		{"campaign-F6-logcat-hwasan-inside-valgrind", []string{"Valgrind", "HWAddressSanitizer", "Valgrind"}},
		// F7: a UBSan report (no PID) took a Valgrind log's "==PID==" lines
		// for its own
		{"campaign-F7-ubsan-then-valgrind", []string{"UndefinedBehaviorSanitizer", "Valgrind", "Valgrind"}},
		// F8: a kernel report inside a Valgrind report's block (no
		// Valgrind prefix, so the block took it for another writer's)
		{"campaign-F8-kasan-inside-valgrind-block", []string{"Valgrind", "Valgrind", "Kernel"}},
		// F8: a libFuzzer report cut before its headline, right after an
		// LSan report's SUMMARY: its stack was read as the LSan report's
		{"campaign-F8-lsan-then-cut-libfuzzer", []string{"LeakSanitizer", "libFuzzer"}},
		// F9: a ctest-prefixed TSan report cut short, then a glibc abort
		// without the prefix: the report's foreign lines after its last
		// own line are read again when it ends
		{"campaign-F9-prefixed-tsan-then-glibc", []string{"ThreadSanitizer", "glibc"}},
		// F9: a stack after a UBSan report's one stack is the next
		// report's (a libFuzzer report cut before its headline)
		{"campaign-F9-ubsan-then-cut-libfuzzer", []string{"UndefinedBehaviorSanitizer", "libFuzzer"}},
	} {
		t.Run(c.seed, func(t *testing.T) {
			data := fuzzSeed(t, filepath.Join("testdata", "fuzz", "FuzzScanner", c.seed))
			var got []string
			for _, r := range parseAll(t, strings.NewReader(data), c.seed) {
				got = append(got, r.Tool)
			}
			if strings.Join(got, ",") != strings.Join(c.tools, ",") {
				t.Errorf("reports %q, want %q", got, c.tools)
			}
		})
	}
}

// fuzzSeed reads the one []byte value of a Go fuzz corpus file.
func fuzzSeed(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, lit, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if !ok || head != "go test fuzz v1" || !strings.HasPrefix(lit, "[]byte(") || !strings.HasSuffix(lit, ")") {
		t.Fatalf("%s: not a one-value []byte fuzz corpus file", path)
	}
	s, err := strconv.Unquote(lit[len("[]byte(") : len(lit)-1])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}
