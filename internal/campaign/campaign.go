package campaign

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sanitrace/sanitrace/internal/mutate"
	"golang.org/x/sys/unix"
)

// Config is a campaign run.
type Config struct {
	Root      string // the repository
	Shared    string // ../shared, or "" to leave it out
	Sanitrace string // the binary under test
	Self      string // the limiting wrapper (WrapArg)
	State     string // the state directory
	N         int    // mutants per kind, in all (a rerun goes on to N)
	Jobs      int    // kinds run at once
	Chunk     int    // mutants a worker takes from a kind at a time
	Kinds     []string
	Limits    Limits
	Refs      bool      // run the reference tools too
	Progress  io.Writer // a line per chunk; nil for none
}

// kindRun is one kind's campaign: its seeds, state and findings.
type kindRun struct {
	cfg      *Config
	kind     *Kind
	st       *State
	env      *Env
	dir      string // STATE/KIND
	runner   *Runner
	version  string
	seeds    []*Seed
	donors   [][]byte
	donorOf  []*Seed // the seed of each donor
	findings map[string]*FindingRecord
	written  []byte // the mutant file's content, to rewrite only what changed
	err      error
}

// Run runs the campaign until every kind has cfg.N mutants or ctx ends,
// and returns the kinds' states.
func Run(ctx context.Context, cfg Config) ([]*State, error) {
	if cfg.Chunk <= 0 {
		cfg.Chunk = 25
	}
	version, err := sanitraceVersion(cfg.Sanitrace)
	if err != nil {
		return nil, err
	}
	tools := map[string]string{}
	if cfg.Refs {
		for name, cands := range refTools {
			for _, c := range cands {
				if p, err := exec.LookPath(c); err == nil {
					tools[name] = p
					break
				}
			}
		}
	}
	var runs []*kindRun
	for _, name := range cfg.Kinds {
		k := KindNamed(name)
		if k == nil {
			return nil, fmt.Errorf("no input kind %q", name)
		}
		st, err := LoadState(cfg.State, name)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(cfg.State, name)
		fs, err := loadFindings(cfg.State, name)
		if err != nil {
			return nil, err
		}
		runs = append(runs, &kindRun{cfg: &cfg, kind: k, st: st, dir: dir, version: version, findings: fs,
			runner: &Runner{Self: cfg.Self, Limits: cfg.Limits},
			env:    &Env{Root: cfg.Root, Shared: cfg.Shared, Work: filepath.Join(dir, "work"), Sanitrace: cfg.Sanitrace, Tools: tools}})
	}
	var mu sync.Mutex
	busy := map[*kindRun]bool{}
	pick := func() *kindRun {
		mu.Lock()
		defer mu.Unlock()
		var best *kindRun
		for _, kr := range runs {
			if busy[kr] || kr.err != nil || kr.st.Next >= cfg.N {
				continue
			}
			if best == nil || kr.st.Next < best.st.Next {
				best = kr
			}
		}
		if best != nil {
			busy[best] = true
		}
		return best
	}
	var wg sync.WaitGroup
	for range max(cfg.Jobs, 1) {
		wg.Go(func() {
			for ctx.Err() == nil {
				kr := pick()
				if kr == nil {
					return
				}
				kr.err = kr.chunk(ctx)
				if kr.err != nil && cfg.Progress != nil {
					fmt.Fprintf(cfg.Progress, "%s: %v\n", kr.kind.Name, kr.err)
				}
				mu.Lock()
				delete(busy, kr)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var states []*State
	var errs []error
	for _, kr := range runs {
		states = append(states, kr.st)
		if kr.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", kr.kind.Name, kr.err))
		}
	}
	return states, errors.Join(errs...)
}

// sanitraceVersion returns what "sanitrace version" names the build by.
func sanitraceVersion(bin string) (string, error) {
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %w", bin, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimPrefix(first, "sanitrace "), nil
}

// load reads the kind's seeds once and checks them against the state.
func (kr *kindRun) load() error {
	if kr.seeds != nil {
		return nil
	}
	for _, d := range []string{"in", "cwd", "tmp", "home"} {
		if err := os.MkdirAll(filepath.Join(kr.env.Work, d), 0o755); err != nil {
			return err
		}
	}
	seeds, err := kr.kind.Seeds(kr.env)
	if err != nil {
		return err
	}
	if len(seeds) == 0 {
		return errors.New("no seeds")
	}
	set := seedSet(seeds)
	if kr.st.SeedSet != "" && kr.st.SeedSet != set {
		return fmt.Errorf("the seeds differ from those of the run in %s (../shared came or went, or testdata changed): give -reset to start this kind again", kr.dir)
	}
	kr.st.SeedSet, kr.st.Seeds = set, len(seeds)
	for _, s := range seeds {
		if s.donor && len(s.Target.Data) < 4<<20 {
			kr.donors = append(kr.donors, s.Target.Data)
			kr.donorOf = append(kr.donorOf, s)
		}
	}
	kr.seeds = seeds
	return nil
}

// chunk runs the next cfg.Chunk mutants of the kind.
func (kr *kindRun) chunk(ctx context.Context) error {
	if err := kr.load(); err != nil {
		return err
	}
	start := time.Now()
	if kr.st.Started.IsZero() {
		kr.st.Started = start
	}
	kr.st.addVersion(kr.version)
	kr.st.Timeout, kr.st.MemoryMB = kr.cfg.Limits.Timeout.String(), kr.cfg.Limits.Memory>>20
	end := min(kr.st.Next+kr.cfg.Chunk, kr.cfg.N)
	for kr.st.Next < end && ctx.Err() == nil {
		t0 := time.Now()
		done, err := kr.mutant(ctx, kr.st.Next)
		if err != nil {
			return err
		}
		if !done {
			break // interrupted: this mutant is run again next time
		}
		kr.st.Next++
		kr.st.Seconds += time.Since(t0).Seconds()
		kr.st.Updated = time.Now()
		if err := kr.st.Save(kr.cfg.State); err != nil {
			return err
		}
	}
	if kr.cfg.Progress != nil {
		fmt.Fprintf(kr.cfg.Progress, "%-8s %6d/%d  %s  (%s)\n", kr.kind.Name, kr.st.Next, kr.cfg.N, summary(kr.st), time.Since(start).Round(time.Second))
	}
	return nil
}

func summary(st *State) string {
	var parts []string
	for _, c := range Classes {
		if n := st.Counts.Classes[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// Make returns mutant i of kind k and the seed it was made from; donors
// are the kind's project seeds.
func Make(k *Kind, seeds []*Seed, donors [][]byte, i int) (*Seed, mutate.Mutant) {
	s := seeds[i%len(seeds)]
	return s, MakeFrom(k, s, donors, i)
}

// MakeFrom returns mutant i of seed s: the same bytes for the same kind,
// seed name and number, whatever the other seeds.
func MakeFrom(k *Kind, s *Seed, donors [][]byte, i int) mutate.Mutant {
	r := mutate.NewRand(k.Name, s.Name, strconv.Itoa(i))
	edits := k.Edits(r)
	if s.Wrap != "" && s.Inner != nil && r.Percent(50) {
		m := mutate.Mutate(r, s.Inner, donors, edits)
		for j, op := range m.Ops {
			m.Ops[j] = "inside the " + s.Wrap + " compression: " + op
		}
		m.Data = wrap(s.Wrap, m.Data)
		return m
	}
	return mutate.Mutate(r, &s.Target, donors, edits)
}

// writeInput puts data at path, rewriting only the 1 MiB blocks that
// differ from what the previous mutant left there when the size is the
// same: a core file is tens of megabytes, a mutation a few bytes.
func (kr *kindRun) writeInput(path string, data []byte) error {
	const block = 1 << 20
	if kr.written != nil && len(kr.written) == len(data) && len(data) > 4*block {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			for off := 0; off < len(data); off += block {
				end := min(off+block, len(data))
				if !bytes.Equal(kr.written[off:end], data[off:end]) {
					if _, err = f.WriteAt(data[off:end], int64(off)); err != nil {
						break
					}
				}
			}
			if cerr := f.Close(); err == nil && cerr == nil {
				kr.written = data
				return nil
			}
		}
	}
	kr.written = nil
	// The previous mutant may have had another name (archives keep their
	// suffix): only this one may be in the directory.
	ents, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range ents {
		if e.Name() != filepath.Base(path) {
			os.RemoveAll(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	kr.written = data
	return nil
}

// mutant makes and runs mutant i; it returns false when ctx ended in the
// middle (the mutant is not counted).
func (kr *kindRun) mutant(ctx context.Context, i int) (bool, error) {
	s, m := Make(kr.kind, kr.seeds, kr.donors, i)
	inDir := filepath.Join(kr.env.Work, "in")
	in := filepath.Join(inDir, "mutant"+s.Ext)
	if err := kr.writeInput(in, m.Data); err != nil {
		return false, err
	}
	seen := map[Class]bool{}
	var decoded []Report // decode --format json's reports of this mutant, for AsDecode
	decodedOK := false
	for _, c := range kr.kind.Commands(kr.env, s, in) {
		if c.Ref && !kr.cfg.Refs {
			continue
		}
		res := kr.run(ctx, c)
		if ctx.Err() != nil {
			return false, nil
		}
		if res.Err != nil {
			return false, fmt.Errorf("%s: %w", c.Name, res.Err)
		}
		if c.Ref {
			if err := kr.countRef(c, res, s, i, m, in); err != nil {
				return false, err
			}
			continue
		}
		kr.st.Counts.Runs++
		kr.countExit(c.Name, res)
		fs := classify(res, c.Name, c.JSON, c.Human, c.Batch, kr.cfg.Limits.Memory)
		if c.Sandbox {
			if left := kr.leftovers(inDir, filepath.Base(in)); left != "" {
				fs = append(fs, Finding{Class: Written, Detail: left, Sig: string(Written) + "|" + c.Name + "|" + s.Name})
			}
		}
		if c.Lost && !res.TimedOut && res.Signal == 0 {
			fs = append(fs, kr.lostCheck(ctx, s, m, c, res)...)
			if res.Exit != 2 {
				var perr error
				decoded, perr = ParseReports(res.Stdout)
				decodedOK = perr == nil
			}
		}
		if c.AsDecode && decodedOK && !res.TimedOut && res.Signal == 0 {
			fs = append(fs, asDecode(c, s, decoded, res)...)
		}
		for _, f := range fs {
			seen[f.Class] = true
			if err := kr.record(f, c, s, i, m, res, in); err != nil {
				return false, err
			}
		}
	}
	kr.st.Counts.Mutants++
	for c := range seen {
		kr.st.Counts.Classes[c]++
	}
	return true, nil
}

// run runs c in the kind's sandbox, confirming a timeout once.
func (kr *kindRun) run(ctx context.Context, c Command) Result {
	w := kr.env.Work
	r := Spec{Path: c.Path, Args: c.Args, Stdin: c.Stdin, Dir: filepath.Join(w, "cwd"), Quit: c.Go, Env: []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(w, "home"), "TMPDIR=" + filepath.Join(w, "tmp"),
		"LANG=C.UTF-8", "TERM=dumb",
	}}
	res := kr.runner.Run(ctx, r)
	if res.TimedOut && ctx.Err() == nil {
		res = kr.runner.Confirm(ctx, r)
		if !res.TimedOut {
			if c.Ref {
				kr.ref(c).Slow++
			} else {
				kr.st.Counts.Slow++
			}
		}
	}
	return res
}

func (kr *kindRun) countExit(cmd string, res Result) {
	if kr.st.Counts.Exits == nil {
		kr.st.Counts.Exits = map[string]map[string]int{}
	}
	m := kr.st.Counts.Exits[cmd]
	if m == nil {
		m = map[string]int{}
		kr.st.Counts.Exits[cmd] = m
	}
	if kr.st.Counts.PeakRSS == nil {
		kr.st.Counts.PeakRSS = map[string]int64{}
	}
	kr.st.Counts.PeakRSS[cmd] = max(kr.st.Counts.PeakRSS[cmd], res.MaxRSS>>20)
	status := strconv.Itoa(res.Exit)
	switch {
	case res.TimedOut:
		status = "timeout"
	case res.Signal != 0:
		status = "signal"
	}
	m[status]++
}

func (kr *kindRun) ref(c Command) *RefCounts {
	rc := kr.st.Refs[c.Name]
	if rc == nil {
		rc = &RefCounts{}
		kr.st.Refs[c.Name] = rc
	}
	return rc
}

// countRef counts a reference tool's run; its first crash, hang or run
// over memory of each kind (a crash by its signal) is kept as a finding
// too, so that it can be shown to the tool's authors.
func (kr *kindRun) countRef(c Command, res Result, s *Seed, i int, m mutate.Mutant, in string) error {
	rc := kr.ref(c)
	rc.Runs++
	rc.PeakRSS = max(rc.PeakRSS, res.MaxRSS>>20)
	class := refClass(res, kr.cfg.Limits.Memory)
	what := class
	switch class {
	case "":
		return nil
	case "crash":
		rc.Crashes++
		if rc.Signals == nil {
			rc.Signals = map[string]int{}
		}
		sig := unix.SignalName(res.Signal)
		rc.Signals[sig]++
		what += " " + sig
	case "hang":
		rc.Hangs++
	case "memory":
		rc.Memory++
	}
	f := Finding{Class: Class("ref-" + class), Detail: c.Name + ": " + what, Sig: "ref|" + c.Name + "|" + what}
	return kr.record(f, c, s, i, m, res, in)
}

// leftovers lists what a run left in the sandbox (its working and
// temporary directories, the input's directory but for the input) and
// clears it.
func (kr *kindRun) leftovers(inDir, input string) string {
	var left []string
	for _, d := range []string{filepath.Join(kr.env.Work, "cwd"), filepath.Join(kr.env.Work, "tmp"), inDir} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if d == inDir && e.Name() == input {
				continue
			}
			left = append(left, filepath.Join(filepath.Base(d), e.Name()))
			os.RemoveAll(filepath.Join(d, e.Name()))
		}
	}
	if len(left) == 0 {
		return ""
	}
	return "left behind: " + strings.Join(left, ", ")
}

// lostCheck applies the lost-report rule (touch.go) to a run of decode
// --format json on mutant m of s.
func (kr *kindRun) lostCheck(ctx context.Context, s *Seed, m mutate.Mutant, c Command, res Result) []Finding {
	if res.Exit == 2 {
		kr.st.Counts.Refused++
		return nil
	}
	base := kr.baseline(ctx, s)
	if base.err != nil {
		return nil
	}
	want := Untouched(s.Target.Data, m.Data, base.reports)
	if m.Whole > 0 && len(m.Ops) == 1 && len(want) == len(base.reports) {
		// A whole log pasted in outside the seed's reports: its reports
		// are expected too.
		db := kr.baseline(ctx, kr.donorOf[m.Whole-1])
		if db.err != nil {
			return nil
		}
		want = append(want, db.reports...)
	}
	if len(want) == 0 {
		return nil
	}
	kr.st.Counts.Compared++
	got, err := ParseReports(res.Stdout)
	if err != nil {
		return nil // counted as invalid JSON
	}
	lost := Missing(want, got)
	kr.st.Counts.LostReports += len(lost)
	var out []Finding
	for _, r := range lost {
		out = append(out, Finding{Class: Lost, Detail: "lost " + r.String(),
			Sig: string(Lost) + "|" + c.Name + "|" + s.Name + "|" + normalize(r.Tool+" "+r.Kind)})
	}
	return out
}

// asDecode finds the reports of decode's run that batch's run on the same
// log does not have: batch reads every log decode reads, with the same
// parser (finding F3 was batch skipping a log decode read).
func asDecode(c Command, s *Seed, decoded []Report, res Result) []Finding {
	got, err := ParseReports(res.Stdout)
	if err != nil {
		return nil // counted as invalid JSON
	}
	var out []Finding
	for _, r := range Missing(decoded, got) {
		out = append(out, Finding{Class: Lost, Detail: "batch lost " + r.String() + " that decode found",
			Sig: string(Lost) + "|" + c.Name + "|" + s.Name + "|" + normalize(r.Tool+" "+r.Kind)})
	}
	return out
}

// baseline decodes the unmutated seed once.
func (kr *kindRun) baseline(ctx context.Context, s *Seed) *baseline {
	if s.baseline != nil {
		return s.baseline
	}
	b := &baseline{}
	path := filepath.Join(kr.env.Work, "base"+s.Ext)
	if err := os.WriteFile(path, s.Target.Data, 0o644); err != nil {
		b.err = err
		return b
	}
	defer os.Remove(path)
	for _, c := range kr.kind.Commands(kr.env, s, path) {
		if !c.Lost {
			continue
		}
		res := kr.run(ctx, c)
		if res.Err != nil || res.TimedOut || res.Exit == 2 {
			b.err = fmt.Errorf("seed %s: decode failed", s.Name)
			break
		}
		b.reports, b.err = ParseReports(res.Stdout)
		break
	}
	if ctx.Err() == nil {
		s.baseline = b
	}
	return b
}

// record counts a finding under its signature and saves the first input
// that showed it.
func (kr *kindRun) record(f Finding, c Command, s *Seed, i int, m mutate.Mutant, res Result, in string) error {
	id := findingID(f)
	r := kr.findings[id]
	if r != nil {
		r.Count++
		if len(r.Mutants) < 50 {
			r.Mutants = append(r.Mutants, i)
		}
		return saveFinding(filepath.Join(kr.dir, "findings", id), r)
	}
	argv := []string{filepath.Base(c.Path)}
	for _, a := range c.Args {
		argv = append(argv, strings.ReplaceAll(a, in, "INPUT"))
	}
	stderr := res.Stderr
	if len(stderr) > 8<<10 {
		stderr = stderr[:8<<10]
	}
	r = &FindingRecord{Sig: f.Sig, Class: f.Class, Kind: kr.kind.Name, Seed: s.Name, Mutant: i, Ops: m.Ops,
		Command: c.Name, Argv: argv, Detail: f.Detail, Exit: res.Exit, MaxRSS: res.MaxRSS >> 20,
		Seconds: res.Duration.Seconds(), Stderr: string(stderr), Count: 1, Mutants: []int{i},
		Repro: fmt.Sprintf("sanitrace-campaign -repro %s:%d -seed %s -o input%s", kr.kind.Name, i, s.Name, s.Ext)}
	if res.Signal != 0 {
		r.Signal = res.Signal.String()
	}
	kr.findings[id] = r
	dir := filepath.Join(kr.dir, "findings", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "input"+s.Ext), m.Data, 0o644); err != nil {
		return err
	}
	return saveFinding(dir, r)
}

// LoadSeeds returns kind k's seeds as a campaign with env would see them,
// and its donors.
func LoadSeeds(k *Kind, env *Env) ([]*Seed, [][]byte, error) {
	kr := &kindRun{kind: k, env: env, st: &State{}}
	if err := kr.load(); err != nil {
		return nil, nil, err
	}
	return kr.seeds, kr.donors, nil
}
