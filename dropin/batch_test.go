package dropin

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/startup"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// runLLVMFrom runs the face on stdin read through r.
func runLLVMFrom(args []string, r io.Reader, open Opener) (stdout, stderr string) {
	return runLLVMDirect(args, r, open, 0)
}

// runLLVMDirect is runLLVMFrom with the direct-write threshold set (0:
// the default; 1: every batch chunk bypasses the stdout buffer).
func runLLVMDirect(args []string, r io.Reader, open Opener, directMin int) (stdout, stderr string) {
	return runLLVMEnv(args, Env{Stdin: r, Open: open, directWriteMin: directMin})
}

// runLLVMEnv runs the face with env, its streams but stdin set here.
func runLLVMEnv(args []string, env Env) (stdout, stderr string) {
	var o, e bytes.Buffer
	env.Stdout, env.Stderr, env.Version = &o, &e, "test"
	RunLLVMSymbolizer(args, env)
	return o.String(), e.String()
}

// TestBatchMatchesLineByLine feeds the same mixed input once as a whole
// (answered in parallel batches) and once a byte at a time (every line
// answered alone, as over a runtime's pipe): stdout and stderr must be the
// same, answers in input order, module errors and rejected lines in place.
func TestBatchMatchesLineByLine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	lines := []string{
		`CODE "testdata/t" 0x1190`,
		`DATA "testdata/t" 0x4044`,
		`testdata/t 0x1060`,
		`FRAME "testdata/t" 0x1060`,
		`garbage line`,
		``,
		`CODE "no/such/module" 0x10`,
		`CODE "testdata/t" 0x1`,
		strings.Repeat("x", maxQueryLine+10),
	}
	var in strings.Builder
	for i := 0; i < 3*maxBatch; i++ {
		// Mostly valid queries, so long parallel runs form between the
		// lines answered in place.
		l := lines[i%3]
		if i%97 == 0 {
			l = lines[3+(i/97)%(len(lines)-3)]
		}
		in.WriteString(l + "\n")
	}
	for _, args := range [][]string{
		{"--inlines"},
		{"--output-style=GNU", "--addresses"},
		{"--output-style=JSON"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			wantOut, wantErr := runLLVMFrom(args, iotest.OneByteReader(strings.NewReader(in.String())), fakeOpener)
			for _, env := range []Env{
				{},
				{directWriteMin: 1},
				// Every batch's answers over the budget: the batches
				// after the first shrink, leaving chunks unused.
				{batchBytes: 1},
				{batchBytes: 1, directWriteMin: 1},
			} {
				what := fmt.Sprintf("direct=%d budget=%d", env.directWriteMin, env.batchBytes)
				env.Stdin, env.Open = strings.NewReader(in.String()), fakeOpener
				gotOut, gotErr := runLLVMEnv(args, env)
				if gotOut != wantOut {
					t.Errorf("%s: batched stdout differs from line-by-line (%d vs %d bytes)", what, len(gotOut), len(wantOut))
				}
				if gotErr != wantErr {
					t.Errorf("%s: batched stderr differs from line-by-line:\n%s\nvs\n%s", what, gotErr, wantErr)
				}
			}
			if n := strings.Count(wantOut, "/src/t.c"); n < maxBatch {
				t.Errorf("only %d answers name the fixture's source file", n)
			}
		})
	}
}

// TestBatchEngine runs the real engine on a C++ fixture, batched and line by
// line: concurrent lookups (run it with -race) must answer exactly as
// sequential ones.
func TestBatchEngine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, name := range []string{"cxx-O2-dw5", "c-O2-zstd"} {
		bin := filepath.Join("..", "testdata", "elf", name)
		if _, err := os.Stat(bin); err != nil {
			t.Skipf("fixture %s not present: %v", bin, err)
		}
		var in strings.Builder
		for a := 0x1000; a < 0x1000+4*maxBatch*3; a += 3 {
			fmt.Fprintf(&in, "0x%x\n", a)
		}
		args := []string{"--obj=" + bin, "--inlining", "--demangle"}
		wantOut, wantErr := runLLVMFrom(args, iotest.OneByteReader(strings.NewReader(in.String())), OpenEngine)
		for _, direct := range []int{0, 1} {
			gotOut, gotErr := runLLVMDirect(args, strings.NewReader(in.String()), OpenEngine, direct)
			if gotOut != wantOut || gotErr != wantErr {
				t.Errorf("%s, direct=%d: batched output differs from line-by-line (%d vs %d bytes)", name, direct, len(gotOut), len(wantOut))
			}
		}
		// The module's resident pages handed back after every batch, and
		// the test binary's own every executableReleaseEvery batches: the
		// lookups after read them again.
		var o, e bytes.Buffer
		released := 0
		release := func() {
			released++
			if _, err := startup.Release(); err != nil {
				t.Errorf("startup.Release: %v", err)
			}
		}
		RunLLVMSymbolizer(args, Env{Stdin: strings.NewReader(in.String()), Stdout: &o, Stderr: &e, Open: OpenEngine, Version: "test", releaseEvery: 1, ReleaseExecutable: release})
		if o.String() != wantOut || e.String() != wantErr {
			t.Errorf("%s, pages handed back after every batch: output differs from line-by-line (%d vs %d bytes)", name, o.Len(), len(wantOut))
		}
		if released == 0 {
			t.Errorf("%s: the executable's pages were never handed back", name)
		}
		if !strings.Contains(wantOut, ".c") && !strings.Contains(wantOut, ".cc") {
			t.Errorf("%s: no source locations in the answers", name)
		}
	}
}

// hintModule is testModule, counting the ExpectManyLookups hints.
type hintModule struct {
	fakeModule
	hints int
}

func (m *hintModule) ExpectManyLookups() { m.hints++ }

// TestManyLookupsHint: a module is told that a batch follows when queries
// are waiting behind the one that opens it (stdin lines already buffered,
// several argv addresses), and not for a single query, which a module may
// answer more cheaply for one address (symbolize probes the unit).
func TestManyLookupsHint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		hint  bool
	}{
		{"one stdin line", nil, "CODE \"testdata/t\" 0x1190\n", false},
		{"lines buffered", nil, "CODE \"testdata/t\" 0x1190\nCODE \"testdata/t\" 0x1060\n", true},
		{"one argv address", []string{"--obj=testdata/t", "0x1190"}, "", false},
		{"argv addresses", []string{"--obj=testdata/t", "0x1190", "0x1060"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &hintModule{fakeModule: *testModule}
			open := func(path string, _ *debuginfo.Finder) (modcache.Object, error) {
				if path == "testdata/t" {
					return m, nil
				}
				return nil, errNotObject
			}
			out, _ := runLLVMFrom(tc.args, strings.NewReader(tc.stdin), open)
			if !strings.Contains(out, "foo") {
				t.Fatalf("no answer: %q", out)
			}
			if (m.hints > 0) != tc.hint {
				t.Errorf("%d hints, want them: %v", m.hints, tc.hint)
			}
		})
	}
}

// panicModule is testModule but for one address, whose lookup panics (a
// bug of sanitrace's in the engine).
type panicModule struct{ fakeModule }

const panicAddr = 0x666

func (m *panicModule) Symbolize(addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error) {
	if addr == panicAddr {
		panic("index out of range [7] with length 7")
	}
	return m.fakeModule.Symbolize(addr, opts)
}

// TestQueryPanic: a panic while answering one query costs that query,
// answered as unknown with one line on stderr naming module and address,
// and not the session: the queries after it are answered, whether alone
// (a runtime's pipe) or by the batch workers.
func TestQueryPanic(t *testing.T) {
	m := &panicModule{*testModule}
	open := func(path string, _ *debuginfo.Finder) (modcache.Object, error) {
		if path == "testdata/t" {
			return m, nil
		}
		return nil, errNotObject
	}
	var in strings.Builder
	for i := 0; i < 3*minParallel; i++ {
		addr := 0x1060
		if i%minParallel == 1 {
			addr = panicAddr
		}
		fmt.Fprintf(&in, "CODE \"testdata/t\" 0x%x\n", addr)
	}
	const wantErr = "llvm-symbolizer: error: 'testdata/t': address 0x666: internal error (please report it): index out of range [7] with length 7\n"
	for name, r := range map[string]io.Reader{
		"one by one": iotest.OneByteReader(strings.NewReader(in.String())),
		"batches":    strings.NewReader(in.String()),
	} {
		t.Run(name, func(t *testing.T) {
			out, errs := runLLVMFrom(nil, r, open)
			if got, want := strings.Count(out, "main\n/src/t.c:5:70\n\n"), 3*minParallel-3; got != want {
				t.Errorf("%d answers, want %d", got, want)
			}
			if got := strings.Count(out, "??\n??:0:0\n\n"); got != 3 {
				t.Errorf("%d unknown answers, want 3:\n%s", got, out)
			}
			if errs != strings.Repeat(wantErr, 3) {
				t.Errorf("stderr %q, want %q three times", errs, wantErr)
			}
		})
	}
}
