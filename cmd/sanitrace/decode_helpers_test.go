package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/corpustest"
	"github.com/sanitrace/sanitrace/wire"
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

// str is a JSON string field's value, "" for null.
var str = corpustest.Deref[string]

// parseDecodeJSON reads decode's JSON output into the types render writes
// it from (schema v1, docs/json.md). Unknown keys are an error: what decode
// prints must be what render declares.
func parseDecodeJSON(t *testing.T, out string) wire.Reports {
	t.Helper()
	d := decodeStrict[wire.Reports](t, "decode output", out)
	if d.Version != wire.Version {
		t.Fatalf("decode output: version %d, want %d", d.Version, wire.Version)
	}
	return d
}

// decodeStrict reads out as one JSON document of type T, refusing keys T
// does not declare: the contract's documents are closed. what names the
// output in a failure.
func decodeStrict[T any](t *testing.T, what, out string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s is not the contract's JSON: %v\n%.2000s", what, err, out)
	}
	return v
}

// demoLogAway copies the demo's ASan log into a directory of its own, away
// from the binary beside the original, and returns its path.
func demoLogAway(t *testing.T) string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "session.log")
	if err := os.WriteFile(log, []byte(readFile(t, demoLog)), 0o644); err != nil {
		t.Fatal(err)
	}
	return log
}

// demoSessionSymbolized runs decode --format=json (under an empty sysroot)
// with args, which must find the demo's report, and says whether sanitrace
// symbolized a frame of /build/demo/session; stderr is decode's.
func demoSessionSymbolized(t *testing.T, args ...string) (symbolized bool, stderr string) {
	t.Helper()
	out, errs, code := runCLI(t, "", append([]string{"decode", "--format=json", "--sysroot", t.TempDir()}, args...)...)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	for _, r := range parseDecodeJSON(t, out).Reports {
		for _, s := range r.Stacks {
			for _, f := range s.Frames {
				if str(f.Module) == "/build/demo/session" && f.Symbolized == "sanitrace" {
					return true, errs
				}
			}
		}
	}
	return false, errs
}
