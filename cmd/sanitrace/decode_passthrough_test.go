package main

import (
	"fmt"
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
	"github.com/sanitrace/sanitrace/render"
)

// The UBSan report the passthrough tests put after the demo's ASan report:
// already symbolized by the runtime, with program output after it.
var ubsanLog = filepath.Join(repoRoot, "testdata", "reports", "ubsan_ub_misaligned_clang_O2_dw4.symbolized.log")

// interleavedLog is a test run as a user pipes it into decode: program
// output, the demo's unsymbolized ASan report with a line of another
// thread's output between its frames, more output, a UBSan report (its
// note and byte dump are not in the model), more output.
func interleavedLog(t *testing.T) string {
	t.Helper()
	asan := strings.SplitAfter(readFile(t, demoLog), "\n")
	asan = append(asan[:5], append([]string{"worker 2: heartbeat\n"}, asan[5:]...)...)
	return "[ RUN      ] session.login\n" +
		"connecting to 127.0.0.1:8080\n" +
		strings.Join(asan, "") +
		"[  FAILED  ] session.login (12 ms)\n" +
		"[ RUN      ] packet.seq\n" +
		readFile(t, ubsanLog) +
		"[       OK ] packet.seq (0 ms)\n" +
		"2 tests, 1 failed\n"
}

// passthroughFlags symbolize the demo's own frames and leave the system
// libraries as the log printed them (the empty sysroot): the output does
// not depend on this machine's libc.
func passthroughFlags(t *testing.T) []string {
	return []string{"decode", "--passthrough", "--color=never", "--prefix-map", demoMap, "--sysroot", t.TempDir()}
}

// TestDecodePassthroughGolden: the whole input comes back in order, each
// report replaced by its completed rendering (the demo's frames
// symbolized and marked, the shadow map explained) and the program's
// output between and around the reports where it was.
func TestDecodePassthroughGolden(t *testing.T) {
	in := interleavedLog(t)
	out, errs, code := runCLI(t, in, passthroughFlags(t)...)
	if code != exitFound {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFound, errs)
	}
	golden.Check(t, filepath.Join(golden.Dir("decode"), "passthrough-interleaved.txt"), out)

	// Independently of the golden: the program's lines in input order,
	// each once; the reports' renderings between them.
	var prog []string
	for _, l := range strings.Split(in, "\n") {
		if strings.HasPrefix(l, "[") || strings.HasPrefix(l, "connecting") || strings.HasPrefix(l, "2 tests") || l == "seq=14131211" ||
			strings.HasPrefix(l, "worker 2") || strings.Contains(l, ": note: pointer points here") {
			prog = append(prog, l)
		}
	}
	lines := strings.Split(out, "\n")
	pos := 0
	for _, p := range prog {
		for pos < len(lines) && lines[pos] != p {
			pos++
		}
		if pos == len(lines) {
			t.Fatalf("program line %q missing or out of order:\n%s", p, out)
		}
	}
	asan := strings.Index(out, "heap-use-after-free on address")
	failed := strings.Index(out, "[  FAILED  ]")
	ubsan := strings.Index(out, "runtime error: load of misaligned address")
	ok := strings.Index(out, "[       OK ]")
	worker := strings.Index(out, "worker 2: heartbeat")
	marked := strings.Index(out, "Marked byte: [fd]")
	if !(strings.Index(out, "connecting") < asan && asan < marked && marked < worker && worker < failed && failed < ubsan && ubsan < ok) {
		t.Errorf("reports not where they were in the input:\n%s", out)
	}
	for _, want := range []string{
		"#0 0x55e43b40e360 in session_active /build/demo/session.c:31:10" + render.SymbolizedMarker,
		"Marked byte: [fd]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rendering lacks %q", want)
		}
	}
	if strings.Contains(out, "(/build/demo/session+0x1360)\n") {
		t.Error("the report's unsymbolized frame is still in the output")
	}
}

// TestDecodePassthroughStreams: each line comes out before the next one
// is written (a slow writer at the other end of a pipe): program output at
// once, a report as soon as the line after it shows it has ended.
func TestDecodePassthroughStreams(t *testing.T) {
	pr, pw := io.Pipe()
	out := &notifyWriter{grew: make(chan struct{}, 1)}
	root := newRootCmd(pr, out, io.Discard)
	root.SetArgs([]string{"decode", "--passthrough", "--symbolize=false", "--color=never"})
	done := make(chan error, 1)
	go func() { done <- root.Execute() }()
	deadline := time.After(2 * time.Minute) // a hang guard, not a performance bound
	waitFor := func(want string) {
		t.Helper()
		for !strings.Contains(out.String(), want) {
			select {
			case <-out.grew:
			case <-deadline:
				pw.Close()
				t.Fatalf("%q not written while the input stays open; output so far:\n%s", want, out.String())
			}
		}
	}
	write := func(s string) {
		t.Helper()
		if _, err := io.WriteString(pw, s); err != nil {
			t.Fatal(err)
		}
	}
	write("[ RUN      ] first\n")
	waitFor("[ RUN      ] first\n")
	write("still running\n")
	waitFor("still running\n")
	write(readFile(t, demoLog)) // ends with ==PID==ABORTING: the report may go on (libFuzzer lines)
	write("[  FAILED  ] first\n")
	waitFor("Marked byte: [fd]")
	waitFor("[  FAILED  ] first\n")
	if o := out.String(); strings.Index(o, "Marked byte") > strings.Index(o, "[  FAILED  ]") {
		t.Errorf("the program's line came before the report it follows:\n%s", o)
	}
	write("[ RUN      ] second\n")
	waitFor("[ RUN      ] second\n")
	pw.Close()
	if err := <-done; codeOf(err) != exitFound {
		t.Errorf("exit: %v", err)
	}
	if o := out.String(); strings.Count(o, "[ RUN      ]") != 2 || !strings.HasPrefix(o, "[ RUN      ] first\nstill running\n=====") {
		t.Errorf("output:\n%s", o)
	}
}

// TestDecodePassthroughEdges: passthrough is text (JSON is a usage
// error); a report filtered out comes back as read; -q prints nothing.
func TestDecodePassthroughEdges(t *testing.T) {
	_, errs, code := runCLI(t, "", "decode", "--passthrough", "--format", "json", demoLog)
	if code != exitUsage || !strings.Contains(errs, "--passthrough") {
		t.Errorf("--passthrough --format json: exit %d, stderr %q", code, errs)
	}
	in := interleavedLog(t)
	out, _, code := runCLI(t, in, "decode", "--passthrough", "--symbolize=false", "--color=never", "--tool", "ubsan")
	if code != exitFound {
		t.Errorf("--tool ubsan: exit %d", code)
	}
	first := strings.Index(in, "=====")
	last := strings.Index(in, "==11916==ABORTING\n") + len("==11916==ABORTING\n")
	if !strings.Contains(out, in[first:last]) {
		t.Errorf("the ASan report, filtered out, is not in the output as read:\n%s", out)
	}
	if strings.Contains(out, "Marked byte") || !strings.Contains(out, "runtime error: load of misaligned address") {
		t.Errorf("--tool ubsan: the ASan report rendered or the UBSan report missing:\n%s", out)
	}
	out, _, code = runCLI(t, in, "decode", "--passthrough", "-q")
	if code != exitFound || out != "" {
		t.Errorf("-q: exit %d, output %q", code, out)
	}
}

// TestDecodePassthroughDefaultOnTerminal: with stdout a terminal and the
// log piped in, decode gives the whole input back; with the log named as
// a file, or --format, or stdout not a terminal, only the reports.
func TestDecodePassthroughDefaultOnTerminal(t *testing.T) {
	script := reftool.NeedFor(t, "script", "decode not tried on a terminal")
	exe := buildSanitrace(t)
	log := filepath.Join(t.TempDir(), "run.log")
	if err := os.WriteFile(log, []byte(interleavedLog(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	onTTY := func(cmdline string) string {
		t.Helper()
		out, _ := exec.Command(script, "-qec", cmdline, "/dev/null").CombinedOutput()
		return strings.ReplaceAll(string(out), "\r\n", "\n")
	}
	base := exe + " decode --symbolize=false --color=never "
	if out := onTTY(base + "< " + log); !strings.Contains(out, "[  FAILED  ] session.login") || !strings.Contains(out, "Marked byte") {
		t.Errorf("piped log on a terminal: not passed through:\n%s", out)
	}
	if out := onTTY(base + log); strings.Contains(out, "[  FAILED  ]") || !strings.Contains(out, "Marked byte") {
		t.Errorf("named log on a terminal: passed through:\n%s", out)
	}
	if out := onTTY(base + "--format text < " + log); strings.Contains(out, "[  FAILED  ]") {
		t.Errorf("--format text on a terminal: passed through:\n%s", out)
	}
	if out := onTTY(base + "--passthrough=false < " + log); strings.Contains(out, "[  FAILED  ]") {
		t.Errorf("--passthrough=false on a terminal: passed through:\n%s", out)
	}
	if out, _, _ := runCLI(t, interleavedLog(t), "decode", "--symbolize=false", "--color=never"); strings.Contains(out, "[  FAILED  ]") {
		t.Errorf("stdout not a terminal: passed through:\n%s", out)
	}
}

// frameRE is a symbolized frame line as the runtimes print it; the
// marker comes after it, so a tool that reads these fields still does.
var frameRE = regexp.MustCompile(`^    #(\d+) 0x[0-9a-f]+ in (\S+) (\S+):(\d+):(\d+)( \(sanitrace\))?$`)

// TestDecodePlainTextMarkers: frames sanitrace symbolized end in
// " (sanitrace)" without colors too, the frames the runtime symbolized do
// not, and both still read as the runtime's frame lines.
func TestDecodePlainTextMarkers(t *testing.T) {
	out, errs, code := runCLI(t, "", "decode", "--color=never", "--prefix-map", demoMap, "--sysroot", t.TempDir(), demoLog, ubsanLog)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	marked, plain := 0, 0
	for _, l := range strings.Split(out, "\n") {
		m := frameRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[6] != "" {
			marked++
			if !strings.HasPrefix(m[3], "/build/demo/") {
				t.Errorf("marked frame not from the demo: %q", l)
			}
		} else {
			plain++
			if strings.HasPrefix(m[3], "/build/demo/") {
				t.Errorf("frame sanitrace symbolized without the marker: %q", l)
			}
		}
	}
	if marked < 5 || plain < 3 {
		t.Errorf("%d marked and %d unmarked frames, want the demo's marked and UBSan's not:\n%s", marked, plain, out)
	}
	// The unsymbolized system frames are neither.
	if !strings.Contains(out, "#2 0x7fc5fce45249 (/lib/x86_64-linux-gnu/libc.so.6+0x27249)\n") {
		t.Errorf("libc frame:\n%s", out)
	}
}

// TestDecodeTruncatedNote: a report cut off by the end of the log says so;
// a complete one does not.
func TestDecodeTruncatedNote(t *testing.T) {
	whole := readFile(t, demoLog)
	cut := strings.Join(strings.SplitAfter(whole, "\n")[:12], "") // into the free stack
	for _, c := range []struct {
		name, in string
		want     bool
	}{{"cut", cut, true}, {"whole", whole, false}} {
		out, _, code := runCLI(t, c.in, "decode", "--symbolize=false", "--color=never")
		if code != exitFound {
			t.Errorf("%s: exit %d", c.name, code)
		}
		if got := strings.Contains(out, render.TruncatedNote); got != c.want {
			t.Errorf("%s: truncation note %v, want %v:\n%s", c.name, got, c.want, out)
		}
	}
	out, _, _ := runCLI(t, cut, "decode", "--passthrough", "--symbolize=false", "--color=never")
	if !strings.HasSuffix(out, render.TruncatedNote+"\n") {
		t.Errorf("passthrough of a cut report does not end with the note:\n%s", out)
	}
}

// TestDecodeSeveralFiles: each input gets a header, the run a closing
// line that counts what the reports show and what sanitrace did; one
// input gets neither.
func TestDecodeSeveralFiles(t *testing.T) {
	flags := []string{"decode", "--color=never", "--prefix-map", demoMap, "--sysroot", t.TempDir()}
	out, errs, code := runCLI(t, "", append(flags, demoLog, ubsanLog)...)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	doc, _, _ := runCLI(t, "", append(flags, "--format", "json", demoLog, ubsanLog)...)
	symbolized := strings.Count(doc, `"symbolized": "sanitrace"`)
	if symbolized == 0 {
		t.Fatalf("no frame symbolized:\n%s", doc)
	}
	wantClose := "2 reports in 2 files; " + plural(symbolized, "frame") + " symbolized, 2 modules not found\n"
	if !strings.HasPrefix(out, "==> "+demoLog+" <==\n") || !strings.Contains(out, "\n\n==> "+ubsanLog+" <==\n") || !strings.HasSuffix(out, "\n\n"+wantClose) {
		t.Errorf("headers or closing line %q missing:\n%s", wantClose, out)
	}
	if strings.Index(out, "heap-use-after-free") > strings.Index(out, "==> "+ubsanLog) {
		t.Errorf("the ASan report is not under its file's header")
	}
	one, _, _ := runCLI(t, "", append(flags, demoLog)...)
	if strings.Contains(one, "==> ") || strings.Contains(one, "reports in") {
		t.Errorf("one input has a header or a closing line:\n%s", one)
	}
	stdin, _, _ := runCLI(t, readFile(t, ubsanLog), "decode", "--symbolize=false", "--color=never", demoLog, "-")
	if !strings.Contains(stdin, "==> standard input <==") || !strings.Contains(stdin, "2 reports in 2 files; 0 frames symbolized\n") {
		t.Errorf("stdin as the second input:\n%s", stdin)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// TestDecodePassthroughFuzzerInput: libFuzzer's lines about the failing
// input after a report (MS:, the input's bytes and text, the artifact's
// path, Base64) are the report's own, so its rendering gives them back as
// printed; passthrough lost them while the rendering left them out.
func TestDecodePassthroughFuzzerInput(t *testing.T) {
	for _, name := range []string{
		filepath.Join(repoRoot, "testdata", "reports", "libfuzzer_heap_overflow.log"),                 // after ==PID==ABORTING
		filepath.Join(repoRoot, "testdata", "samples", "pastes", "made-libfuzzer-deadly-clang19.log"), // after SUMMARY: libFuzzer
		filepath.Join(repoRoot, "testdata", "samples", "pastes", "made-libfuzzer-cut-clang14.log"),    // headline cut off
	} {
		in := readFile(t, name)
		var want []string
		for _, l := range strings.Split(in, "\n") {
			if strings.HasPrefix(l, "MS: ") || (strings.HasPrefix(l, "0x") && strings.HasSuffix(l, ",")) || strings.HasPrefix(l, "artifact_prefix=") || strings.HasPrefix(l, "Base64: ") {
				want = append(want, l)
			}
		}
		if len(want) != 4 {
			t.Fatalf("%s: %d libFuzzer input lines, want 4 (the fixture changed?)", name, len(want))
		}
		for _, args := range [][]string{
			{"decode", "--passthrough", "--color=never", "--symbolize=false"},
			{"decode", "--color=never", "--symbolize=false"},
		} {
			out, errs, code := runCLI(t, in, args...)
			if code != exitFound {
				t.Fatalf("%s %v: exit %d; stderr:\n%s", filepath.Base(name), args, code, errs)
			}
			lines := strings.Split(out, "\n")
			pos := 0
			for _, w := range want {
				for pos < len(lines) && lines[pos] != w {
					pos++
				}
				if pos == len(lines) {
					t.Errorf("%s %v: line %q missing or out of order:\n%s", filepath.Base(name), args, w, out)
					break
				}
			}
		}
	}
}
