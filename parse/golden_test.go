package parse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden parses the committed sample logs of ../testdata/reports and
// compares the whole model with the reviewed dumps next to them.
func TestGolden(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join("..", "testdata", "reports", "*.log"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no sample logs: %v", err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			reps := parseFile(t, path)
			for _, r := range reps {
				r.Input.Name = filepath.Base(path)
			}
			got, err := json.MarshalIndent(reps, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(path, ".log") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("model of %s differs from %s; rerun with -update after checking the change", path, golden)
			}
		})
	}
}
