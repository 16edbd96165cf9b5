package parse

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestGolden parses the committed sample logs of ../testdata/reports and
// compares the whole model (dumpModel) with the reviewed dumps in
// testdata/golden/parse.
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
			got, err := dumpModel(reps)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden.Check(t, filepath.Join(golden.Dir("parse"), strings.TrimSuffix(filepath.Base(path), ".log")+".json"), got)
		})
	}
}
