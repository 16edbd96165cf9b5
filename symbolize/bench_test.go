package symbolize

import (
	"testing"
)

// BenchmarkSymbolizeMany measures a batch of every-5th-byte addresses of a
// C++ fixture with inline chains (open excluded).
func BenchmarkSymbolizeMany(b *testing.B) {
	path := fixture(b, "cxx-O2-dw5")
	addrs := fixtureAddrs(b, path)
	opts := LookupOptions{Inlines: true, Demangle: true}
	for i := 0; i < b.N; i++ {
		o, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		o.SymbolizeMany(addrs, opts)
		o.Close()
	}
}

// BenchmarkSymbolizeWarm measures single lookups once the unit is decoded.
func BenchmarkSymbolizeWarm(b *testing.B) {
	path := fixture(b, "cxx-O2-dw5")
	addrs := fixtureAddrs(b, path)
	o, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	opts := LookupOptions{Inlines: true, Demangle: true}
	o.SymbolizeMany(addrs, opts)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.Symbolize(addrs[i%len(addrs)], opts)
	}
}

// BenchmarkOpen measures opening (symbol tables + unit index).
func BenchmarkOpen(b *testing.B) {
	path := fixture(b, "cxx-O2-dw5")
	for i := 0; i < b.N; i++ {
		o, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		o.Close()
	}
}
