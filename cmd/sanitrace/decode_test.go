package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

// The demo: a gcc ASan use-after-free report printed with symbolize=0 by a
// binary built and run as /build/demo/session (see testdata/demo/Makefile).
var (
	demoDir = filepath.Join(repoRoot, "testdata", "demo")
	demoLog = filepath.Join(demoDir, "session.log")
	demoMap = "/build/demo=" + mustAbs(demoDir)
)

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

func TestDecodeExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.log")
	empty := filepath.Join(t.TempDir(), "empty.log")
	if err := os.WriteFile(empty, []byte("no reports here\njust output\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantCode   int
		wantStderr []string // each a whole line of stderr, in order
		wantOut    string   // a substring of stdout
	}{
		{name: "no report on stdin", stdin: "hello\n", args: []string{"decode"}, wantCode: 0},
		{name: "no report in a file", args: []string{"decode", empty}, wantCode: 0},
		{name: "a report", args: []string{"decode", "--symbolize=false", demoLog}, wantCode: 1, wantOut: "heap-use-after-free"},
		{name: "a report, --exit-zero", args: []string{"decode", "--symbolize=false", "--exit-zero", demoLog}, wantCode: 0, wantOut: "heap-use-after-free"},
		{name: "stdin as -", stdin: readFile(t, demoLog), args: []string{"decode", "--symbolize=false", "-"}, wantCode: 1, wantOut: "heap-use-after-free"},
		{name: "unreadable file, the next still decoded", args: []string{"decode", "--symbolize=false", missing, demoLog}, wantCode: 2,
			wantStderr: []string{"sanitrace: " + missing + ": no such file or directory"}, wantOut: "heap-use-after-free"},
		{name: "a directory as input", args: []string{"decode", "--symbolize=false", t.TempDir()}, wantCode: 2},
		{name: "bad format", args: []string{"decode", "--format", "xml", demoLog}, wantCode: 2,
			wantStderr: []string{`sanitrace: --format "xml": want text or json`}},
		{name: "bad color", args: []string{"decode", "--color=sometimes", demoLog}, wantCode: 2,
			wantStderr: []string{`sanitrace: --color "sometimes": want auto, always or never`}},
		{name: "bad prefix map", args: []string{"decode", "--prefix-map", "nothing", demoLog}, wantCode: 2,
			wantStderr: []string{`sanitrace: --prefix-map: prefix map "nothing": want FROM=TO`}},
		{name: "negative source context", args: []string{"decode", "--source-context", "-1", demoLog}, wantCode: 2,
			wantStderr: []string{"sanitrace: --source-context -1: must not be negative"}},
		{name: "unknown flag", args: []string{"decode", "--bogus"}, wantCode: 2,
			wantStderr: []string{"sanitrace: unknown flag: --bogus (see sanitrace decode --help)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCLI(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.wantCode, errs)
			}
			if tt.wantStderr != nil {
				if got := lines(errs); strings.Join(got, "\n") != strings.Join(tt.wantStderr, "\n") {
					t.Errorf("stderr:\n%s\nwant:\n%s", errs, strings.Join(tt.wantStderr, "\n"))
				}
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantOut, out)
			}
		})
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestDecodeMissingModules: every module the log names is missing (an
// empty sysroot hides the host's libraries): one stderr line per module,
// and the report is still rendered, its frames unsymbolized.
func TestDecodeMissingModules(t *testing.T) {
	sysroot, logDir := t.TempDir(), t.TempDir()
	log := filepath.Join(logDir, "session.log") // away from the binary next to the original
	if err := os.WriteFile(log, []byte(readFile(t, demoLog)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "decode", "--format", "json", "--sysroot", sysroot, log)
	if code != exitFound {
		t.Errorf("exit code %d, want 1", code)
	}
	want := []string{
		"sanitrace: /build/demo/session: not found (searched " + filepath.Join(sysroot, "build/demo/session") + ", " + filepath.Join(logDir, "session") + ")",
		"sanitrace: /lib/x86_64-linux-gnu/libc.so.6: not found (searched " + filepath.Join(sysroot, "lib/x86_64-linux-gnu/libc.so.6") + ", " + filepath.Join(logDir, "libc.so.6") + ")",
		"sanitrace: /lib/x86_64-linux-gnu/libasan.so.8: not found (searched " + filepath.Join(sysroot, "lib/x86_64-linux-gnu/libasan.so.8") + ", " + filepath.Join(logDir, "libasan.so.8") + ")",
	}
	if got := lines(errs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", errs, strings.Join(want, "\n"))
	}
	d := parseDecodeJSON(t, out)
	if len(d.Reports) != 1 || len(d.Reports[0].Stacks) != 3 {
		t.Fatalf("want 1 report with 3 stacks, got %+v", d.Reports)
	}
	for _, s := range d.Reports[0].Stacks {
		for _, f := range s.Frames {
			if f.Symbolized != "none" || f.Function != nil {
				t.Errorf("%s: frame %+v symbolized without its module", s.Title, f)
			}
		}
	}
}

// TestDecodeDemo decodes the demo with its binary and checks every frame
// in it against llvm-symbolizer run on the same binary and offset.
func TestDecodeDemo(t *testing.T) {
	llvm := reftool.Need(t, "llvm-symbolizer")
	out, errs, code := runCLI(t, "", "decode", "--format", "json", "--prefix-map", demoMap, "--sysroot", t.TempDir(), demoLog)
	if code != exitFound {
		t.Errorf("exit code %d, want 1; stderr:\n%s", code, errs)
	}
	if strings.Contains(errs, "/build/demo") {
		t.Errorf("the demo binary was not used:\n%s", errs)
	}
	d := parseDecodeJSON(t, out)
	checked := 0
	for _, r := range d.Reports {
		for _, s := range r.Stacks {
			for _, chain := range physical(s.Frames) {
				if str(chain[0].Module) != "/build/demo/session" {
					continue
				}
				want := llvmChain(t, llvm, filepath.Join(demoDir, "session"), str(chain[0].Offset))
				var got []string
				for _, f := range chain {
					got = append(got, fmt.Sprintf("%s %s:%d:%d", str(f.Function), str(f.File), f.Line, f.Column))
					if f.Symbolized != "sanitrace" {
						t.Errorf("frame %+v: symbolized %q", f, f.Symbolized)
					}
				}
				if strings.Join(got, " | ") != strings.Join(want, " | ") {
					t.Errorf("%s+%s:\n got %q\nwant %q", str(chain[0].Module), str(chain[0].Offset), got, want)
				}
				checked++
			}
		}
	}
	if checked < 7 {
		t.Errorf("checked %d demo frames, want the 7 the log has", checked)
	}
}

// llvmChain asks llvm-symbolizer for the inline chain at off in bin.
func llvmChain(t *testing.T, llvm, bin, off string) []string {
	t.Helper()
	cmd := exec.Command(llvm, "--obj="+bin, "--inlining", "--demangle", "--output-style=JSON")
	cmd.Stdin = strings.NewReader(off + "\n") // one object per stdin line (argv gives an array)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-symbolizer %s %s: %v", bin, off, err)
	}
	var ans struct {
		Symbol []struct {
			FunctionName, FileName string
			Line, Column           int
		}
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("llvm-symbolizer output %q: %v", out, err)
	}
	var chain []string
	for _, s := range ans.Symbol {
		chain = append(chain, fmt.Sprintf("%s %s:%d:%d", s.FunctionName, s.FileName, s.Line, s.Column))
	}
	return chain
}

func TestDecodeColor(t *testing.T) {
	tests := []struct {
		color, noColor string
		want           bool
	}{
		{"always", "", true},
		{"always", "1", true}, // an explicit flag wins over the environment
		{"never", "", false},
		{"auto", "", false}, // stdout is not a terminal here
		{"auto", "1", false},
	}
	for _, tt := range tests {
		t.Run(tt.color+"/NO_COLOR="+tt.noColor, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			out, errs, code := runCLI(t, "", "decode", "--symbolize=false", "--color="+tt.color, demoLog)
			if code != exitFound {
				t.Fatalf("exit code %d; stderr:\n%s", code, errs)
			}
			if got := strings.Contains(out, "\x1b["); got != tt.want {
				t.Errorf("colored = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDecodeSourceContext: --source-context reads the source through the
// prefix map.
func TestDecodeSourceContext(t *testing.T) {
	out, errs, code := runCLI(t, "", "decode", "--color=never", "--source-context", "1", "--prefix-map", demoMap, demoLog)
	if code != exitFound {
		t.Fatalf("exit code %d; stderr:\n%s", code, errs)
	}
	for _, want := range []string{"session_active", "return s->refs > 0;"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDecodeStreams: a report is rendered as soon as it is complete, while
// the input is still open.
func TestDecodeStreams(t *testing.T) {
	pr, pw := io.Pipe()
	out := &notifyWriter{grew: make(chan struct{}, 1)}
	root := newRootCmd(pr, out, io.Discard)
	root.SetArgs([]string{"decode", "--symbolize=false", "--color=never"})
	done := make(chan error, 1)
	go func() { done <- root.Execute() }()
	if _, err := io.WriteString(pw, readFile(t, demoLog)+"more program output\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(time.Minute) // a hang guard, not a performance bound
	for !strings.Contains(out.String(), "heap-use-after-free") {
		select {
		case <-out.grew:
		case <-deadline:
			pw.Close()
			t.Fatalf("no report rendered while the input stays open; output so far:\n%s", out.String())
		}
	}
	pw.Close()
	if err := <-done; codeOf(err) != exitFound {
		t.Errorf("exit: %v", err)
	}
}

// notifyWriter is a concurrency-safe buffer that signals each write.
type notifyWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	grew chan struct{}
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	select {
	case w.grew <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *notifyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
