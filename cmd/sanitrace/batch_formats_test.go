package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// formatCases are the cases the format tests render: the corpus when it is
// there (every report shape), else the committed fixtures.
func formatCases(t *testing.T) []artifactCase {
	t.Helper()
	if _, err := sharedtest.Find("corpus", "cases"); err == nil {
		return corpusCases(t)
	}
	t.Log("../shared absent: rendering the committed fixtures only")
	return fixtureCases(t)
}

// hostileLog is a log whose report text tries markup, script and links.
const hostileLog = "src/evil.c:3:9: runtime error: signed integer overflow: <img src=x onerror=alert(1)> [click](https://evil.example/x) | `tick` **bold** <!-- c --> " +
	"<script>alert(2)</script> [js](javascript:alert(3)) <https://evil.example/auto> ![i](https://evil.example/i.png) www.evil.example/bare javascript:alert(4)\n" +
	"    #0 0x4011d6 in evil_<b>fn</b></script><script>alert(5)</script> src/evil.c:3:9\n" +
	"    #1 0x4011f0 in [hook](javascript:alert(6)) src/<a href=\"javascript:alert(7)\">x</a>.c:5:1\n" +
	"    #2 0x401210 in main src/evil.c:9:3\n" +
	"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior src/evil.c:3:9 in\n"

// TestBatchSARIFValidates: the SARIF output passes Microsoft's SARIF
// multitool (SANITRACE_SARIF_MULTITOOL, or sarif-multitool on PATH; .ci/run
// installs it from npm), and holds one result per bucket as the contract says.
func TestBatchSARIFValidates(t *testing.T) {
	t.Parallel() // long and self-contained
	tr := buildArtifactTree(t, formatCases(t))
	evil := filepath.Join(t.TempDir(), "evil.log")
	os.WriteFile(evil, []byte(hostileLog), 0o644)
	out, stderr, code := runCLI(t, "", "batch", "--format", "sarif", "--source-root", "/build/ci", tr.tgz, evil)
	if code != 1 {
		t.Fatalf("batch --format sarif: exit %d: %s", code, stderr)
	}
	doc := runBatchJSON(t, 1, "batch", tr.tgz, evil)

	var s struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID              string `json:"ruleId"`
				Message             struct{ Text string }
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				Stacks    []struct{ Frames []json.RawMessage }
				CodeFlows []struct{ ThreadFlows []json.RawMessage }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Version != "2.1.0" || len(s.Runs) != 1 || len(s.Runs[0].Results) != len(doc.Buckets) {
		t.Fatalf("version %q, %d runs, results vs %d buckets", s.Version, len(s.Runs), len(doc.Buckets))
	}
	relative := 0
	for i, r := range s.Runs[0].Results {
		b := doc.Buckets[i]
		rep := doc.Reports[b.Reports[0]]
		// The headline, its "\\", "[" and "]" escaped (SARIF's embedded links).
		headline := strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(rep.Headline)
		if r.RuleID != b.Kind || r.Message.Text != headline || r.PartialFingerprints["sanitraceBucket/v1"] != b.ID {
			t.Errorf("result %d: rule %q message %q fingerprints %v; bucket %s %q", i, r.RuleID, r.Message.Text, r.PartialFingerprints, b.ID, b.Kind)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("result %d: locations %+v", i, r.Locations)
		} else if u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; !strings.Contains(u, ":") {
			relative++
		}
		frames := 0
		for _, st := range rep.Stacks {
			frames += len(st.Frames)
		}
		got := 0
		for _, st := range r.Stacks {
			got += len(st.Frames)
		}
		if frames > 0 && (got == 0 || len(r.CodeFlows) != 1) {
			t.Errorf("result %d: %d stack frames and %d code flows for a report of %d frames", i, got, len(r.CodeFlows), frames)
		}
	}
	if relative == 0 {
		t.Errorf("no location was made relative to --source-root")
	}
	// No message holds an embedded link ("[text](target)", which code
	// scanning renders): the hostile log's brackets are escaped.
	var tree any
	json.Unmarshal([]byte(out), &tree)
	link := regexp.MustCompile(`(^|[^\\])\[[^\]]*[^\\]\]\(`)
	escaped := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && (k == "text" || k == "markdown") {
					if link.MatchString(s) {
						t.Errorf("a SARIF message holds an embedded link: %q", s)
					}
					if strings.Contains(s, `\[click\](https://evil.example/x)`) {
						escaped++
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(tree)
	if escaped == 0 {
		t.Errorf("the hostile headline's link is not in the SARIF messages, escaped")
	}

	tool, ghRules := sarifMultitool()
	if tool == "" {
		t.Skip("SARIF validator not installed (npm install @microsoft/sarif-multitool, then set SANITRACE_SARIF_MULTITOOL; .ci/run does)")
	}
	t.Logf("validating with %s (GitHub rules: %v)", tool, ghRules)
	dir := t.TempDir()
	good := filepath.Join(dir, "batch.sarif")
	os.WriteFile(good, []byte(out), 0o644)
	if msgs := sarifErrors(t, tool, ghRules, good); len(msgs) > 0 {
		t.Errorf("the SARIF multitool rejects the output:\n%s", strings.Join(msgs, "\n"))
	}
	// The validator can fail: a result without a message is refused, and
	// with GitHub's rules, a rule without help.
	bad := filepath.Join(dir, "bad.sarif")
	os.WriteFile(bad, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r"}]}]}`), 0o644)
	if msgs := sarifErrors(t, tool, ghRules, bad); len(msgs) == 0 {
		t.Errorf("the SARIF multitool accepts a result without a message: the check proves nothing")
	}
	if ghRules {
		noHelp := filepath.Join(dir, "nohelp.sarif")
		os.WriteFile(noHelp, []byte(regexp.MustCompile(`(?s),\s*"help": \{[^}]*\}`).ReplaceAllString(out, "")), 0o644)
		if msgs := sarifErrors(t, tool, ghRules, noHelp); len(msgs) == 0 {
			t.Errorf("the SARIF multitool's GitHub rules accept rules without help: the check proves nothing")
		}
	}
}

// sarifMultitool finds Microsoft's SARIF multitool: $SANITRACE_SARIF_MULTITOOL,
// sarif-multitool on PATH, or where .ci/run installs it. npm's launcher
// (bin.js) hands its arguments to a shell, which would split the ";" of
// "--rule-kind Gh;Sarif"; the program beside it is used instead when it is
// there, and GitHub's ingestion rules are checked only then.
func sarifMultitool() (tool string, ghRules bool) {
	tool = os.Getenv("SANITRACE_SARIF_MULTITOOL")
	if tool == "" {
		tool, _ = exec.LookPath("sarif-multitool")
	}
	if tool == "" {
		dir := os.Getenv("SARIF_MULTITOOL_DIR")
		if dir == "" {
			if cache, err := os.UserCacheDir(); err == nil {
				dir = filepath.Join(cache, "sanitrace-ci", "sarif-multitool")
			}
		}
		if p := filepath.Join(dir, "node_modules", ".bin", "sarif-multitool"); dir != "" && isExecutable(p) {
			tool = p
		}
	}
	if tool == "" {
		return "", false
	}
	if js, err := filepath.EvalSymlinks(tool); err == nil && strings.HasSuffix(js, ".js") {
		native := filepath.Join(filepath.Dir(filepath.Dir(js)), "sarif-multitool-"+runtime.GOOS, "Sarif.Multitool")
		if isExecutable(native) {
			return native, true
		}
		return tool, false
	}
	return tool, true
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// sarifErrors runs "sarif-multitool validate" (with GitHub code scanning's
// ingestion rules too when ghRules) and returns its error lines (it exits 0
// whatever it finds).
func sarifErrors(t *testing.T, tool string, ghRules bool, file string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{"validate"}
	if ghRules {
		args = append(args, "--rule-kind", "Gh;Sarif")
	}
	cmd := exec.CommandContext(ctx, tool, append(args, file)...)
	// The multitool is a .NET program: no telemetry, and no ICU needed.
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	out, err := cmd.CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("Done.")) {
		t.Fatalf("%s validate: %v\n%s", tool, err, out)
	}
	if !bytes.Contains(out, []byte("1 files scanned")) {
		t.Fatalf("%s validate did not scan %s:\n%s", tool, file, out)
	}
	var msgs []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ": error ") {
			msgs = append(msgs, line)
		}
	}
	return msgs
}

// TestBatchMarkdownEscapes: log text reaches the step summary only inside
// code spans and code blocks, so it cannot add markup, HTML or links.
func TestBatchMarkdownEscapes(t *testing.T) {
	evil := filepath.Join(t.TempDir(), "evil.log")
	os.WriteFile(evil, []byte(hostileLog), 0o644)
	out, stderr, code := runCLI(t, "", "batch", "--format", "markdown", evil)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "evil.example") || !strings.Contains(out, "<img") {
		t.Fatalf("the hostile text is not in the summary at all:\n%s", out)
	}
	// Outside fenced blocks and code spans nothing of the log may remain.
	text := regexp.MustCompile("(?s)\n(~{3,})text\n.*?\n~{3,}\n").ReplaceAllString(out, "\n")
	text = regexp.MustCompile("<summary>.*</summary>").ReplaceAllStringFunc(text, func(s string) string {
		if strings.Contains(s, "<img") {
			return "UNESCAPED"
		}
		return ""
	})
	spans := regexp.MustCompile("(`+)[^`].*?`+")
	text = spans.ReplaceAllString(text, "")
	for _, bad := range []string{"evil.example", "<img", "<b>", "**bold**", "<!--", "<script", "javascript:", "](", "<a ", "UNESCAPED"} {
		if strings.Contains(text, bad) {
			t.Errorf("%q outside code in the Markdown summary:\n%s", bad, out)
		}
	}
	// A table row keeps its columns: the log's "|" is escaped.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 7 {
			t.Errorf("table row with a broken column count: %s", line)
		}
	}
}

// TestBatchHTMLPage: the page is self-contained (no URL it could fetch),
// log text in it is escaped, and headless Chromium renders every bucket
// with no script error.
func TestBatchHTMLPage(t *testing.T) {
	t.Parallel() // long and self-contained
	tr := buildArtifactTree(t, formatCases(t))
	evil := filepath.Join(t.TempDir(), "evil.log")
	os.WriteFile(evil, []byte(hostileLog), 0o644)
	out, stderr, code := runCLI(t, "", "batch", "--format", "html", tr.zip, evil)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := runBatchJSON(t, 1, "batch", tr.zip, evil)
	// In the tags no attribute may name a resource, and no tag may load one.
	tags := strings.Join(regexp.MustCompile(`<[^>]*>`).FindAllString(out, -1), "\n")
	for _, re := range []string{`(?i)\b(src|href|action|poster|data|srcset|formaction)\s*=`, `(?i)url\(`, `(?i)@import`, `(?i)<(link|iframe|img|object|embed|base|frame|audio|video|source)\b`, `(?i)\b(https?|ftp|wss?):`, `(?i)javascript:`, `(?i)\son[a-z]+\s*=`} {
		if m := regexp.MustCompile(re).FindString(tags); m != "" {
			t.Errorf("a tag of the page holds %q (%s): not self-contained or not escaped", m, re)
		}
	}
	for _, esc := range []string{"&lt;img src=x onerror=alert(1)&gt;", "&lt;script&gt;alert(2)&lt;/script&gt;", "&lt;/script&gt;&lt;script&gt;alert(5)", "&lt;a href=&#34;javascript:alert(7)&#34;&gt;"} {
		if !strings.Contains(out, esc) {
			t.Errorf("the hostile log's %q is not in the page, escaped", esc)
		}
	}
	// Without the hostile log, the page holds no URL at all; with it, no
	// more script elements than the page's own.
	clean, _, _ := runCLI(t, "", "batch", "--format", "html", tr.zip)
	if m := regexp.MustCompile(`(?i)[a-z]+://|\bhttps?:`).FindString(clean); m != "" {
		t.Errorf("the page holds a URL: %q", m)
	}
	ownScripts := strings.Count(clean, "<script")
	if n := strings.Count(out, "<script"); n != ownScripts {
		t.Errorf("%d <script in the page with the hostile log, %d without", n, ownScripts)
	}

	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		if chromium, err = exec.LookPath("chromium"); err != nil {
			t.Skip("chromium not installed (.ci/run installs it): the page is not rendered")
		}
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "batch.html")
	os.WriteFile(page, []byte(out), 0o644)
	dom, consoleErrs := renderInChromium(t, chromium, page)
	if got := regexp.MustCompile(`data-ready="(\d+)"`).FindStringSubmatch(dom); got == nil || got[1] != strconv.Itoa(len(doc.Buckets)) {
		t.Errorf("data-ready %v, want %d: the page's script did not run over every bucket", got, len(doc.Buckets))
	}
	for _, b := range doc.Buckets {
		if !strings.Contains(dom, `id="bucket-`+b.ID+`"`) {
			t.Errorf("bucket %s not in the rendered page", b.ID)
		}
	}
	if n := strings.Count(dom, `<section class="bucket`); n != len(doc.Buckets) {
		t.Errorf("%d bucket sections rendered, want %d", n, len(doc.Buckets))
	}
	if !strings.Contains(dom, `<pre id="js-errors" hidden=""></pre>`) || len(consoleErrs) > 0 {
		t.Errorf("script errors: %q", consoleErrs)
	}
	// The browser's own parse: the log text made no element.
	if n := strings.Count(dom, "<script"); n != ownScripts {
		t.Errorf("the rendered page has %d script elements, the page's own are %d", n, ownScripts)
	}
	for _, el := range []string{"<a ", "<a>", "<img", "<b>", "<iframe"} {
		if strings.Contains(dom, el) {
			t.Errorf("the rendered page holds an element %q made from log text", el)
		}
	}

	// The checks can fail: a page whose script throws is caught.
	broken := filepath.Join(dir, "broken.html")
	os.WriteFile(broken, []byte(strings.Replace(out, "</body>", "<script>undefinedFunction();</script></body>", 1)), 0o644)
	dom, consoleErrs = renderInChromium(t, chromium, broken)
	if strings.Contains(dom, `<pre id="js-errors" hidden=""></pre>`) && len(consoleErrs) == 0 {
		t.Errorf("a throwing script went unnoticed")
	}
}

// renderInChromium loads page in headless Chromium and returns the DOM after
// the scripts ran, and the console errors Chromium logged.
func renderInChromium(t *testing.T, chromium, page string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	var errs []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "CONSOLE") && (strings.Contains(line, "Uncaught") || strings.Contains(line, "Error")) {
			errs = append(errs, line)
		}
	}
	return stdout.String(), errs
}

// TestBatchTextControlCharacters: archive member names reach the text
// summary and stderr without their control characters (escape sequences
// would drive the terminal of whoever reads a CI log), spelled \xHH.
func TestBatchTextControlCharacters(t *testing.T) {
	report, err := os.ReadFile(filepath.Join(fixtureCases(t)[0].dir, "symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	name := "run\x1b[31m\x1b]0;pwned\x07\u009b2J.log"
	w, _ := zw.Create(name)
	w.Write(report)
	w.Write([]byte("~m#\n")) // a record error: a warning naming the member
	zw.Close()
	in := filepath.Join(t.TempDir(), "ci.zip")
	os.WriteFile(in, zb.Bytes(), 0o644)
	out, stderr, code := runCLI(t, "", "batch", "--format", "text", in)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `run\x1b[31m\x1b]0;pwned\x07\x9b2J.log`) {
		t.Errorf("the member name is not in the summary, spelled out:\n%s", out)
	}
	if !strings.Contains(stderr, `run\x1b[31m`) {
		t.Errorf("no warning naming the member: %q", stderr)
	}
	for what, s := range map[string]string{"stdout": out, "stderr": stderr} {
		for _, r := range s {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Errorf("%s holds the control character %U", what, r)
				break
			}
		}
	}
}

// scaleLogs are eleven real logs of eleven bugs, from every producer the
// page lays out its own way, and how many copies of each TestBatchHTMLScale
// makes: 1,600 reports in all.
var scaleLogs = []struct {
	log    string
	copies int
}{
	{"asan_use_after_free_gcc_O0.symbolized.log", 500}, {"asan_stack_overflow_gcc_O2.symbolized.log", 300},
	{"asan_container_overflow_clang_O2_dw4.symbolized.log", 200}, {"go_nil_deref.log", 150}, {"rust_panic.log", 120},
	{"kernel_kasan_uaf.log", 100}, {"gdb_bt.log", 80}, {"glibc_backtrace_symbols.log", 60},
	{"tsan_signal_unsafe_clang_O2_dw4.symbolized.log", 40}, {"msan_heap_origin_clang_O0_nopie_dw4.symbolized.log", 30},
	{"libfuzzer_timeout.log", 20},
}

// TestBatchHTMLScale: 1,600 reports of 11 bugs make a page under 1.5 MB
// that leads with the overview (chart, then the table sorted by count),
// names the first 10 logs of a bucket and counts the others, lays out
// each producer's frames its own way, and renders in Chromium without a
// script error.
func TestBatchHTMLScale(t *testing.T) {
	t.Parallel() // long and self-contained
	root := filepath.Join(t.TempDir(), "ci")
	total := 0
	for _, l := range scaleLogs {
		text, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "reports", l.log))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, strings.TrimSuffix(l.log, ".log"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < l.copies; i++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("run-%04d.log", i)), text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		total += l.copies
	}
	out, stderr, code := runCLI(t, "", "batch", "--symbolize=false", "--format", "html", root)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if total != 1600 || len(out) >= 1_500_000 {
		t.Errorf("%d reports: a page of %d bytes, want under 1.5 MB", total, len(out))
	}
	chart, table, first := strings.Index(out, `<svg class="chart"`), strings.Index(out, `<table class="overview"`), strings.Index(out, `<section class="bucket`)
	if chart < 0 || table < chart || first < table {
		t.Errorf("chart at %d, table at %d, first bucket at %d: the overview does not lead", chart, table, first)
	}
	counts := regexp.MustCompile(`<tr class="row[^"]*"[^>]*><td class="num">(\d+)</td>`).FindAllStringSubmatch(out, -1)
	var got []string
	for _, m := range counts {
		got = append(got, m[1])
	}
	if want := "500 300 200 150 120 100 80 60 40 30 20"; strings.Join(got, " ") != want {
		t.Errorf("table counts %q, want %q", strings.Join(got, " "), want)
	}
	if n := strings.Count(out, `<g class="bar`); n != 11 {
		t.Errorf("%d bars, want 11", n)
	}
	if !strings.Contains(out, "and 490 more: the JSON output lists them all.") || strings.Count(out, "run-0009.log</code> lines") != 11 || strings.Contains(out, "run-0010.log</code> lines") {
		t.Errorf("a bucket's logs are not its first 10 and a count: %d, %v", strings.Count(out, "run-0009.log</code> lines"), strings.Contains(out, "run-0010.log</code> lines"))
	}
	// Each producer's layout: Go's file line under the function, Rust's
	// "at" line, the kernel's func+off/size [module], gdb's "#N  0x... in".
	for _, want := range []string{
		"main.walk(...)\n\t/build/sanitrace/src/stacks/gopanic/main.go:15",
		"   3: main::pick\n             at /build/sanitrace/src/stacks/rustpanic/main.rs:4:5",
		" ring_pop+0x7e/0x130 [ringbuf]",
		"#1  0x",
	} {
		if !strings.Contains(html.UnescapeString(out), want) {
			t.Errorf("no %q in the page", want)
		}
	}

	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		if chromium, err = exec.LookPath("chromium"); err != nil {
			t.Skip("chromium not installed (.ci/run installs it): the page is not rendered")
		}
	}
	page := filepath.Join(t.TempDir(), "batch.html")
	os.WriteFile(page, []byte(out), 0o644)
	dom, consoleErrs := renderInChromium(t, chromium, page)
	if !strings.Contains(dom, `data-ready="11"`) || !strings.Contains(dom, `<pre id="js-errors" hidden=""></pre>`) || len(consoleErrs) > 0 {
		t.Errorf("the page's script did not run cleanly: %q", consoleErrs)
	}
}

// TestBatchProducerLayouts: Markdown and SARIF show kernel, Go, Rust, gdb
// and glibc frames in their producers' layouts, and each SARIF result
// carries the hash of its bucket's signature as a partial fingerprint;
// the SARIF still passes the multitool.
func TestBatchProducerLayouts(t *testing.T) {
	var logs []string
	for _, l := range []string{"kernel_kasan_uaf.log", "go_nil_deref.log", "rust_panic.log", "gdb_bt.log", "glibc_backtrace_symbols.log"} {
		logs = append(logs, filepath.Join(repoRoot, "testdata", "reports", l))
	}
	layouts := []string{
		" ring_pop+0x7e/0x130 [ringbuf]",
		"main.walk(...)\n    \t/build/sanitrace/src/stacks/gopanic/main.go:15",
		"   3: main::pick\n                 at /build/sanitrace/src/stacks/rustpanic/main.rs:4:5",
		"#1  0x0000555555555161 in measure () at g.c:3",
		"(+0x",
	}
	md, stderr, code := runCLI(t, "", append([]string{"batch", "--symbolize=false", "--format", "markdown"}, logs...)...)
	if code != 1 {
		t.Fatalf("markdown: exit %d: %s", code, stderr)
	}
	for _, want := range layouts {
		if !strings.Contains(md, want) {
			t.Errorf("markdown: no %q in\n%s", want, md)
		}
	}

	out, stderr, code := runCLI(t, "", append([]string{"batch", "--symbolize=false", "--format", "sarif"}, logs...)...)
	if code != 1 {
		t.Fatalf("sarif: exit %d: %s", code, stderr)
	}
	doc := runBatchJSON(t, 1, append([]string{"batch", "--symbolize=false"}, logs...)...)
	var s struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Stacks              []struct {
					Frames []struct {
						Location struct{ Message struct{ Text string } }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	var messages []string
	for i, r := range s.Runs[0].Results {
		sum := sha256.Sum256([]byte(doc.Buckets[i].Signature))
		if got := r.PartialFingerprints["sanitraceSignature/v1"]; got != hex.EncodeToString(sum[:]) {
			t.Errorf("result %d: signature fingerprint %q", i, got)
		}
		for _, st := range r.Stacks {
			for _, f := range st.Frames {
				messages = append(messages, f.Location.Message.Text)
			}
		}
	}
	all := strings.Join(messages, "\n")
	for _, want := range []string{"ring_pop+0x7e/0x130 \\[ringbuf\\]", "main.walk(...)\n\t/build/sanitrace/src/stacks/gopanic/main.go:15", "3: main::pick\n             at ", "#1  0x"} {
		if !strings.Contains(all, want) {
			t.Errorf("sarif frame messages: no %q", want)
		}
	}
	tool, gh := sarifMultitool()
	if tool == "" {
		t.Skip("sarif-multitool not installed (.ci/run installs it): the SARIF is not validated")
	}
	file := filepath.Join(t.TempDir(), "producers.sarif")
	os.WriteFile(file, []byte(out), 0o644)
	if errs := sarifErrors(t, tool, gh, file); len(errs) > 0 {
		t.Errorf("multitool: %q", errs)
	}
}

// TestBatchHTMLSourceLines: the representative report's in-app frames show
// their source lines when the sources are found (--prefix-map), the
// frame's own line marked; without the sources, no lines.
func TestBatchHTMLSourceLines(t *testing.T) {
	log := filepath.Join(repoRoot, "testdata", "batch", "uaf_gcc_O0", "symbolized.log")
	src, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "batch", "src"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", "batch", "--symbolize=false", "--format", "html", "--prefix-map", "src="+src, log)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line, err := os.ReadFile(filepath.Join(src, "uaf.c"))
	if err != nil {
		t.Fatal(err)
	}
	want := `<tr class="cur"><td class="no">8</td><td>` + html.EscapeString(strings.Split(string(line), "\n")[7]) + `</td></tr>`
	if !strings.Contains(out, want) {
		t.Errorf("no %q in the page", want)
	}
	out, _, _ = runCLI(t, "", "batch", "--symbolize=false", "--format", "html", log)
	if strings.Contains(out, `<table class="src">`) {
		t.Errorf("source lines without the sources")
	}
}
