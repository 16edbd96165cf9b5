package campaign

import (
	"strings"
	"syscall"
	"testing"
)

func classes(fs []Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Class))
	}
	return strings.Join(out, ",")
}

func TestClassify(t *testing.T) {
	const mem = 512 << 20
	goPanicDump := "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\n" +
		"github.com/sanitrace/sanitrace/symbolize.(*lineTable).row(...)\n\t/build/symbolize/lines.go:12\nmain.main()\n"
	for _, c := range []struct {
		name  string
		res   Result
		json  bool
		human bool
		batch bool
		want  string
	}{
		{"a clean run", Result{Stdout: []byte("ok\n")}, false, true, false, ""},
		{"a Go panic", Result{Exit: 2, Stderr: []byte(goPanicDump)}, false, false, false, "panic"},
		{"panic text without a dump is log text", Result{Exit: 1, Stderr: []byte("x.log: panic: not ours\n")}, false, false, false, ""},
		{"a stack overflow", Result{Exit: 2, Stderr: []byte("runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n\nruntime stack:\n")}, false, false, false, "panic"},
		{"out of memory", Result{Exit: 2, Stderr: []byte("fatal error: runtime: out of memory\n\nruntime stack:\n")}, false, false, false, "memory"},
		{"over the RSS bound", Result{MaxRSS: mem + 1}, false, false, false, "memory"},
		{"killed by SIGBUS", Result{Exit: -1, Signal: syscall.SIGBUS}, false, false, false, "panic"},
		{"timed out", Result{TimedOut: true, Exit: -1, Signal: syscall.SIGKILL}, true, true, false, "hang"},
		{"a recovered decoder panic", Result{Stderr: []byte("sanitrace: symbolize: a.out: address 0x10: decoder panic: runtime error: x\n")}, false, false, false, "recovered"},
		{"a recovered panic in batch's JSON", Result{Stdout: []byte(`{"errors":[{"error":"internal error while decoding (please report it): boom"}]}`)}, true, false, true, "recovered"},
		{"invalid JSON", Result{Stdout: []byte("{\"a\": ")}, true, false, false, "invalid-json"},
		{"JSON that is not UTF-8", Result{Stdout: []byte("{\"a\": \"\xff\"}")}, true, false, false, "invalid-json"},
		{"empty JSON output of a run that did not fail", Result{Exit: 1}, true, false, false, "invalid-json"},
		{"empty JSON output of a refused input", Result{Exit: 2, Stderr: []byte("sanitrace: x: not a log\n")}, true, false, false, ""},
		{"valid JSON", Result{Stdout: []byte("{\"a\": \"\\u001b\"}\n")}, true, false, false, ""},
		{"SGR colors on a terminal", Result{Stdout: []byte("\x1b[1;31mERROR\x1b[0m frame\n")}, false, true, false, ""},
		{"a carriage return on stdout", Result{Stdout: []byte("#0 good\rbad\n")}, false, true, false, "raw-control"},
		{"a carriage return in JSON mode is data", Result{Stdout: []byte("{}\n\r")}, true, false, false, ""},
		{"an OSC sequence", Result{Stdout: []byte("\x1b]8;;http://x\x1b\\link")}, false, true, false, "raw-control"},
		{"C1 in UTF-8", Result{Stdout: []byte("a\u009bb")}, false, true, false, "raw-control"},
		{"a bare C1 byte", Result{Stdout: []byte("a\x9bb")}, false, true, false, "raw-control"},
		{"other non-ASCII is fine", Result{Stdout: []byte("naïve → ok\t\n")}, false, true, false, ""},
		{"a BEL on stderr", Result{Stderr: []byte("sanitrace: x.log:3: bad \a\n")}, false, false, false, "raw-control"},
	} {
		got := classes(classify(c.res, "t", c.json, c.human, c.batch, mem))
		if got != c.want {
			t.Errorf("%s: classified %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCrashOf(t *testing.T) {
	stderr := []byte("sanitrace: warning\npanic: runtime error: slice bounds out of range [:9] with capacity 4\n\n" +
		"goroutine 7 [running]:\nruntime/debug.Stack()\n\t/go/x.go:1\n" +
		"github.com/sanitrace/sanitrace/cfi.(*reader).uleb(0xc0000)\n\t/src/cfi/reader.go:40 +0x1d\n")
	msg, frame := crashOf(stderr)
	if msg != "panic: runtime error: slice bounds out of range [:9] with capacity 4" || frame != "github.com/sanitrace/sanitrace/cfi.(*reader).uleb" {
		t.Fatalf("crashOf = %q, %q", msg, frame)
	}
	if n := normalize(msg); n != "panic: runtime error: slice bounds out of range [:N] with capacity N" {
		t.Fatalf("normalize = %q", n)
	}
}

func TestRefClass(t *testing.T) {
	const mem = 100 << 20
	for _, c := range []struct {
		res  Result
		want string
	}{
		{Result{Exit: 1, Stderr: []byte("addr2line: a.out: file format not recognized\n")}, ""},
		{Result{Exit: -1, Signal: syscall.SIGSEGV}, "crash"},
		{Result{Exit: -1, Signal: syscall.SIGABRT, Stderr: []byte("terminate called after throwing an instance of 'std::bad_alloc'\n")}, "memory"},
		{Result{TimedOut: true, Exit: -1, Signal: syscall.SIGKILL}, "hang"},
		{Result{MaxRSS: mem + 1}, "memory"},
	} {
		if got := refClass(c.res, mem); got != c.want {
			t.Errorf("refClass(%+v) = %q, want %q", c.res, got, c.want)
		}
	}
}

// TestAsDecode: batch's reports of a log must be decode's (finding F3:
// batch skipped a log that decode read).
func TestAsDecode(t *testing.T) {
	decoded := []Report{{Tool: "AddressSanitizer", Kind: "heap-use-after-free"}, {Tool: "ThreadSanitizer", Kind: "data race"}}
	c := Command{Name: "batch json"}
	s := &Seed{Name: "x.log"}
	all := Result{Stdout: []byte(`{"reports":[{"tool":"ThreadSanitizer","kind":"data race"},{"tool":"AddressSanitizer","kind":"heap-use-after-free"}]}`)}
	if fs := asDecode(c, s, decoded, all); len(fs) != 0 {
		t.Errorf("all of decode's reports in batch's, yet %v", fs)
	}
	none := Result{Stdout: []byte(`{"reports":[],"errors":[]}`)}
	if fs := asDecode(c, s, decoded, none); len(fs) != 2 || fs[0].Class != Lost {
		t.Errorf("batch found nothing: %v, want two lost reports", fs)
	}
}
