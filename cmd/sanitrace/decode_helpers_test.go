package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// repoRoot is the module root, seen from this package's directory.
const repoRoot = "../.."

// runCLI runs the sanitrace command line in-process and returns what it
// printed and its exit code, exactly as main would.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), &out, &errb)
	root.SetArgs(args)
	code = exitOK
	if err := root.Execute(); err != nil {
		reportError(&errb, err)
		code = codeOf(err)
	}
	return out.String(), errb.String(), code
}

// decodeJSON is the part of the decode JSON (CONTRACT.md schema v1) the
// tests read.
type decodeJSON struct {
	Version *int         `json:"version"`
	Reports []reportJSON `json:"reports"`
}

type reportJSON struct {
	Summary string      `json:"summary"`
	Tool    string      `json:"tool"`
	Kind    string      `json:"kind"`
	Stacks  []stackJSON `json:"stacks"`
}

type stackJSON struct {
	Title  string      `json:"title"`
	Role   string      `json:"role"`
	Frames []frameJSON `json:"frames"`
}

type frameJSON struct {
	PC         *string `json:"pc"`
	Function   *string `json:"function"`
	File       *string `json:"file"`
	Line       int     `json:"line"`
	Column     int     `json:"column"`
	Module     *string `json:"module"`
	Offset     *string `json:"offset"`
	Inlined    bool    `json:"inlined"`
	Symbolized string  `json:"symbolized"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func parseDecodeJSON(t *testing.T, out string) decodeJSON {
	t.Helper()
	var d decodeJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("decode output is not JSON: %v\n%s", err, out)
	}
	if d.Version == nil || *d.Version != 1 {
		t.Fatalf("decode output: version %v, want 1", d.Version)
	}
	return d
}

// sharedDir finds ../shared (or $SANITRACE_SHARED), or skips the test.
func sharedDir(t *testing.T) string {
	t.Helper()
	sharedtest.Dir(t, "corpus", "cases")
	return sharedtest.Dir(t)
}
