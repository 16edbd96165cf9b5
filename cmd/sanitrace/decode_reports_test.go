package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestDecodeReportsGolden: every sample log of testdata/reports (every
// shape of sanitizer, kernel, Go, gdb, glibc, libFuzzer, Rust, Chromium and
// boost::stacktrace output) through `decode --symbolize=false --format
// json`, as a user gets it, against its golden JSON
// (testdata/golden/decode/reports/; -update rewrites them, to be checked by
// eye). The parse package's goldens hold the model; these hold the
// document of docs/json.md, tool names and kernel, fuzzer and frame fields
// included.
func TestDecodeReportsGolden(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "reports", "*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no sample logs: %v", err)
	}
	dir := filepath.Join(golden.Dir("decode"), "reports")
	if golden.Updating() {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, log := range logs {
		name := strings.TrimSuffix(filepath.Base(log), ".log")
		t.Run(name, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--format", "json", "--color=never", log)
			if code != exitFound {
				t.Fatalf("exit %d, want %d (reports found); stderr:\n%s", code, exitFound, stderr)
			}
			doc := parseDecodeJSON(t, out)
			if len(doc.Reports) == 0 {
				t.Fatal("no reports")
			}
			// The input's name is the path given: make it the same anywhere.
			out = strings.ReplaceAll(out, log, filepath.Base(log))
			golden.Check(t, filepath.Join(dir, name+".json"), out)
		})
	}
}

// TestDecodeReportsTextGolden: every sample log of testdata/reports through
// `decode --symbolize=false`, the text a person reads, against its golden
// (testdata/golden/decode/reports/*.txt, checked by eye against the log when
// recorded): sanitizer reports in the sanitizer layout, the kernel's, Go's,
// gdb's, glibc's, Chromium's, Rust's and boost's frames as their producer
// printed them (docs/guide.md, "Each producer's look").
func TestDecodeReportsTextGolden(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "reports", "*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no sample logs: %v", err)
	}
	dir := filepath.Join(golden.Dir("decode"), "reports")
	for _, log := range logs {
		name := strings.TrimSuffix(filepath.Base(log), ".log")
		t.Run(name, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", log)
			if code != exitFound {
				t.Fatalf("exit %d, want %d (reports found); stderr:\n%s", code, exitFound, stderr)
			}
			out = strings.ReplaceAll(out, log, filepath.Base(log))
			golden.Check(t, filepath.Join(dir, name+".txt"), out)
		})
	}
}
