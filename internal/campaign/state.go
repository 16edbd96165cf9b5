package campaign

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// State is a kind's progress, kept in STATE/KIND/state.json after every
// mutant: a run that stops (interrupted, out of time, the machine down)
// goes on from Next when started again.
type State struct {
	Kind string `json:"kind"`
	// SeedSet fingerprints the seeds' names: mutant i is made from seed
	// i mod Seeds, so a state is only continued with the same seeds.
	SeedSet string                `json:"seed_set,omitempty"`
	Seeds   int                   `json:"seeds"`
	Next    int                   `json:"next"` // mutants 0 to Next-1 are done
	Counts  Counts                `json:"counts"`
	Refs    map[string]*RefCounts `json:"refs,omitempty"`
	// Versions are the sanitrace versions (git describe) that ran.
	Versions []string  `json:"versions"`
	Started  time.Time `json:"started"`
	Updated  time.Time `json:"updated"`
	Seconds  float64   `json:"seconds"` // time spent on this kind
	Timeout  string    `json:"timeout"`
	MemoryMB int64     `json:"memory_mib"`
}

// Counts are a kind's figures. A mutant counts once in a class however
// many of its runs showed it.
type Counts struct {
	Mutants int           `json:"mutants"`
	Runs    int           `json:"runs"`
	Classes map[Class]int `json:"classes"`
	// LostReports is the number of reports lost (the Lost class counts
	// the mutants that lost any).
	LostReports int `json:"lost_reports"`
	// Compared counts the mutants whose decode was held against the
	// seed's: those with at least one report the mutation did not touch.
	Compared int `json:"compared"`
	// Refused counts the mutants decode refused as a whole (exit 2):
	// binary data, a broken compression header.
	Refused int `json:"refused"`
	// Slow counts runs that timed out once and ended on the confirming
	// run: not hangs, but worth a look when they pile up.
	Slow int `json:"slow"`
	// Exits counts the runs of each command by exit status ("signal" for a
	// death by a signal): how many mutants a command took, how many it
	// refused.
	Exits map[string]map[string]int `json:"exits,omitempty"`
	// PeakRSS is each command's largest peak RSS over its runs, in MiB.
	PeakRSS map[string]int64 `json:"peak_rss_mib,omitempty"`
}

// RefCounts are a reference tool's figures on a kind's mutants.
type RefCounts struct {
	PeakRSS int64 `json:"peak_rss_mib"`
	Runs    int   `json:"runs"`
	Crashes int   `json:"crashes"`
	Hangs   int   `json:"hangs"`
	Memory  int   `json:"memory"`
	Slow    int   `json:"slow"`
	// Signals counts the crashes by signal ("SIGSEGV", "SIGABRT").
	Signals map[string]int `json:"signals,omitempty"`
}

func seedSet(seeds []*Seed) string {
	h := sha256.New()
	for _, s := range seeds {
		h.Write([]byte(s.Name + "\n"))
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

func statePath(dir, kind string) string { return filepath.Join(dir, kind, "state.json") }

// LoadState reads kind's state under dir; a kind never run gets a new
// one.
func LoadState(dir, kind string) (*State, error) {
	b, err := os.ReadFile(statePath(dir, kind))
	if errors.Is(err, fs.ErrNotExist) {
		return &State{Kind: kind, Counts: Counts{Classes: map[Class]int{}}, Refs: map[string]*RefCounts{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", statePath(dir, kind), err)
	}
	if st.Counts.Classes == nil {
		st.Counts.Classes = map[Class]int{}
	}
	if st.Refs == nil {
		st.Refs = map[string]*RefCounts{}
	}
	return &st, nil
}

// Save writes st atomically (a rename), so that a run killed in the
// middle leaves the previous state.
func (st *State) Save(dir string) error {
	p := statePath(dir, st.Kind)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

func (st *State) addVersion(v string) {
	if v != "" && !slices.Contains(st.Versions, v) {
		st.Versions = append(st.Versions, v)
	}
}

// FindingRecord is a finding saved under STATE/KIND/findings/ID/ with
// the input that caused it (input, or input.EXT).
type FindingRecord struct {
	Sig     string   `json:"signature"`
	Class   Class    `json:"class"`
	Kind    string   `json:"kind"`
	Seed    string   `json:"seed"`
	Mutant  int      `json:"mutant"`
	Ops     []string `json:"ops"`
	Command string   `json:"command"`
	// Argv is the command as run, the input's path written INPUT.
	Argv    []string `json:"argv"`
	Detail  string   `json:"detail"`
	Exit    int      `json:"exit"`
	Signal  string   `json:"signal,omitempty"`
	MaxRSS  int64    `json:"max_rss_mib"`
	Seconds float64  `json:"seconds"`
	Stderr  string   `json:"stderr"`
	// Count is how many runs had this signature; Mutants the first of
	// them.
	Count   int    `json:"count"`
	Mutants []int  `json:"mutants"`
	Repro   string `json:"repro"`
}

func findingID(f Finding) string {
	h := sha256.Sum256([]byte(f.Sig))
	return fmt.Sprintf("%s-%x", f.Class, h[:4])
}

// loadFindings reads the findings saved under dir/kind.
func loadFindings(dir, kind string) (map[string]*FindingRecord, error) {
	out := map[string]*FindingRecord{}
	root := filepath.Join(dir, kind, "findings")
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(root, e.Name(), "finding.json"))
		if err != nil {
			continue
		}
		var r FindingRecord
		if json.Unmarshal(b, &r) == nil {
			out[e.Name()] = &r
		}
	}
	return out, nil
}

func saveFinding(dir string, r *FindingRecord) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "finding.json"), append(b, '\n'), 0o644)
}

// Findings returns the findings saved for the kinds under dir, most
// frequent first.
func Findings(dir string, kinds []string) ([]*FindingRecord, error) {
	var all []*FindingRecord
	for _, k := range kinds {
		m, err := loadFindings(dir, k)
		if err != nil {
			return nil, err
		}
		for _, r := range m {
			all = append(all, r)
		}
	}
	slices.SortFunc(all, func(a, b *FindingRecord) int {
		if a.Kind != b.Kind {
			return strings.Compare(a.Kind, b.Kind)
		}
		return b.Count - a.Count
	})
	return all, nil
}
