package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/decompress/lwsheap"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/wire"
)

// heapmapOf aggregates a log the way `sanitrace lws heapmap` does.
func heapmapOf(t *testing.T, path string) *lwsheap.Map {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := lwsheap.New()
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

// TestHeapMapGolden renders the committed sample dump as text and JSON; the
// text golden was checked by eye once and then guards the layout. The JSON
// must equal the reference heapmap-expected.json.
func TestHeapMapGolden(t *testing.T) {
	sample := filepath.Join("..", "testdata", "lws", "heapmap-sample.log")
	m := heapmapOf(t, sample)
	opts := HeapMapOptions{Source: "heapmap-sample.log"}
	var text bytes.Buffer
	if err := WriteHeapMapText(&text, m, opts); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(goldenDir, "heapmap-sample.txt"), text.Bytes())

	js, err := json.MarshalIndent(wire.HeapMapOf(m, opts.Source, opts.Multi, opts.Frames), "", "  ")
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
