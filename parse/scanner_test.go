package parse

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/report"
)

// A 10 MB line is cut to MaxLineLen and the reports around it still parse.
func TestLongLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("a.c:1:2: runtime error: signed integer overflow: 1 + 2147483647 cannot be represented in type 'int'\n")
	b.WriteString(strings.Repeat("x", 10<<20))
	b.WriteString("\nb.c:3:4: runtime error: division by zero\n")
	reps := parseAll(t, &b, "long")
	if len(reps) != 2 || reps[0].Kind != "signed-integer-overflow" || reps[1].Kind != "integer-divide-by-zero" {
		t.Fatalf("got %d reports: %+v", len(reps), reps)
	}
	if reps[1].Input.FirstLine != 3 {
		t.Errorf("second report at line %d, want 3", reps[1].Input.FirstLine)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(p, "==1==ERROR: AddressSanitizer: SEGV on unknown address (pc 0x1 bp 0x2 sp 0x3 T0)\n"), nil
	}
	return 0, fmt.Errorf("disk on fire")
}

// A read error ends the stream after the reports read so far, and names
// the input.
func TestReadError(t *testing.T) {
	sc := NewScanner(&failingReader{n: 1}, "crash.log")
	r, err := sc.Next()
	if err != nil || r == nil || !r.Truncated {
		t.Fatalf("first Next = %+v, %v; want the truncated report", r, err)
	}
	if _, err := sc.Next(); err == nil || !strings.Contains(err.Error(), "crash.log") {
		t.Fatalf("second Next error = %v, want a read error naming crash.log", err)
	}
}

// UBSan's check name comes from the message, or from SUMMARY when the
// runtime names it there.
func TestUBSanKind(t *testing.T) {
	tests := []struct{ log, kind string }{
		{"a.c:1:2: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n", "invalid-shift-exponent"},
		{"a.c:1:2: runtime error: left shift of negative value -1\n", "invalid-shift-base"},
		{"a.c:1:2: runtime error: load of value 7, which is not a valid value for type 'bool'\n", "invalid-bool-load"},
		{"a.c:1:2: runtime error: execution reached an unreachable program point\n", "unreachable-call"},
		{"a.c:1:2: runtime error: something new\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior a.c:1:2 in \n", "undefined-behavior"},
		{"a.c:1:2: runtime error: something new\nSUMMARY: UndefinedBehaviorSanitizer: brand-new-check a.c:1:2 in \n", "brand-new-check"},
	}
	for _, tt := range tests {
		reps := parseAll(t, strings.NewReader(tt.log), "u")
		if len(reps) != 1 || reps[0].Kind != tt.kind {
			t.Errorf("%q: got %+v, want kind %q", tt.log, reps, tt.kind)
		}
	}
}

// genLog writes a log of about size bytes: corpus-like reports between
// runs of ordinary program output.
func genLog(tb testing.TB, size int) []byte {
	tb.Helper()
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "reports", "*.log"))
	var reports [][]byte
	for _, p := range logs {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		reports = append(reports, data)
	}
	rng := rand.New(rand.NewSource(1))
	var b bytes.Buffer
	for b.Len() < size {
		for i := 0; i < 200; i++ {
			fmt.Fprintf(&b, "[%6d] worker %d: request %d handled in %d us, status=ok path=/api/v1/items/%d\n",
				b.Len()%1000000, i%8, rng.Intn(100000), rng.Intn(5000), rng.Intn(1000))
		}
		b.Write(reports[rng.Intn(len(reports))])
	}
	return b.Bytes()
}

func BenchmarkScanner(b *testing.B) {
	data := genLog(b, 32<<20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		eachReport(b, NewScanner(bytes.NewReader(data), "gen"), func(int, *report.Report) { n++ })
		if n == 0 {
			b.Fatal("no reports")
		}
	}
}

// repeatReader yields data again and again up to n bytes.
type repeatReader struct {
	data []byte
	off  int
	n    int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if r.off == len(r.data) {
		r.off = 0
	}
	k := copy(p[:min(int64(len(p)), r.n)], r.data[r.off:])
	r.off += k
	r.n -= int64(k)
	return k, nil
}

// TestHugeLog streams a 1 GB generated log (opt-in: SANITRACE_HUGE=1) and
// checks that the heap stays bounded while reports are consumed.
func TestHugeLog(t *testing.T) {
	if os.Getenv("SANITRACE_HUGE") == "" {
		t.Skip("set SANITRACE_HUGE=1 to scan a 1 GB generated log")
	}
	data := genLog(t, 16<<20)
	const size = 1 << 30
	sc := NewScanner(&repeatReader{data: data, n: size}, "huge")
	start := time.Now()
	var maxHeap uint64
	n := 0
	eachReport(t, sc, func(int, *report.Report) {
		if n++; n%2000 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			maxHeap = max(maxHeap, ms.HeapAlloc)
		}
	})
	el := time.Since(start)
	t.Logf("1 GiB: %d reports in %v (%.0f MB/s), max heap %d MB", n, el, float64(size)/1e6/el.Seconds(), maxHeap>>20)
	if maxHeap > 256<<20 {
		t.Errorf("heap grew to %d MB", maxHeap>>20)
	}
}

// TestProgramLogLinesNoCue holds the prefilter to the lines of programs
// that log as they run: a Go program with log.Lshortfile writes
// "main.go:12:" on every line, which a cue word "go" brought to every
// format's starter (decode 10x slower on such a log), while a lost Go
// frame's location line still gets through.
func TestProgramLogLinesNoCue(t *testing.T) {
	for _, l := range []string{
		"2026/11/29 12:00:07 main.go:123: processing item 42 from queue worker-3",
		"I1129 12:00:07.123456   42 server.go:88] listening on :8080",
	} {
		if maybeReport([]byte(l)) {
			t.Errorf("maybeReport(%q) = true: every line of such a log would be tried", l)
		}
	}
	if l := "      /src/pop_test.go:77 +0x628"; !maybeReport([]byte(l)) {
		t.Errorf("maybeReport(%q) = false: a lost Go frame would not be read", l)
	}
}

// TestFrameRoomCopies holds every report's stacks as they were when the
// Scanner returned it, after the reports that follow were read: stacks
// are built in one room the Scanner reuses, and each must leave with a
// copy of its own.
func TestFrameRoomCopies(t *testing.T) {
	logs, err := filepath.Glob("../testdata/reports/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no logs: %v", err)
	}
	var all []byte
	for _, l := range logs {
		data, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, data...), '\n')
	}
	sc := NewScanner(bytes.NewReader(all), "reports")
	var reps []*report.Report
	var then []string
	for {
		r, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, r)
		then = append(then, fmt.Sprintf("%+v", r.Stacks))
	}
	if len(reps) < 20 {
		t.Fatalf("%d reports from %d logs", len(reps), len(logs))
	}
	for i, r := range reps {
		if now := fmt.Sprintf("%+v", r.Stacks); now != then[i] {
			t.Errorf("report %d (%s, line %d): its stacks changed after it was returned", i+1, r.Tool, r.Input.FirstLine)
		}
	}
}
