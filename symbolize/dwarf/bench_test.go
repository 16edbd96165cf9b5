package dwarf

import (
	"os"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// Benchmarks of the decoders' hot paths one at a time, on the binaries of
// symbolize's benchmarks (fixtures, plus SANITRACE_BENCH_BIN, a path list,
// colon-separated). They report allocations, so a change that allocates
// per row, per DIE or per lookup shows in allocs/op even where this
// shared machine's timing noise hides it. No thresholds: compare runs
// (docs/performance.md).

// benchBinaries returns the fixtures plus the SANITRACE_BENCH_BIN binaries.
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

// benchEach runs run as a sub-benchmark per bench binary, with the
// binary's DWARF open and allocations reported; run resets the timer
// after its own setup.
func benchEach(b *testing.B, run func(b *testing.B, dw *Data, path string)) {
	for _, path := range benchBinaries(b) {
		b.Run(benchName(path), func(b *testing.B) {
			dw := openData(b, path)
			b.ReportAllocs()
			run(b, dw, path)
		})
	}
}

// BenchmarkUnitIndex measures the unit index that Open builds: every
// unit's header and root DIE, its ranges sorted for lookups.
func BenchmarkUnitIndex(b *testing.B) {
	benchEach(b, func(b *testing.B, dw *Data, _ string) {
		b.ReportMetric(float64(len(dw.Units())), "units")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, errs := dw.buildUnitIndex(); len(errs) > 0 {
				b.Fatal(errs[0])
			}
		}
	})
}

// BenchmarkLineTables measures decoding every unit's line program into
// its sorted rows, what the first lookup in each unit pays.
func BenchmarkLineTables(b *testing.B) {
	benchEach(b, func(b *testing.B, dw *Data, _ string) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, u := range dw.Units() {
				if u.stmtList < 0 {
					continue
				}
				if _, err := decodeLineProgram(dw.lineInput(dw.secOf(&u.h), u)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkFunctionIndex measures the DIE walk that builds every unit's
// function index (subprograms, inlined subroutines and their ranges).
func BenchmarkFunctionIndex(b *testing.B) {
	benchEach(b, func(b *testing.B, dw *Data, _ string) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, u := range dw.Units() {
				if _, err := dw.decodeFunctions(&u.h); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// benchQuery is one address with the unit that holds it, decoded.
type benchQuery struct {
	pc    uint64
	lines *LineTable
	funcs *FuncIndex
}

// benchQueries returns path's fixture addresses that fall in a unit, with
// that unit's line table and function index decoded.
func benchQueries(b *testing.B, dw *Data, path string) []benchQuery {
	b.Helper()
	var qs []benchQuery
	for _, pc := range fixtureAddrs(b, path) {
		u := dw.UnitFor(pc)
		if u == nil {
			continue
		}
		lt, _ := dw.LineTable(u)
		fi, _ := dw.Functions(u)
		if lt != nil && fi != nil {
			qs = append(qs, benchQuery{pc, lt, fi})
		}
	}
	if len(qs) == 0 {
		b.Skip("no address falls in a unit")
	}
	return qs
}

// BenchmarkLineLookup measures finding an address's row in a decoded line
// table (per op: one address).
func BenchmarkLineLookup(b *testing.B) {
	benchEach(b, func(b *testing.B, dw *Data, path string) {
		qs := benchQueries(b, dw, path)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			q.lines.Lookup(q.pc)
		}
	})
}

// BenchmarkInlineChain measures finding an address's chain of inlined
// subroutines in a decoded function index (per op: one address).
func BenchmarkInlineChain(b *testing.B) {
	benchEach(b, func(b *testing.B, dw *Data, path string) {
		qs := benchQueries(b, dw, path)
		var buf [16]int32
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			q.funcs.Chain(q.pc, buf[:0])
		}
	})
}
