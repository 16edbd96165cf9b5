package lwsheap

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
)

var update = flag.Bool("update", false, "rewrite golden files")

// heapmapOf aggregates a log the way `sanitrace lws heapmap` does.
func heapmapOf(t *testing.T, path string) *Map {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := New()
	sc := decompress.NewScanner(f)
	for sc.Scan() {
		rec := sc.Record()
		err := rec.Err
		if err == nil {
			err = m.Add(filepath.Base(path), rec.Line, rec.Backtrace)
		}
		if err != nil {
			m.AddUndecodable(filepath.Base(path), rec.Line, rec.Text, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGolden renders the committed sample dump as text and JSON; the
// golden files are checked by eye once and then guard the layout. The JSON
// golden must also equal the reference heapmap-expected.json.
func TestGolden(t *testing.T) {
	sample := filepath.Join("..", "testdata", "lws", "heapmap-sample.log")
	m := heapmapOf(t, sample)
	r := m.Report("heapmap-sample.log", false, nil)
	var text bytes.Buffer
	if err := WriteText(&text, r, m.UndecodableCount()); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "heapmap-sample.txt"), text.Bytes())

	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "testdata", "lws", "heapmap-expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(js), bytes.TrimSpace(want)) {
		t.Errorf("JSON differs from heapmap-expected.json:\n%s", js)
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update after checking):\n%s", path, got)
	}
}
