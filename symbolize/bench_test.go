package symbolize

import (
	"os"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// The benchmarks run on the committed fixtures; set SANITRACE_BENCH_BIN to
// a path list (colon-separated) to run them on other binaries too, e.g. the
// corpus of shared/bench (docs/performance.md). Addresses are every 5th
// byte of the executable sections, so every function and inline chain is
// hit.

// benchBinaries returns the fixture plus the SANITRACE_BENCH_BIN binaries.
func benchBinaries(b *testing.B) []string {
	bins := []string{fx.ELF(b, "cxx-O2-dw5"), fx.ELF(b, "c-O2-zlib")}
	if env := os.Getenv("SANITRACE_BENCH_BIN"); env != "" {
		bins = append(bins, strings.Split(env, ":")...)
	}
	return bins
}

func benchName(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

var benchOpts = LookupOptions{Inlines: true, Demangle: true}

// BenchmarkOpen measures opening: mapping, section headers, symbol table,
// compressed sections and the unit index.
func BenchmarkOpen(b *testing.B) {
	for _, path := range benchBinaries(b) {
		b.Run(benchName(path), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				o, err := Open(path, nil)
				if err != nil {
					b.Fatal(err)
				}
				o.Close()
			}
		})
	}
}

// BenchmarkColdLookup measures what one address in a fresh process costs
// beyond process start: opening plus the first lookup, which decodes its
// unit's line table and function index.
func BenchmarkColdLookup(b *testing.B) {
	for _, path := range benchBinaries(b) {
		addrs := fixtureAddrs(b, path)
		a := addrs[len(addrs)/2]
		b.Run(benchName(path), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				o, err := Open(path, nil)
				if err != nil {
					b.Fatal(err)
				}
				o.Symbolize(a, benchOpts)
				o.Close()
			}
		})
	}
}

// BenchmarkWarmLookup measures one lookup once every unit is decoded and
// every name demangled: the steady state of a long batch.
func BenchmarkWarmLookup(b *testing.B) {
	for _, path := range benchBinaries(b) {
		addrs := fixtureAddrs(b, path)
		b.Run(benchName(path), func(b *testing.B) {
			o := openObject(b, path, nil)
			for _, a := range addrs {
				o.Symbolize(a, benchOpts)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o.Symbolize(addrs[i%len(addrs)], benchOpts)
			}
		})
	}
}

// BenchmarkBatch measures a whole batch from a fresh Object: open, decode
// what the addresses need, look every address up (SymbolizeMany spreads
// them over the CPUs).
func BenchmarkBatch(b *testing.B) {
	for _, path := range benchBinaries(b) {
		addrs := fixtureAddrs(b, path)
		b.Run(benchName(path), func(b *testing.B) {
			b.ReportMetric(float64(len(addrs)), "addrs/op")
			for i := 0; i < b.N; i++ {
				o, err := Open(path, nil)
				if err != nil {
					b.Fatal(err)
				}
				o.SymbolizeMany(addrs, benchOpts)
				o.Close()
			}
		})
	}
}

// BenchmarkFirstLookup measures the first lookup in a unit, which probes
// the unit (firstlookup.go) instead of indexing it: one pass over its
// line program without rows, one walk over its DIEs keeping the
// functions that contain the address (per op: one address, in the units
// of the addresses spread over the binary).
func BenchmarkFirstLookup(b *testing.B) {
	for _, path := range benchBinaries(b) {
		b.Run(benchName(path), func(b *testing.B) {
			o := openObject(b, path, nil)
			var pcs []uint64
			var units []*dwarf.Unit
			all := fixtureAddrs(b, path)
			for i := 0; i < len(all); i += max(1, len(all)/64) {
				if u := o.dw.UnitFor(all[i]); u != nil {
					pcs, units = append(pcs, all[i]), append(units, u)
				}
			}
			if len(pcs) == 0 {
				b.Skip("no address falls in a unit")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(pcs)
				o.looked[units[k].Index()].Store(false)
				o.probes.Store(0)
				o.Symbolize(pcs[k], benchOpts)
			}
			b.StopTimer()
			for _, u := range units {
				if u.FunctionsIndexed() {
					b.Fatalf("unit at 0x%x: the full index was built: the probe gave up", u.Offset())
				}
			}
		})
	}
}
