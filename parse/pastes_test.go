package parse

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// pasteTruth is testdata/samples/pastes/index.json: the hand-read truth
// for the crash pastes of issue 25 (its README has the conventions).
type pasteTruth struct {
	Samples []struct {
		File         string `json:"file"`
		ReportsCount int    `json:"reports_count"`
		Reports      []struct {
			Stacks []truthStack `json:"stacks"`
		} `json:"reports"`
		Fragments []struct {
			Stacks []truthStack `json:"stacks"`
		} `json:"fragments"`
		NoReport bool `json:"crash_looking_no_report"`
	} `json:"samples"`
}

type truthStack struct {
	Frames        int     `json:"frames"`
	FirstFunction *string `json:"first_function"`
	Marker        string  `json:"marker"`
}

// pastesWrong are the pastes the parser does not read right yet, each
// with what is missing; TestPasteTruth fails when one of them comes out
// right (take it off) or another goes wrong. None today.
var pastesWrong = map[string]string{}

// TestPasteTruth holds the parser to the truth of the issue-25 pastes:
// the number of reports, and per report its stacks, their frame counts
// and first functions; a paste whose truth has no report must yield none.
func TestPasteTruth(t *testing.T) {
	dir := filepath.Join("..", "testdata", "samples", "pastes")
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var truth pasteTruth
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	right := 0
	var wrong []string
	for _, s := range truth.Samples {
		reps, frags := parseWithFragments(t, filepath.Join(dir, s.File))
		var want, got []string
		want = append(want, fmt.Sprintf("%d reports", s.ReportsCount))
		got = append(got, fmt.Sprintf("%d reports", len(reps)))
		for i, r := range s.Reports {
			for j, st := range r.Stacks {
				want = append(want, truthLine(i, j, st.Frames, st.FirstFunction)+st.Marker)
			}
			if i < len(reps) {
				for j, st := range reps[i].Stacks {
					got = append(got, modelLine(i, j, &st)+st.Marker)
				}
			}
		}
		// Unattached fragments: never reports, each said once.
		want = append(want, fmt.Sprintf("%d fragments", len(s.Fragments)))
		got = append(got, fmt.Sprintf("%d fragments", len(frags)))
		for i, fr := range s.Fragments {
			for j, st := range fr.Stacks {
				want = append(want, "fragment "+truthLine(i, j, st.Frames, st.FirstFunction))
			}
			if i < len(frags) {
				for j, st := range frags[i].Stacks {
					got = append(got, "fragment "+modelLine(i, j, &st))
				}
			}
		}
		d := diffLines(want, got)
		_, known := pastesWrong[s.File]
		switch {
		case d == "":
			right++
			if known {
				t.Errorf("%s: right now; take it off pastesWrong", s.File)
			}
		case known:
			wrong = append(wrong, s.File+": "+d)
		default:
			t.Errorf("%s: %s", s.File, d)
		}
	}
	sort.Strings(wrong)
	t.Logf("%d/%d pastes right; still wrong:\n%s", right, len(truth.Samples), strings.Join(wrong, "\n"))
}

// parseWithFragments is parseFile with the unattached fragments the
// Scanner hands to OnFragment.
func parseWithFragments(t *testing.T, path string) ([]*report.Report, []*report.Fragment) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := NewScanner(f, path)
	var frags []*report.Fragment
	sc.OnFragment(func(fr *report.Fragment) { frags = append(frags, fr) })
	var reps []*report.Report
	for {
		r, err := sc.Next()
		if err == io.EOF {
			return reps, frags
		}
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, r)
	}
}

func truthLine(i, j, frames int, first *string) string {
	f := "-"
	// Valgrind's "???" is its word for an unknown function.
	if first != nil && *first != "???" {
		f = *first
	}
	return fmt.Sprintf("report %d stack %d: %d frames, first %q", i, j, frames, f)
}

func modelLine(i, j int, s *report.Stack) string {
	f := "-"
	if len(s.Frames) > 0 && s.Frames[0].Function != "" {
		f = s.Frames[0].Function
	}
	return fmt.Sprintf("report %d stack %d: %d frames, first %q", i, j, len(s.Frames), f)
}

// diffLines is "" when want and got are equal, else the first difference.
func diffLines(want, got []string) string {
	for i := range max(len(want), len(got)) {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("want %s; got %s", w, g)
		}
	}
	return ""
}
