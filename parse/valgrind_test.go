package parse

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestValgrindInCI: a Valgrind log as a CI job's log holds it, every line
// behind a timestamp and a job tag and the program's own output in the
// middle of a report (after its message, between its frames), reads as
// the log itself; the scanner's items give
// the input back, the program's line outside the report's own.
func TestValgrindInCI(t *testing.T) {
	data, err := os.ReadFile("../testdata/reports/valgrind_memcheck.log")
	if err != nil {
		t.Fatal(err)
	}
	want := modelView(parseAll(t, bytes.NewReader(data), "vg"))
	var in bytes.Buffer
	for i, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" {
			continue
		}
		fmt.Fprintf(&in, "2024-05-06T07:08:%02d.%03dZ [job 3] %s", i%60, i, l)
		if strings.Contains(l, "Invalid write of size 1") || strings.Contains(l, "by 0x1091F1: use_after_free") {
			in.WriteString("2024-05-06T07:09:00.000Z [job 4] compiling unit_7.c\n")
		}
	}
	if got := modelView(parseAll(t, bytes.NewReader(in.Bytes()), "vg")); got != want {
		t.Errorf("the model differs:\n%s", golden.FirstDiff(want, got))
	}
	var back bytes.Buffer
	foreign := 0
	for _, it := range items(t, in.Bytes()) {
		back.Write(it.Line)
		for _, l := range it.Lines {
			back.Write(l.Text)
			if !l.Own {
				foreign++
				if !bytes.Contains(l.Text, []byte("[job 4]")) {
					t.Errorf("line %d %q is not the report's own", l.No, l.Text)
				}
			}
		}
	}
	if foreign != 2 || !bytes.Equal(back.Bytes(), in.Bytes()) {
		t.Errorf("%d lines not their report's own (want 2); the items are the input: %v", foreign, bytes.Equal(back.Bytes(), in.Bytes()))
	}
}

// TestValgrindKind: each message of the samples and the kind it reads as.
func TestValgrindKind(t *testing.T) {
	for msg, want := range map[string]string{
		"Invalid read of size 4":                                                                  "Invalid read",
		"Invalid write of size 1":                                                                 "Invalid write",
		"Invalid free() / delete / delete[] / realloc()":                                          "Invalid free() / delete / delete[] / realloc()",
		"Mismatched free() / delete / delete []":                                                  "Mismatched free() / delete / delete []",
		"Conditional jump or move depends on uninitialised value(s)":                              "Conditional jump or move depends on uninitialised value(s)",
		"Source and destination overlap in strncpy(0x1fff000486, 0x1fff000485, 5)":                "Source and destination overlap in strncpy",
		"Argument 'size' of function malloc has a fishy (possibly negative) value: -1":            "Argument 'size' of function malloc has a fishy (possibly negative) value",
		"Syscall param write(buf) points to uninitialised byte(s)":                                "Syscall param write(buf) points to uninitialised byte(s)",
		"Process terminating with default action of signal 11 (SIGSEGV)":                          "Process terminating with default action of signal 11 (SIGSEGV)",
		"32 (16 direct, 16 indirect) bytes in 1 blocks are definitely lost in loss record 2 of 3": "definitely lost",
		"100 bytes in 1 blocks are definitely lost in loss record 3 of 3":                         "definitely lost",
		"Possible data race during write of size 4 at 0x10C060 by thread #3":                      "Possible data race",
		"Thread #1: lock order \"0x10C080 before 0x10C0C0\" violated":                             "lock order violated",
		"Conflicting store by thread 3 at 0x0010c060 size 4":                                      "Conflicting store",
	} {
		if got, _, ok := valgrindKind(msg); !ok || got != want {
			t.Errorf("valgrindKind(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
	// The lines at the margin that are no report's message.
	for _, msg := range []string{
		"Thread #3 was created", "Thread #1 is the program's root thread", "Thread 3:", "HEAP SUMMARY:",
		"LEAK SUMMARY:", "Locks held: none", "This conflicts with a previous write of size 4 by thread #2",
		"Allocation context: BSS section of /build/ci/valgrind/race", "Other segment start (thread 2)",
		"ERROR SUMMARY: 9 errors from 9 contexts (suppressed: 0 from 0)", "Memcheck, a memory error detector",
		"---Thread-Announcement------------------------------------------", "Command: ./race",
	} {
		if kind, _, ok := valgrindKind(msg); ok {
			t.Errorf("valgrindKind(%q) = %q: read as a report's message", msg, kind)
		}
	}
}
