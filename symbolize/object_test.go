package symbolize

import (
	"slices"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// TestReleaseResident answers half the fixture's addresses, hands the
// pages lookups read at random back (the dwarf package's TestRandomMapped
// checks there are some), and answers the rest, whose names are read
// from those pages again: every answer is an unreleased object's.
func TestReleaseResident(t *testing.T) {
	path := fx.ELF(t, "cxx-O2-dw5")
	want := openObject(t, path, noDebugDirs())
	o := openObject(t, path, noDebugDirs())
	opts := LookupOptions{Inlines: true, Demangle: true}
	addrs := fixtureAddrs(t, path)
	for i, a := range addrs {
		if i == len(addrs)/2 {
			o.ReleaseResident()
		}
		f, _ := o.Symbolize(a, opts)
		if w, _ := want.Symbolize(a, opts); !slices.Equal(f, w) {
			t.Fatalf("0x%x: %+v, want %+v", a, f, w)
		}
	}
}
