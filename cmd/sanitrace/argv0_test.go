package main

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureDir holds the committed ELF fixtures (testdata/Makefile).
const fixtureDir = repoRoot + "/testdata/elf"

// runArgv0 runs sanitrace in-process under argv0 (so the argv[0] dispatch
// to the llvm-symbolizer and addr2line faces is exercised) with stdin as
// input, and returns what it wrote.
func runArgv0(t testing.TB, argv0 string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	in := writeTemp(t, filepath.Join(dir, "stdin"), stdin)
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	code = run(append([]string{argv0}, args...), in, out, errf)
	for _, f := range []*os.File{in, out, errf} {
		f.Close()
	}
	o, _ := os.ReadFile(filepath.Join(dir, "stdout"))
	e, _ := os.ReadFile(filepath.Join(dir, "stderr"))
	return string(o), string(e), code
}

// writeTemp writes content to p and opens it for reading.
func writeTemp(t testing.TB, p, content string) *os.File {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
