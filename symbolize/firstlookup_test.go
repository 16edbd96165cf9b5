package symbolize

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// probeOptions are the naming choices the probe is compared under: every
// input the LLVM style's lookup reads from a unit's DIEs and line table.
var probeOptions = []LookupOptions{
	{Inlines: true, Demangle: true},
	{Inlines: false, Demangle: true},
	{Inlines: true, RelativeNames: true},
	{Functions: FunctionsShort, Inlines: true},
	{Functions: FunctionsNone, Inlines: true},
	{Inlines: true, Demangle: true, Policy: GDB},
}

// compareFirstLookups symbolizes each address as the first lookup of its
// unit (the probe, firstlookup.go) on one object and through the full
// index on another, under every probeOptions entry, and fails on the
// first difference. It returns how many lookups the probe answered
// (those where it gave up went through the full index).
func compareFirstLookups(t *testing.T, probe, full *Object, addrs []uint64) (probed int) {
	t.Helper()
	for i := range full.looked {
		full.looked[i].Store(true) // never probes
	}
	for _, a := range addrs {
		for _, opts := range probeOptions {
			var u *dwarf.Unit
			if probe.dw != nil {
				u = probe.dw.UnitFor(a)
			}
			if u != nil {
				probe.looked[u.Index()].Store(false)
				probe.probes.Store(0)
			}
			got, gerr := probe.Symbolize(a, opts)
			want, werr := full.Symbolize(a, opts)
			if u != nil && !u.FunctionsIndexed() {
				probed++
			}
			if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
				t.Fatalf("0x%x %+v: %d and %d frames, errors %v and %v; first lookup against index, frame by frame: %s",
					a, opts, len(got), len(want), gerr, werr, golden.FirstDiff(frameLines(want), frameLines(got)))
			}
		}
	}
	return probed
}

// frameLines prints frames one a line, for golden.FirstDiff.
func frameLines(frames []Frame) string {
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%+v\n", f)
	}
	return b.String()
}

// TestFirstLookupMatchesIndex: the probe of a unit's first lookup answers
// every address of every fixture exactly as the full index does: inline
// chains, names, declaration files and lines, line rows (DWARF 2–5, C,
// C++, Rust, Go, compressed sections, dwz, a separate debug file; split
// units are never probed).
func TestFirstLookupMatchesIndex(t *testing.T) {
	if raceEnabled {
		// Sequential, and ten times slower under the detector (two and a
		// half minutes of make test's race pass): TestConcurrentLookups
		// is what that pass is for.
		t.Skip("the first-lookup comparison runs without the race detector (make test runs it in the unit pass)")
	}
	dir := filepath.Join("..", "testdata", "elf")
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".debug") && !strings.HasSuffix(p, ".dwo") && !strings.HasSuffix(p, ".dwp") {
			names = append(names, p)
		}
		return nil
	})
	if len(names) == 0 {
		t.Skip("no fixtures")
	}
	for _, path := range names {
		name, _ := filepath.Rel(dir, path)
		t.Run(name, func(t *testing.T) {
			probe, err := Open(path, noDebugDirs())
			if err != nil {
				t.Skipf("not an object: %v", err)
			}
			defer probe.Close()
			full := openObject(t, path, noDebugDirs())
			addrs := fixtureAddrs(t, path)
			// Every 7th (each function and inline chain is still hit
			// several times, at 5 * 7 = 35-byte steps), and no more than
			// 600 spread over the binary: each probe walks its whole
			// unit, and Go's runtime unit is large.
			step := max(7, len(addrs)/600)
			var some []uint64
			for i := 0; i < len(addrs); i += step {
				some = append(some, addrs[i])
			}
			n := compareFirstLookups(t, probe, full, some)
			if probe.dw != nil && n == 0 && probe.dw.UnitFor(some[len(some)/2]) != nil {
				t.Logf("the probe answered no lookup (split units are never probed)")
			}
		})
	}
}

// TestFirstLookupDamaged: on damaged DIEs, abbreviations, line programs
// and range lists (random bytes overwritten in copies of small fixtures'
// sections; FuzzDebugInfo and FuzzLineProgram do the same with the
// fuzzer's inputs), the probe answers as the full index does: it gives up
// where it cannot be sure, never answers differently.
func TestFirstLookupDamaged(t *testing.T) {
	var seeds []*dwarf.Sections
	for _, name := range []string{"c-O2-dw5-pie", "c-O0-dw4-nopie", "c-O2-dw5-clang", "cxx-O2-dw5"} {
		if s := fixtureSections(t, name); s != nil && len(s.Info) < 1<<14 {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) == 0 {
		t.Skip("no fixtures")
	}
	r := rand.New(rand.NewSource(1))
	addrs := []uint64{0x1090, 0x1130, 0x1180, 0x11f0, 0x401126, 0x4011a0}
	probed := 0
	for iter := 0; iter < 2000; iter++ {
		sec := *seeds[r.Intn(len(seeds))]
		parts := []*[]byte{&sec.Info, &sec.Abbrev, &sec.Line, &sec.Rnglists}
		for k := 0; k < 1+r.Intn(4); k++ {
			p := parts[r.Intn(len(parts))]
			if len(*p) == 0 {
				continue
			}
			*p = append([]byte(nil), *p...)
			(*p)[r.Intn(len(*p))] = byte(r.Intn(256))
		}
		probe, _ := objectOf(sec, "damaged")
		full, _ := objectOf(sec, "damaged")
		probed += compareFirstLookups(t, probe, full, addrs)
	}
	// Most damage is where no probe looks (or is harmless): the probe
	// still answers most of these lookups.
	t.Logf("%d lookups answered by the probe", probed)
}

// TestProbeBudget: an object probes the units of its first maxProbes
// lookups only; later first lookups index their unit at once.
func TestProbeBudget(t *testing.T) {
	path := fx.ELF(t, "go-trimpath")
	o := openObject(t, path, noDebugDirs())
	seen := map[*dwarf.Unit]bool{}
	var order []*dwarf.Unit
	for _, a := range fixtureAddrs(t, path) {
		if u := o.dw.UnitFor(a); u != nil && !seen[u] {
			seen[u] = true
			order = append(order, u)
			o.Symbolize(a, LookupOptions{Inlines: true})
		}
	}
	if len(order) <= maxProbes {
		t.Skipf("only %d units", len(order))
	}
	for i, u := range order {
		if indexed := u.FunctionsIndexed(); indexed != (i >= maxProbes) {
			t.Errorf("unit %d (at 0x%x): indexed %v after its first lookup", i, u.Offset(), indexed)
		}
	}
}

// TestExpectManyLookups: told that a batch follows, an object indexes a
// unit on its first lookup; SymbolizeMany tells itself so.
func TestExpectManyLookups(t *testing.T) {
	path := fx.ELF(t, "cxx-O2-dw5")
	addrs := fixtureAddrs(t, path)
	for _, tc := range []struct {
		name string
		run  func(o *Object, a uint64)
	}{
		{"ExpectManyLookups", func(o *Object, a uint64) { o.ExpectManyLookups(); o.Symbolize(a, LookupOptions{Inlines: true}) }},
		{"SymbolizeMany", func(o *Object, a uint64) { o.SymbolizeMany([]uint64{a, a + 1}, LookupOptions{Inlines: true}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := openObject(t, path, noDebugDirs())
			var u *dwarf.Unit
			for _, a := range addrs {
				if u = o.dw.UnitFor(a); u != nil {
					tc.run(o, a)
					break
				}
			}
			if u == nil {
				t.Skip("no address in a unit")
			}
			if !u.FunctionsIndexed() {
				t.Error("the unit was probed, not indexed")
			}
		})
	}
}
