package main

import (
	"os"
	"strings"
	"testing"
)

// Each case is a go test -json stream (made with go 1.26 from real tests,
// shortened) and what the report prints for it.
func TestReport(t *testing.T) {
	const p = "github.com/sanitrace/sanitrace/parse"
	ev := func(action, test, output string) string {
		s := `{"Action":"` + action + `","Package":"` + p + `"`
		if test != "" {
			s += `,"Test":"` + test + `"`
		}
		if output != "" {
			s += `,"Output":` + quote(output)
		}
		return s + `,"Elapsed":0.5}` + "\n"
	}
	for _, tc := range []struct {
		name, in, want string
		failed         bool
	}{{
		name: "pass",
		in: ev("run", "TestA", "") + ev("output", "TestA", "=== RUN   TestA\n") +
			ev("output", "TestA", "    a_test.go:3: chatter\n") + ev("pass", "TestA", "") + ev("pass", "", ""),
		want: "ok  \t" + p + "\t0.500s\n",
	}, {
		name: "skips grouped by reason",
		in: ev("output", "TestCorpus/x", "=== RUN   TestCorpus/x\n") +
			ev("output", "TestCorpus/x", "    corpus_test.go:20: ../shared/corpus not found\n") +
			ev("output", "TestCorpus/x", "--- SKIP: TestCorpus/x (0.00s)\n") + ev("skip", "TestCorpus/x", "") +
			ev("output", "TestCorpus/y", "    corpus_test.go:20: ../shared/corpus not found\n") + ev("skip", "TestCorpus/y", "") +
			ev("output", "TestClang", "    clang_test.go:9: clang-14 not installed\n") + ev("skip", "TestClang", "") +
			ev("pass", "", ""),
		want: "ok  \t" + p + "\t0.500s\n" +
			"skipped:\n" +
			"  parse TestCorpus/x and 1 more: ../shared/corpus not found\n" +
			"  parse TestClang: clang-14 not installed\n",
	}, {
		name: "failure shows the test's output",
		in: ev("output", "TestB", "=== RUN   TestB\n") + ev("output", "TestB", "    b_test.go:7: got 1, want 2\n") +
			ev("output", "TestB", "--- FAIL: TestB (0.00s)\n") + ev("fail", "TestB", "") +
			ev("output", "", "FAIL\n") + ev("fail", "", ""),
		want:   "--- FAIL: TestB (" + p + ")\n    b_test.go:7: got 1, want 2\nFAIL\nFAIL\t" + p + "\t0.500s\n",
		failed: true,
	}, {
		name: "build output and non-JSON lines pass through",
		in: `{"ImportPath":"x","Action":"build-output","Output":"x.go:1:1: syntax error\n"}` + "\n" +
			"# not json\n" + ev("fail", "", ""),
		want:   "x.go:1:1: syntax error\n# not json\nFAIL\t" + p + "\t0.500s\n",
		failed: true,
	}, {
		name:   "go test's own FAIL line is not repeated",
		in:     ev("output", "", "FAIL\t"+p+" [build failed]\n") + ev("fail", "", ""),
		want:   "FAIL\t" + p + " [build failed]\n",
		failed: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			r := &report{out: &out, outputs: map[testKey][]string{}, skips: map[testKey]*skipGroup{}}
			if err := r.read(strings.NewReader(tc.in)); err != nil {
				t.Fatal(err)
			}
			r.printSkips()
			if out.String() != tc.want || r.failed != tc.failed {
				t.Errorf("got (failed=%v)\n%s\nwant (failed=%v)\n%s", r.failed, out.String(), tc.failed, tc.want)
			}
		})
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\t", `\t`, `\`, `\\`)
	return `"` + r.Replace(s) + `"`
}

// TestCounts: the tests and subtests are counted by outcome, and the
// counts of several runs and of the fuzz targets add up to one line.
func TestCounts(t *testing.T) {
	const p = "github.com/sanitrace/sanitrace/parse"
	ev := func(action, test string) string {
		return `{"Action":"` + action + `","Package":"` + p + `","Test":"` + test + `"}` + "\n"
	}
	in := ev("pass", "TestA") + ev("pass", "TestB/x") + ev("pass", "TestB") + ev("skip", "TestC") + ev("fail", "TestD") +
		`{"Action":"fail","Package":"` + p + `"}` + "\n"
	r := &report{out: &strings.Builder{}, outputs: map[testKey][]string{}, skips: map[testKey]*skipGroup{}}
	if err := r.read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if want := (counts{passed: 3, failed: 1, skipped: 1}); r.counts != want {
		t.Errorf("counts %+v, want %+v", r.counts, want)
	}
	if got, want := r.counts.line(), "tests: 3 passed, 1 failed, 1 skipped"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}

	file := t.TempDir() + "/counts"
	if err := appendCounts(file, r.counts); err != nil {
		t.Fatal(err)
	}
	if err := appendCounts(file, counts{passed: 10, skipped: 2}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("fuzz pass FuzzA\nfuzz fail FuzzB\nfuzz pass FuzzC\n")
	f.Close()
	c, err := readCounts(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.line(), "tests: 13 passed, 1 failed, 3 skipped; fuzz targets: 3 run, 1 failed"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if err := os.WriteFile(file, []byte("tests 1 x 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readCounts(file); err == nil {
		t.Errorf("a malformed counts line was accepted")
	}
}
