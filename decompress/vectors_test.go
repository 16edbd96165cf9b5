package decompress

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The vector files are JSON lines, as in ../shared/lws (FORMAT.md §12); a
// subset is committed in testdata/lws so that these tests always run.

type vector struct {
	M           string   `json:"m"`
	B           string   `json:"b"`
	Size        uint64   `json:"size"`
	PCs         []string `json:"pcs"`
	Hex         string   `json:"hex"`
	CanonicalM  string   `json:"canonical_m"`
	Error       string   `json:"error"`
	Detail      string   `json:"detail"`
	Note        string   `json:"note"`
	lineNo      int
	backtracePC []uint64
}

func readVectors(t *testing.T, path string) []vector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open vectors: %v", err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		v.lineNo = n
		for _, s := range v.PCs {
			pc, err := strconv.ParseUint(s, 0, 64)
			if err != nil {
				t.Fatalf("%s:%d: pc %q: %v", path, n, s, err)
			}
			v.backtracePC = append(v.backtracePC, pc)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", path)
	}
	return vs
}

// vectorDirs are the committed subset (always) and the shared full set
// (when present).
func vectorDirs(t *testing.T) map[string]string {
	dirs := map[string]string{"committed": filepath.Join("..", "testdata", "lws")}
	t.Run("shared", func(t *testing.T) { dirs["shared"] = sharedLWS(t) })
	if dirs["shared"] == "" {
		delete(dirs, "shared")
	}
	return dirs
}

func TestVectors(t *testing.T) {
	for name, dir := range vectorDirs(t) {
		t.Run(name, func(t *testing.T) {
			vs := readVectors(t, filepath.Join(dir, "vectors.jsonl"))
			t.Logf("%d vectors", len(vs))
			var d Decoder
			for _, v := range vs {
				bt, err := d.DecodeLine([]byte(v.M))
				if err != nil {
					t.Errorf("row %d: decode %s: %v", v.lineNo, v.M, err)
					continue
				}
				if got := string(AppendB(nil, bt)); got != v.B {
					t.Errorf("row %d: decode %s\n got %s\nwant %s", v.lineNo, v.M, got, v.B)
				}
				want := Backtrace{Size: v.Size, PCs: v.backtracePC}
				if !bt.Equal(want) {
					t.Errorf("row %d: decoded %+v, want %+v", v.lineNo, bt, want)
				}
				m, err := EncodeLine(want)
				if err != nil || m != v.M {
					t.Errorf("row %d: encode (%s)\n got %s (err %v)\nwant %s", v.lineNo, v.Note, m, err, v.M)
				}
			}
		})
	}
}

func TestNoncanonical(t *testing.T) {
	for name, dir := range vectorDirs(t) {
		t.Run(name, func(t *testing.T) {
			vs := readVectors(t, filepath.Join(dir, "noncanonical.jsonl"))
			t.Logf("%d vectors", len(vs))
			for _, v := range vs {
				bt, err := DecodeLine([]byte(v.M))
				if err != nil {
					t.Errorf("row %d (%s): decode %q: %v", v.lineNo, v.Note, v.M, err)
					continue
				}
				if got := string(AppendB(nil, bt)); got != v.B {
					t.Errorf("row %d (%s): decode %q\n got %s\nwant %s", v.lineNo, v.Note, v.M, got, v.B)
				}
				m, err := EncodeLine(bt)
				if err != nil || m != v.CanonicalM {
					t.Errorf("row %d: re-encode\n got %s (err %v)\nwant %s", v.lineNo, m, err, v.CanonicalM)
				}
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	for name, dir := range vectorDirs(t) {
		t.Run(name, func(t *testing.T) {
			vs := readVectors(t, filepath.Join(dir, "invalid.jsonl"))
			t.Logf("%d vectors", len(vs))
			var d Decoder
			for _, v := range vs {
				_, err := d.DecodeLine([]byte(v.M))
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("row %d (%s): decode %q: got %v, want a *Error %s", v.lineNo, v.Note, v.M, err, v.Error)
					continue
				}
				if string(e.Code) != v.Error || !errors.Is(err, Code(v.Error)) {
					t.Errorf("row %d (%s): decode %q: got %v, want class %s (%s)", v.lineNo, v.Note, v.M, err, v.Error, v.Detail)
				}
				if e.Detail != v.Detail { // informative only (FORMAT.md §12)
					t.Logf("row %d: detail %q, reference says %q", v.lineNo, e.Detail, v.Detail)
				}
			}
		})
	}
}
