package parse

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRustBacktraceForms: the panics of testdata/rustv0, printed by
// rustc 1.95's std with RUST_BACKTRACE=1 and =full (v0 and legacy names),
// are one report each whose stack holds every numbered frame line, in
// order, generic names with ", " inside their brackets included
// ("…::__rust_end_short_backtrace::<…::{closure#0}, !>", issue 24).
func TestRustBacktraceForms(t *testing.T) {
	logs, _ := filepath.Glob("../testdata/rustv0/*-backtrace-*.log")
	if len(logs) < 7 {
		t.Fatalf("want the 7 panic logs of testdata/rustv0, found %d", len(logs))
	}
	frameLine := regexp.MustCompile(`^\s+(\d+): +(?:0x[0-9a-f]+ - )?(.*)$`)
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(string(data), "\n") {
				if m := frameLine.FindStringSubmatch(line); m != nil {
					fn := m[2]
					if fn == "<unknown>" {
						fn = ""
					}
					want = append(want, fn)
				}
			}
			sc := NewScanner(strings.NewReader(string(data)), path)
			r, err := sc.Next()
			if err != nil || r == nil {
				t.Fatalf("no report: %v", err)
			}
			if r.Tool != "Rust" || len(r.Stacks) != 1 {
				t.Fatalf("tool %q with %d stacks, want one Rust stack", r.Tool, len(r.Stacks))
			}
			frames := r.Stacks[0].Frames
			if len(frames) != len(want) {
				t.Fatalf("%d frames, want %d", len(frames), len(want))
			}
			for i, f := range frames {
				if f.Function != want[i] {
					t.Errorf("frame %d: %q, want %q", i, f.Function, want[i])
				}
			}
			if more, _ := sc.Next(); more != nil {
				t.Errorf("a second report: %q", more.Headline)
			}
		})
	}
}
