package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLWSHeapmapJSON: the heap map of the sample log equals the expected
// object (rows, counts, bytes, order, failures), compared as parsed JSON,
// for the committed copy and the shared original.
func TestLWSHeapmapJSON(t *testing.T) {
	dirs := map[string]string{"committed": filepath.Join("..", "..", "testdata", "lws")}
	t.Run("shared", func(t *testing.T) { dirs["shared"] = lwsShared(t) })
	if dirs["shared"] == "" {
		delete(dirs, "shared")
	}
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			// The path is given with directories: "source" is the file's
			// base name, as in the expected file.
			out, stderr, code := runCLI(t, "", "lws", "heapmap", "--format", "json", filepath.Join(dir, "heapmap-sample.log"))
			if code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			var got, want any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			raw, err := os.ReadFile(filepath.Join(dir, "heapmap-expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("heap map differs from heapmap-expected.json\n got: %s", out)
			}
			// Every failure is also a one-line error on stderr naming input and line.
			for _, w := range []string{"heapmap-sample.log:42: ~m# record: length-mismatch: ", "heapmap-sample.log:49: ~m# record: empty-payload: "} {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

func TestLWSHeapmapStdinAndText(t *testing.T) {
	log := "x\n~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\n[t] N: ~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\n~b#size: 100, 0x1 0x2 \n~m#AA==\n"
	out, _, code := runCLI(t, log, "lws", "heapmap", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		Source     string
		Records    int
		TotalBytes uint64 `json:"total_bytes"`
		Backtraces []struct {
			FirstLine int `json:"first_line"`
		}
		Undecodable []struct {
			Line  int
			Error string
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Source != "-" || r.Records != 3 || r.TotalBytes != 15140 || len(r.Backtraces) != 2 ||
		r.Backtraces[0].FirstLine != 2 || len(r.Undecodable) != 1 || r.Undecodable[0].Error != "blob-too-short" {
		t.Errorf("unexpected heap map of stdin: %+v\n%s", r, out)
	}
	out, _, _ = runCLI(t, log, "lws", "heapmap")
	for _, w := range []string{
		"heap map of -: 3 live allocations, 14.8 KiB (15140 bytes) in 2 distinct backtraces; 1 record undecodable",
		"  14.7 KiB       2   99.3%  0x406651 0x406852 0x406c1b 0x406294\n",
		"     100 B       1    0.7%  0x1 0x2\n",
		"  -:5: blob-too-short: ~m#AA==\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("text heap map lacks %q:\n%s", w, out)
		}
	}
}

func TestLWSDecode(t *testing.T) {
	log := strings.Join([]string{
		"[2024/05/01 12:00:05:0188] N: ~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV",
		"\x1b[32mI (1234) heap: ~m#IF0BmagugNDWgCnkhdAYpQa6wAAV\x1b[0m",
		"IF0BmUQugNCkgCnkhdAYpQa6wAAV",
		"~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV!!",
		"~m#",
		"~m#ABAABA==",
		"~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 ",
	}, "\n")
	out, stderr, code := runCLI(t, log, "lws", "decode")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294\n" +
		"~b#size: 7520, 0x40666a 0x40686b 0x406c34 0x406294\n" +
		"~b#size: 0,\n" +
		"~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294\n"
	if out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
	wantErr := "<stdin>:4: ~m# record: bad-base64-char: character '!' at payload offset 28 is not base64\n" +
		"<stdin>:5: ~m# record: empty-payload: nothing after the ~m# lead-in\n"
	if stderr != wantErr {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, wantErr)
	}
}

func TestLWSExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.log")
	if err := os.WriteFile(good, []byte("~m#ABAABA==\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"lws", "decode", good}, exitOK, "~b#size: 0,\n"},
		{[]string{"lws", "decode", filepath.Join(dir, "missing.log"), good}, exitUsage, "~b#size: 0,\n"},
		{[]string{"lws", "heapmap", "--format", "yaml", good}, exitUsage, ""},
		{[]string{"lws", "decode", "--base", "0x1000", good}, exitUsage, ""},
		{[]string{"lws", "decode", "--obj", filepath.Join(dir, "nope"), good}, exitUsage, ""},
		{[]string{"lws", "decode", "--bogus", good}, exitUsage, ""},
	}
	for _, tt := range tests {
		out, stderr, code := runCLI(t, "", tt.args...)
		if code != tt.code || out != tt.out {
			t.Errorf("%v: exit %d, stdout %q (stderr %q); want exit %d, stdout %q", tt.args, code, out, stderr, tt.code, tt.out)
		}
		if code != exitOK && !strings.Contains(stderr, "sanitrace") && !strings.Contains(stderr, "missing.log") {
			t.Errorf("%v: no error message on stderr: %q", tt.args, stderr)
		}
	}
	// The exit status of a run with malformed records is in --help (and
	// docs/lws.md); TestLWSDecodeInvalidRows checks it is 0.
	for _, sub := range []string{"decode", "heapmap"} {
		out, _, _ := runCLI(t, "", "lws", sub, "--help")
		if !strings.Contains(out, "Exit status: 0 when the inputs were read, malformed records included") {
			t.Errorf("lws %s --help does not give the exit status on malformed records:\n%s", sub, out)
		}
	}
}

// TestLWSDecodeInvalidRows: every row of invalid.jsonl, each followed by a
// valid record, through `lws decode`: each malformed record gets its class
// on stderr with its line number and the valid record after it still
// decodes. Rows without a ~m# lead-in are not records in a log: skipped
// silently.
func TestLWSDecodeInvalidRows(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "lws", "invalid.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const valid = "~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV"
	var log strings.Builder
	var wantErr []string
	rows := 0
	for i, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var row struct{ M, Error string }
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		rows++
		log.WriteString(row.M + "\n" + valid + "\n")
		switch {
		case strings.HasPrefix(row.M, "~b#"):
			// Not a ~m# record, but a ~b# line, which is input too: this one
			// is not in lws's ~b# format.
			wantErr = append(wantErr, fmt.Sprintf("<stdin>:%d: ~b# record: bad-b-line: ", 2*i+1))
		case row.Error != "no-lead-in":
			wantErr = append(wantErr, fmt.Sprintf("<stdin>:%d: ~m# record: %s: ", 2*i+1, row.Error))
		}
	}
	out, stderr, code := runCLI(t, log.String(), "lws", "decode")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(out, "~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294\n"); n != rows {
		t.Errorf("%d valid records decoded after %d invalid rows, want %d", n, rows, rows)
	}
	errLines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(errLines) != len(wantErr) {
		t.Fatalf("%d stderr lines, want %d:\n%s", len(errLines), len(wantErr), stderr)
	}
	for i, w := range wantErr {
		if !strings.HasPrefix(errLines[i], w) {
			t.Errorf("stderr line %d: %q, want prefix %q", i+1, errLines[i], w)
		}
	}
}
