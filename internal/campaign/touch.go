package campaign

import (
	"encoding/json"
	"fmt"
)

// The "no report lost" rule. A mutant of a log keeps every report of the
// unmutated log that the mutation did not touch:
//
//   - The touched range of a mutant is [p, len(seed)-s) of the seed, where
//     p is the length of the longest common prefix of seed and mutant and s
//     the longest common suffix of what is left after it. It holds every
//     byte the mutation changed, whatever the mutator (several edits give
//     one range from the first to the last). An insertion touches no byte of
//     the seed: its range is empty and sits at p.
//   - A report's span is the bytes of its lines in the seed, from the
//     newline that ends the line before its first line (the start of the
//     seed for line 1) to the newline that ends its last line, both
//     included: a mutation that joins the report's first line to the line
//     before, or its last line to the line after, touches it. Lines are
//     numbered from 1 and end at '\n', as decode's JSON input.first_line
//     and input.last_line number them.
//   - A report is touched when its span and the touched range share a byte,
//     an empty range counting as the one byte at p: an insertion anywhere
//     from the newline before the report's first line to the newline that
//     ends its last line touches it; one right after that newline adds a
//     line after the report and does not.
//   - Every untouched report must be found again in the mutant's decode: a
//     report of the same tool and kind, each mutant report standing for one
//     seed report at most (the count of each tool and kind may not drop
//     below the untouched reports'). Those not found are lost. The headline
//     is not compared: an aggregate report (a heap dump's "27 live
//     allocations") takes in records a mutation adds next to it, and stays
//     the same report. For the same reason aggregates are matched by
//     presence, not count: an lws heap dump is a run of records, and two
//     runs pasted together are one run, one report.
//
//   - A mutant made by pasting another seed whole at a line boundary
//     outside every report of the seed (a log after or before another, as
//     CI jobs and test binaries write them; the mutant's only edit) must
//     also have every report of the pasted seed, decoded alone. A paste
//     inside a report of the seed touches that report, and the pasted
//     seed's reports are not expected then: a report interleaved with
//     another one's lines may be unreadable as either.
//
// Mutants whose whole input decode refuses (exit status 2: "not a log",
// binary data, a broken compression header) are not compared; they are
// counted apart as refused.

// Span is a half-open byte range [Lo, Hi).
type Span struct{ Lo, Hi int }

func (s Span) overlaps(t Span) bool { return s.Lo < t.Hi && t.Lo < s.Hi }

// Touched returns the range of seed that differs in mutant: see the rule
// above. The range of an insertion is empty.
func Touched(seed, mutant []byte) Span {
	n := min(len(seed), len(mutant))
	p := 0
	for p < n && seed[p] == mutant[p] {
		p++
	}
	s := 0
	for s < n-p && seed[len(seed)-1-s] == mutant[len(mutant)-1-s] {
		s++
	}
	return Span{p, len(seed) - s}
}

// ReportSpan returns the span in data of the report on lines first to last
// (1-based, inclusive).
func ReportSpan(data []byte, first, last int) Span {
	start, end := -1, len(data)
	line := 1
	if first <= 1 {
		start = 0
	}
	for i, c := range data {
		if c != '\n' {
			continue
		}
		if line == first-1 {
			start = i // the newline before the report
		}
		if line == last {
			end = i + 1
			break
		}
		line++
	}
	if start < 0 {
		start = len(data)
	}
	return Span{start, max(start, end)}
}

// Report is what the rule knows of a report of decode's JSON.
type Report struct {
	Tool, Kind, Headline string
	First, Last          int
}

func (r Report) key() string { return r.Tool + "\x00" + r.Kind }

func (r Report) String() string {
	return fmt.Sprintf("%s %s %q (lines %d-%d)", r.Tool, r.Kind, r.Headline, r.First, r.Last)
}

// ParseReports reads the reports of decode --format json's output.
func ParseReports(out []byte) ([]Report, error) {
	var doc struct {
		Reports []struct {
			Tool     string `json:"tool"`
			Kind     string `json:"kind"`
			Headline string `json:"headline"`
			Input    struct {
				First int `json:"first_line"`
				Last  int `json:"last_line"`
			} `json:"input"`
		} `json:"reports"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, err
	}
	reps := make([]Report, len(doc.Reports))
	for i, r := range doc.Reports {
		reps[i] = Report{Tool: r.Tool, Kind: r.Kind, Headline: r.Headline, First: r.Input.First, Last: r.Input.Last}
	}
	return reps, nil
}

// Untouched returns the reports of seed (decoded as base) that the
// mutation to mutant did not touch.
func Untouched(seed, mutant []byte, base []Report) []Report {
	t := Touched(seed, mutant)
	if t.Hi <= t.Lo {
		t.Hi = t.Lo + 1
	}
	var out []Report
	for _, r := range base {
		if !ReportSpan(seed, r.First, r.Last).overlaps(t) {
			out = append(out, r)
		}
	}
	return out
}

// Missing returns the reports of want that got has no report for (same
// tool and kind; each report of got stands for one of want).
func Missing(want, got []Report) []Report {
	have := map[string]int{}
	for _, r := range got {
		have[r.key()]++
	}
	var lost []Report
	for _, r := range want {
		switch {
		case aggregate[r.key()] && have[r.key()] > 0:
		case have[r.key()] > 0:
			have[r.key()]--
		default:
			lost = append(lost, r)
		}
	}
	return lost
}

// aggregate are the reports (by key) that stand for a run of records,
// matched by presence.
var aggregate = map[string]bool{
	Report{Tool: "libwebsockets", Kind: "heap dump"}.key(): true,
}
