package campaign

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestSeedsOfEveryKind: every kind has seeds from the project's own
// testdata, the same ones twice over (generated archives to the byte),
// and its mutants are functions of (kind, seed, number).
func TestSeedsOfEveryKind(t *testing.T) {
	root, err := fixture.Root()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, k := range Kinds {
		env := &Env{Root: root, Work: filepath.Join(work, k.Name), Sanitrace: "sanitrace", Tools: map[string]string{}}
		seeds, donors, err := LoadSeeds(k, env)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		again, _, err := LoadSeeds(k, env)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if len(seeds) == 0 || len(donors) == 0 && k.Name != "core" || len(again) != len(seeds) { // the core (68 MiB) splices no one
			t.Fatalf("%s: %d seeds, %d donors, then %d seeds", k.Name, len(seeds), len(donors), len(again))
		}
		for i, s := range seeds {
			if s.Name != again[i].Name || !bytes.Equal(s.Target.Data, again[i].Target.Data) {
				t.Errorf("%s: seed %d is %s, then %s (or other bytes)", k.Name, i, s.Name, again[i].Name)
			}
			if strings.Contains(s.Name, root) {
				t.Errorf("%s: seed name %q holds a path of this machine", k.Name, s.Name)
			}
			if (k.Name == "dwarf" || k.Name == "cfi") && len(s.Target.Windows) == 0 {
				t.Errorf("%s: seed %s has no section to mutate", k.Name, s.Name)
			}
			if k.Name == "elf" && len(s.Addrs) < 2 {
				t.Errorf("%s: seed %s has no addresses", k.Name, s.Name)
			}
		}
		for i := range 20 {
			s, m1 := Make(k, seeds, donors, i)
			m2 := MakeFrom(k, again[i%len(again)], donors, i)
			if s.Name != again[i%len(again)].Name || !bytes.Equal(m1.Data, m2.Data) || strings.Join(m1.Ops, "|") != strings.Join(m2.Ops, "|") {
				t.Errorf("%s: mutant %d differs between two makings", k.Name, i)
			}
			if len(k.Commands(env, s, "INPUT")) == 0 {
				t.Errorf("%s: no command for seed %s", k.Name, s.Name)
			}
		}
	}
}
