// Command testreport turns `go test -json` output into what `make test`
// shows: one line per package, the whole output of every failing test, and
// every skip with its reason. Plain `go test` prints skip reasons only with
// -v, and -v buries failures in the output of passing tests; the checks
// that need ../shared or a tool (clang-14, llvm-symbolizer) skip, and a
// reader of the CI log must be able to see which ones did and why.
//
// It reads test2json events from standard input and exits 1 when a test or
// package failed, 0 otherwise. Its last line counts the tests (and
// subtests) that passed, failed and skipped. `make test` runs it more than
// once (the unit tests, the race detector's) and wants one count at the
// end: with -counts FILE it appends its counts to FILE instead of printing
// them, and `testreport -summary FILE` prints the line for all of them
// (with the fuzz targets' counts scripts/fuzz.sh appends there).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type testKey struct{ pkg, test string }

// skipGroup gathers the skips of one package that give the same reason
// (the corpus tests skip every case alike when ../shared is absent).
type skipGroup struct {
	pkg, reason string
	tests       []string
}

type report struct {
	out      io.Writer
	outputs  map[testKey][]string // output of tests still running
	skips    map[testKey]*skipGroup
	skipList []*skipGroup
	failed   bool
	counts   counts
}

// counts are the tests and subtests by outcome, and the fuzz targets.
type counts struct {
	passed, failed, skipped int
	fuzzRun, fuzzFailed     int
}

func main() {
	countsFile := flag.String("counts", "", "append the counts to `FILE` instead of printing the summary line")
	summary := flag.String("summary", "", "print the summary line of the counts in `FILE` (no input read)")
	flag.Parse()
	if *summary != "" {
		c, err := readCounts(*summary)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
		fmt.Println(c.line())
		if c.failed > 0 || c.fuzzFailed > 0 {
			os.Exit(1)
		}
		return
	}
	r := &report{out: os.Stdout, outputs: map[testKey][]string{}, skips: map[testKey]*skipGroup{}}
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		os.Exit(2)
	}
	r.printSkips()
	if *countsFile != "" {
		if err := appendCounts(*countsFile, r.counts); err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
	} else {
		fmt.Fprintln(r.out, r.counts.line())
	}
	if r.failed {
		os.Exit(1)
	}
}

// line is the summary line.
func (c counts) line() string {
	s := fmt.Sprintf("tests: %d passed, %d failed, %d skipped", c.passed, c.failed, c.skipped)
	if c.fuzzRun > 0 {
		s += fmt.Sprintf("; fuzz targets: %d run, %d failed", c.fuzzRun, c.fuzzFailed)
	}
	return s
}

// appendCounts adds a "tests P F S" line to the counts file.
func appendCounts(name string, c counts) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "tests %d %d %d\n", c.passed, c.failed, c.skipped)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readCounts adds up a counts file: "tests PASSED FAILED SKIPPED" lines
// (appendCounts) and "fuzz pass|fail NAME" lines (scripts/fuzz.sh).
func readCounts(name string) (counts, error) {
	var c counts
	b, err := os.ReadFile(name)
	if err != nil {
		return c, err
	}
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case f[0] == "tests" && len(f) == 4:
			var p, fl, sk int
			if _, err := fmt.Sscan(strings.Join(f[1:], " "), &p, &fl, &sk); err != nil {
				return c, fmt.Errorf("%s:%d: %q: want tests PASSED FAILED SKIPPED", name, i+1, l)
			}
			c.passed, c.failed, c.skipped = c.passed+p, c.failed+fl, c.skipped+sk
		case f[0] == "fuzz" && len(f) >= 2 && (f[1] == "pass" || f[1] == "fail"):
			c.fuzzRun++
			if f[1] == "fail" {
				c.fuzzFailed++
			}
		default:
			return c, fmt.Errorf("%s:%d: %q: not a counts line", name, i+1, l)
		}
	}
	return c, nil
}

func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event (a build error printed before test2json took
			// over): show it as it is.
			fmt.Fprintf(r.out, "%s\n", line)
			continue
		}
		r.handle(e)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read go test -json output: %w", err)
	}
	return nil
}

func (r *report) handle(e event) {
	k := testKey{e.Package, e.Test}
	switch e.Action {
	case "output", "build-output":
		if e.Action == "build-output" {
			fmt.Fprint(r.out, e.Output)
			return
		}
		r.outputs[k] = append(r.outputs[k], e.Output)
	case "skip":
		if e.Test != "" {
			r.counts.skipped++
			r.addSkip(e.Package, e.Test, skipReason(r.outputs[k]))
		} else {
			fmt.Fprintf(r.out, "?   \t%s\t[no test files]\n", e.Package)
		}
		delete(r.outputs, k)
	case "pass":
		if e.Test != "" {
			r.counts.passed++
		}
		if e.Test == "" {
			fmt.Fprintf(r.out, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
		}
		delete(r.outputs, k)
	case "fail":
		r.failed = true
		if e.Test != "" {
			r.counts.failed++
			fmt.Fprintf(r.out, "--- FAIL: %s (%s)\n", e.Test, e.Package)
		}
		summarized := false // go test's own "FAIL\tpkg" line was seen
		for _, s := range r.outputs[k] {
			if e.Test != "" && isFramingLine(s) {
				continue
			}
			summarized = summarized || strings.HasPrefix(s, "FAIL\t"+e.Package)
			fmt.Fprint(r.out, s)
		}
		if e.Test == "" && !summarized {
			fmt.Fprintf(r.out, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
		}
		delete(r.outputs, k)
	}
}

// isFramingLine reports whether s is one of go test's own lines around a
// test's output, which the report replaces with its own.
func isFramingLine(s string) bool {
	t := strings.TrimSpace(s)
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// skipReason is what a skipped test logged, without go test's framing and
// the "file.go:12: " position prefix.
func skipReason(lines []string) string {
	var parts []string
	for _, s := range lines {
		if isFramingLine(s) {
			continue
		}
		s = strings.TrimSpace(s)
		if i := strings.Index(s, ": "); i > 0 && strings.Contains(s[:i], ".go:") {
			s = s[i+2:]
		}
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " / ")
}

func (r *report) addSkip(pkg, test, reason string) {
	k := testKey{pkg, reason}
	g := r.skips[k]
	if g == nil {
		g = &skipGroup{pkg: pkg, reason: reason}
		r.skips[k] = g
		r.skipList = append(r.skipList, g)
	}
	g.tests = append(g.tests, test)
}

func (r *report) printSkips() {
	if len(r.skipList) == 0 {
		return
	}
	sort.SliceStable(r.skipList, func(i, j int) bool { return r.skipList[i].pkg < r.skipList[j].pkg })
	fmt.Fprintln(r.out, "skipped:")
	for _, g := range r.skipList {
		name := g.tests[0]
		if len(g.tests) > 1 {
			name = fmt.Sprintf("%s and %d more", name, len(g.tests)-1)
		}
		fmt.Fprintf(r.out, "  %s %s: %s\n", strings.TrimPrefix(g.pkg, "github.com/sanitrace/sanitrace/"), name, g.reason)
	}
}
