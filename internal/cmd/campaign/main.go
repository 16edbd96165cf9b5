// Command sanitrace-campaign runs the reliability campaign (package
// internal/campaign, docs/reliability.md): make campaign N=10000.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/sanitrace/sanitrace/internal/campaign"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == campaign.WrapArg {
		os.Exit(campaign.Wrap(os.Args[2:]))
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "sanitrace-campaign:", err)
		os.Exit(1)
	}
}

func kindNames() string {
	var names []string
	for _, k := range campaign.Kinds {
		names = append(names, k.Name)
	}
	return strings.Join(names, ",")
}

func run() error {
	n := flag.Int("n", 1000, "mutants per kind in all: a rerun goes on from where the last one stopped up to `N`")
	jobs := flag.Int("j", min(2, runtime.NumCPU()), "kinds run at once")
	kinds := flag.String("kinds", kindNames(), "the input kinds, comma-separated")
	state := flag.String("state", "bin/campaign", "the state `dir`ectory: a directory per kind with its progress and findings")
	bin := flag.String("sanitrace", "bin/sanitrace", "the sanitrace binary under test")
	root := flag.String("root", ".", "the repository (its testdata/ holds the seeds)")
	shared := flag.String("shared", "../shared", "the shared reference tree (more seeds); left out when it does not exist or is \"\"")
	timeout := flag.Duration("timeout", 30*time.Second, "wall-clock bound of a run (a run over it is run once more with twice the time before it counts as a hang)")
	memMiB := flag.Int64("mem", 512, "peak RSS bound of a run, in MiB (the address space is capped at this plus 2 GiB)")
	refs := flag.Bool("refs", true, "run the reference tools (llvm-symbolizer 14 and 19, addr2line, eu-addr2line, eu-stack, gdb, readelf) on the same mutants")
	chunk := flag.Int("chunk", 25, "mutants a worker runs of one kind before it looks at the others")
	table := flag.Bool("table", false, "print the figures of the state directory as Markdown and exit")
	findings := flag.Bool("findings", false, "list the findings of the state directory and exit")
	reset := flag.Bool("reset", false, "forget the state and findings of the kinds first")
	repro := flag.String("repro", "", "write mutant `KIND:I` (to -o) and say how it was made, instead of running")
	seed := flag.String("seed", "", "with -repro: the seed's name, when the seed set differs from the campaign's (it is in the finding)")
	out := flag.String("o", "", "with -repro: the file to write the mutant to")
	fuzz := flag.String("fuzzseed", "", "with -repro: also write the mutant as a Go fuzz corpus file ([]byte) at `path`")
	flag.Parse()

	absRoot, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	sharedDir := ""
	if *shared != "" {
		p := *shared
		if !filepath.IsAbs(p) {
			p = filepath.Join(absRoot, p)
		}
		if _, err := os.Stat(filepath.Join(p, "corpus")); err == nil {
			sharedDir = p
		} else {
			fmt.Fprintf(os.Stderr, "sanitrace-campaign: no shared tree at %s: the seeds are the project's own\n", *shared)
		}
	}
	kindList := strings.Split(*kinds, ",")
	absState, err := filepath.Abs(*state)
	if err != nil {
		return err
	}
	if *repro != "" {
		return reproduce(*repro, *seed, *out, *fuzz, absRoot, sharedDir, absState)
	}
	if *table || *findings {
		var states []*campaign.State
		for _, k := range kindList {
			st, err := campaign.LoadState(absState, k)
			if err != nil {
				return err
			}
			if st.Seeds > 0 { // a kind never run has no figures
				states = append(states, st)
			}
		}
		if *table {
			campaign.Table(os.Stdout, states)
		}
		if *findings {
			list, err := campaign.Findings(absState, kindList)
			if err != nil {
				return err
			}
			for _, f := range list {
				fmt.Printf("%-8s %-12s %5d  %s: %s\n         %s\n", f.Kind, f.Class, f.Count, f.Command, f.Detail, f.Repro)
			}
		}
		return nil
	}
	if *reset {
		for _, k := range kindList {
			if err := os.RemoveAll(filepath.Join(absState, k)); err != nil {
				return err
			}
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	absBin, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	states, err := campaign.Run(ctx, campaign.Config{
		Root: absRoot, Shared: sharedDir, Sanitrace: absBin, Self: self, State: absState,
		N: *n, Jobs: *jobs, Chunk: *chunk, Kinds: kindList, Refs: *refs, Progress: os.Stderr,
		Limits: campaign.Limits{Timeout: *timeout, Memory: *memMiB << 20},
	})
	if len(states) > 0 {
		fmt.Println()
		campaign.Table(os.Stdout, states)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "sanitrace-campaign: interrupted; run it again to go on")
	}
	return err
}

// reproduce writes mutant KIND:I and says what it is.
func reproduce(spec, seedName, out, fuzz, root, shared, state string) error {
	kindName, num, ok := strings.Cut(spec, ":")
	k := campaign.KindNamed(kindName)
	var i int
	if _, err := fmt.Sscan(num, &i); !ok || err != nil || k == nil {
		return fmt.Errorf("-repro %q: want KIND:NUMBER with KIND one of %s", spec, kindNames())
	}
	env := &campaign.Env{Root: root, Shared: shared, Work: filepath.Join(state, kindName, "work")}
	seeds, donors, err := campaign.LoadSeeds(k, env)
	if err != nil {
		return err
	}
	s := seeds[i%len(seeds)]
	if seedName != "" {
		s = nil
		for _, c := range seeds {
			if c.Name == seedName {
				s = c
			}
		}
		if s == nil {
			return fmt.Errorf("no seed %q of kind %s here (is ../shared where it was?)", seedName, kindName)
		}
	}
	m := campaign.MakeFrom(k, s, donors, i)
	fmt.Printf("kind %s, mutant %d, seed %s\n", kindName, i, s.Name)
	for _, op := range m.Ops {
		fmt.Println("  " + op)
	}
	if out != "" {
		if err := os.WriteFile(out, m.Data, 0o644); err != nil {
			return err
		}
		fmt.Println("written to", out)
		for _, c := range k.Commands(env, s, out) {
			fmt.Printf("  %s %s\n", filepath.Base(c.Path), strings.Join(c.Args, " "))
		}
	}
	if fuzz != "" {
		if err := os.MkdirAll(filepath.Dir(fuzz), 0o755); err != nil {
			return err
		}
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", m.Data)
		if err := os.WriteFile(fuzz, []byte(body), 0o644); err != nil {
			return err
		}
		fmt.Println("fuzz seed written to", fuzz)
	}
	return nil
}
