package parse

import (
	"os"
	"path/filepath"
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
	t.Skip("reliability campaign finding F2 (docs/reliability.md): an open gdb session, Go dump or kernel report " +
		"takes in the next report of another format when that report's lines look like its own " +
		"(gdb: indented lines are locals; Go: a blank line confirms the lines held back); " +
		"the fix is the scanner's (a starter of another format ending an open dump report), left to the parse refactor")
	if lost := inARow(t, func(string) bool { return true }); len(lost) > 0 {
		t.Errorf("%d pairs lose reports when one log follows the other:\n%s", len(lost), strings.Join(lost, "\n"))
	}
}
