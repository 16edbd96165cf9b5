package symbolize

import "testing"

// Benchmarks of the hot paths one at a time, on the same binaries as
// bench_test.go (fixtures, plus SANITRACE_BENCH_BIN). They report
// allocations, so a change that allocates per row, per DIE or per lookup
// shows in allocs/op even where this shared machine's timing noise hides
// it. No thresholds: compare runs (docs/performance.md).

// benchEach runs run as a sub-benchmark per bench binary, with the
// binary's Object open and allocations reported; run resets the timer
// after its own setup.
func benchEach(b *testing.B, run func(b *testing.B, o *Object, path string)) {
	for _, path := range benchBinaries(b) {
		b.Run(benchName(path), func(b *testing.B) {
			o := openObject(b, path, nil)
			b.ReportAllocs()
			run(b, o, path)
		})
	}
}

// BenchmarkUnitIndex measures the unit index that Open builds: every
// unit's header and root DIE, its ranges sorted for lookups.
func BenchmarkUnitIndex(b *testing.B) {
	benchEach(b, func(b *testing.B, o *Object, _ string) {
		b.ReportMetric(float64(len(o.units.units)), "units")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, errs := o.buildUnitIndex(); len(errs) > 0 {
				b.Fatal(errs[0])
			}
		}
	})
}

// BenchmarkLineTables measures decoding every unit's line program into
// its sorted rows, what the first lookup in each unit pays.
func BenchmarkLineTables(b *testing.B) {
	benchEach(b, func(b *testing.B, o *Object, _ string) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, u := range o.units.units {
				if u.stmtList < 0 {
					continue
				}
				if _, err := decodeLineProgram(o.lineInput(o.secOf(&u.h), u)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkFunctionIndex measures the DIE walk that builds every unit's
// function index (subprograms, inlined subroutines and their ranges).
func BenchmarkFunctionIndex(b *testing.B) {
	benchEach(b, func(b *testing.B, o *Object, _ string) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, u := range o.units.units {
				if _, err := o.decodeFunctions(&u.h); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// benchQuery is one address with the unit that holds it, decoded.
type benchQuery struct {
	pc    uint64
	lines *lineTable
	funcs *funcIndex
}

// benchQueries returns path's fixture addresses that fall in a unit, with
// that unit's line table and function index decoded.
func benchQueries(b *testing.B, o *Object, path string) []benchQuery {
	b.Helper()
	var qs []benchQuery
	for _, pc := range fixtureAddrs(b, path) {
		u := o.units.unitFor(pc)
		if u == nil {
			continue
		}
		lt, _ := o.lineTable(u)
		fi, _ := o.functions(u)
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
	benchEach(b, func(b *testing.B, o *Object, path string) {
		qs := benchQueries(b, o, path)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			q.lines.lookup(q.pc)
		}
	})
}

// BenchmarkInlineChain measures finding an address's chain of inlined
// subroutines in a decoded function index (per op: one address).
func BenchmarkInlineChain(b *testing.B) {
	benchEach(b, func(b *testing.B, o *Object, path string) {
		qs := benchQueries(b, o, path)
		var buf [16]int32
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			q := &qs[i%len(qs)]
			q.funcs.chain(q.pc, buf[:0])
		}
	})
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
			var units []*unit
			all := fixtureAddrs(b, path)
			for i := 0; i < len(all); i += max(1, len(all)/64) {
				if u := o.units.unitFor(all[i]); u != nil {
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
				units[k].probe.used.Store(false)
				o.probes.Store(0)
				o.Symbolize(pcs[k], benchOpts)
			}
			b.StopTimer()
			for _, u := range units {
				if u.probe.funcsDone.Load() {
					b.Fatalf("unit at 0x%x: the full index was built: the probe gave up", u.h.off)
				}
			}
		})
	}
}
