package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// formatCases are the cases the format tests render: the corpus when it is
// there (every report shape), else the committed fixtures.
func formatCases(t *testing.T) []artifactCase {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repoRoot, "..", "shared", "corpus", "cases")); err == nil || os.Getenv("SANITRACE_SHARED") != "" {
		return corpusCases(t)
	}
	t.Log("../shared absent: rendering the committed fixtures only")
	return fixtureCases(t)
}

// hostileLog is a log whose report text tries markup, script and links.
const hostileLog = "src/evil.c:3:9: runtime error: signed integer overflow: <img src=x onerror=alert(1)> [click](https://evil.example/x) | `tick` **bold** <!-- c -->\n" +
	"    #0 0x4011d6 in evil_<b>fn</b> src/evil.c:3:9\n" +
	"    #1 0x401210 in main src/evil.c:9:3\n" +
	"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior src/evil.c:3:9 in\n"

// TestBatchSARIFValidates: the SARIF output passes Microsoft's SARIF
// multitool (SANITRACE_SARIF_MULTITOOL, or sarif-multitool on PATH; .ci/run
// installs it from npm), and holds one result per bucket as the contract says.
func TestBatchSARIFValidates(t *testing.T) {
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
		if r.RuleID != b.Kind || r.Message.Text != rep.Headline || r.PartialFingerprints["sanitraceBucket/v1"] != b.ID {
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

	tool := os.Getenv("SANITRACE_SARIF_MULTITOOL")
	if tool == "" {
		tool, _ = exec.LookPath("sarif-multitool")
	}
	if tool == "" {
		t.Skip("SARIF validator not installed (npm install @microsoft/sarif-multitool, then set SANITRACE_SARIF_MULTITOOL; .ci/run does)")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "batch.sarif")
	os.WriteFile(good, []byte(out), 0o644)
	if msgs := sarifErrors(t, tool, good); len(msgs) > 0 {
		t.Errorf("the SARIF multitool rejects the output:\n%s", strings.Join(msgs, "\n"))
	}
	// The validator can fail: a result without a message is refused.
	bad := filepath.Join(dir, "bad.sarif")
	os.WriteFile(bad, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r"}]}]}`), 0o644)
	if msgs := sarifErrors(t, tool, bad); len(msgs) == 0 {
		t.Errorf("the SARIF multitool accepts a result without a message: the check proves nothing")
	}
}

// sarifErrors runs "sarif-multitool validate" and returns its error lines
// (it exits 0 whatever it finds).
func sarifErrors(t *testing.T, tool, file string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, "validate", file)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	out, err := cmd.CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("Done.")) {
		t.Fatalf("%s validate: %v\n%s", tool, err, out)
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
	for _, bad := range []string{"evil.example", "<img", "<b>", "**bold**", "<!--", "UNESCAPED"} {
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
	for _, re := range []string{`(?i)\b(src|href|action|poster|data|srcset|formaction)\s*=`, `(?i)url\(`, `(?i)@import`, `(?i)<(link|iframe|img|object|embed|base|frame|audio|video|source)\b`, `(?i)\b(https?|ftp|wss?):`} {
		if m := regexp.MustCompile(re).FindString(tags); m != "" {
			t.Errorf("a tag of the page holds %q (%s): not self-contained or not escaped", m, re)
		}
	}
	if !strings.Contains(out, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the hostile headline is not in the page, escaped")
	}
	// Without the hostile log, the page holds no URL at all.
	clean, _, _ := runCLI(t, "", "batch", "--format", "html", tr.zip)
	if m := regexp.MustCompile(`(?i)[a-z]+://|\bhttps?:`).FindString(clean); m != "" {
		t.Errorf("the page holds a URL: %q", m)
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
