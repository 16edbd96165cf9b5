package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/wire"
)

// artifactCase is one build of a program with its two logs: a directory
// holding the binary (and libraries), unsymbolized.log and symbolized.log.
type artifactCase struct {
	name    string // the case directory's name
	program string // the program the case built (its bug)
	dir     string // where the case lies
}

// corpusCases lists every case of ../shared/corpus/cases, or skips.
func corpusCases(t *testing.T) []artifactCase {
	t.Helper()
	root := sharedtest.Dir(t, "corpus", "cases")
	return listCases(t, root)
}

// fixtureCases lists the committed cases of testdata/batch (built by its
// Makefile), which stand in for the corpus where ../shared is absent.
func fixtureCases(t *testing.T) []artifactCase {
	t.Helper()
	return listCases(t, filepath.Join(repoRoot, "testdata", "batch"))
}

var compilerRE = regexp.MustCompile(`_(gcc|clang)_.*$`)

func listCases(t *testing.T, root string) []artifactCase {
	t.Helper()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []artifactCase
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "symbolized.log")); err != nil {
			continue
		}
		out = append(out, artifactCase{name: e.Name(), program: compilerRE.ReplaceAllString(e.Name(), ""), dir: dir})
	}
	if len(out) == 0 {
		t.Fatalf("no cases under %s", root)
	}
	return out
}

// artifactTree is a CI artifact made from cases three ways: a directory, a
// .tar.gz and a .zip, each holding artifacts/<case>/{binaries, both logs}.
type artifactTree struct {
	dir, tgz, zip string
	logs          []string // artifacts/<case>/<log>, sorted
}

// buildArtifactTree copies the cases' logs and ELF files (not the
// expectations) into a fresh tree and packs it.
func buildArtifactTree(t *testing.T, cases []artifactCase) artifactTree {
	t.Helper()
	tmp := t.TempDir()
	tr := artifactTree{
		dir: filepath.Join(tmp, "tree", "artifacts"),
		tgz: filepath.Join(tmp, "artifacts.tar.gz"),
		zip: filepath.Join(tmp, "artifacts.zip"),
	}
	type file struct {
		name string // artifacts/<case>/<file>
		data []byte
		mode os.FileMode
	}
	var files []file
	for _, c := range cases {
		ents, err := os.ReadDir(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || strings.HasSuffix(n, ".json") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(c.dir, n))
			if err != nil {
				t.Fatal(err)
			}
			isLog := strings.HasSuffix(n, ".log")
			if !isLog && !bytes.HasPrefix(data, []byte("\x7fELF")) {
				continue
			}
			name := "artifacts/" + c.name + "/" + n
			if isLog {
				tr.logs = append(tr.logs, name)
			}
			files = append(files, file{name: name, data: data, mode: 0o644})
		}
	}
	sort.Strings(tr.logs)
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, f := range files {
		p := filepath.Join(tmp, "tree", filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: int64(f.mode), Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.data)
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	zw.Close()
	if err := os.WriteFile(tr.tgz, tgz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tr.zip, zbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return tr
}

// runBatchJSON runs batch (or merge) and reads its JSON, refusing keys the
// document does not declare.
func runBatchJSON(t *testing.T, wantCode int, args ...string) *wire.Batch {
	t.Helper()
	out, errOut, code := runCLI(t, "", args...)
	if code != wantCode {
		t.Fatalf("sanitrace %s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), code, wantCode, errOut)
	}
	doc := decodeStrict[wire.Batch](t, "sanitrace "+strings.Join(args, " ")+": output", out)
	return &doc
}

// reportKey is the report without where it was found: what must be the
// same whether a log is decoded alone, in a directory or in an archive.
func reportKey(t *testing.T, r wire.Report) string {
	t.Helper()
	r.Input.Name = ""
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// logOf names a report's log the way artifactTree.logs does.
func logOf(r wire.BatchReport) string {
	name := r.Source.Name()
	if i := strings.Index(name, "artifacts/"); i >= 0 {
		return name[i:]
	}
	return name
}

// buildSanitrace builds the command for tests that run it as a process.
func buildSanitrace(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "sanitrace")
	out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}
