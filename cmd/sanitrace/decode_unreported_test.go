package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeUnreported: never silently clean, from the CLI. A public
// paste of Android Studio's logcat holding five tombstone frames and no
// header (testdata/samples/pastes) yields no report: decode says so on
// stderr in one line naming the input and its first crash-looking line,
// exits 1 (0 with --exit-zero), and batch lists the log in its errors.
// An ordinary log stays clean.
func TestDecodeUnreported(t *testing.T) {
	log := filepath.Join(repoRoot, "testdata", "samples", "pastes", "public-android-logcat-studio-frames-only.log")
	want := log + `:1: looks like a crash but no report could be read (first such line: "9082-9082  DEBUG`
	for _, format := range []string{"text", "json"} {
		out, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--format", format, log)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != exitFound || len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
			t.Errorf("decode --format %s: exit %d, stderr %q; want exit %d and one line starting %q", format, code, stderr, exitFound, want)
		}
		if format == "json" {
			if d := parseDecodeJSON(t, out); len(d.Reports) != 0 {
				t.Errorf("decode --format json: %d reports, want none", len(d.Reports))
			}
		}
	}
	if _, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--exit-zero", log); code != exitOK || !strings.Contains(stderr, "looks like a crash") {
		t.Errorf("decode --exit-zero: exit %d, stderr %q; want 0 and the line", code, stderr)
	}
	// Passthrough writes the log back and says the same, after naming the
	// frames it gave back as read (an unattached fragment).
	if out, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--passthrough", log); code != exitFound || !strings.Contains(stderr, "\n"+want) ||
		!strings.HasPrefix(stderr, log+":1-5: 5 stack frame lines outside any report, an unattached fragment left as read") || !strings.Contains(out, "#65 pc 00000000008ee3ac") {
		t.Errorf("decode --passthrough: exit %d, stderr %q", code, stderr)
	}

	clean := filepath.Join(t.TempDir(), "build.log")
	if err := os.WriteFile(clean, []byte("ERROR: cannot open config.yaml\n# 3 retries left\nok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "", "decode", clean); code != exitOK || stderr != "" {
		t.Errorf("decode of a clean log: exit %d, stderr %q", code, stderr)
	}

	dir := t.TempDir()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logcat.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	doc := runBatchJSON(t, exitOK, "batch", dir)
	if len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0].Error, `:1: looks like a crash but no report could be read (first such line: "9082-9082`) ||
		!strings.HasSuffix(doc.Errors[0].Source.Path, "logcat.txt") {
		t.Errorf("batch: errors %+v; want the log's one line", doc.Errors)
	}
}

// TestDecodeUnreportedPastes holds decode to the truth's
// crash_looking_no_report over every issue-25 paste: a paste with no report
// that looks like a crash is said on stderr and exits 1; one with reports
// exits 1 for them. No paste exits 0 (each holds crash output).
func TestDecodeUnreportedPastes(t *testing.T) {
	dir := filepath.Join(repoRoot, "testdata", "samples", "pastes")
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var truth struct {
		Samples []struct {
			File         string `json:"file"`
			ReportsCount int    `json:"reports_count"`
			NoReport     bool   `json:"crash_looking_no_report"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	for _, s := range truth.Samples {
		log := filepath.Join(dir, s.File)
		_, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "-q", log)
		said := strings.Contains(stderr, log+":") && strings.Contains(stderr, "looks like a crash but no report could be read")
		if code != exitFound || said != s.NoReport {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, said %v", s.File, code, stderr, exitFound, s.NoReport)
		}
	}
}
