package symbolize

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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

// TestSymbolizeLastDefence: a panic under a lookup (here an object whose
// per-unit state was taken away) costs that answer, one empty Frame, and
// an ErrInternal error naming the file and the address; the session goes
// on.
func TestSymbolizeLastDefence(t *testing.T) {
	path := fx.ELF(t, "c-O2-dw5-pie")
	o := openObject(t, path, noDebugDirs())
	var a uint64
	for _, x := range fixtureAddrs(t, path) {
		if o.dw.UnitFor(x) != nil {
			a = x
			break
		}
	}
	o.looked = nil // the first lookup's bookkeeping: indexing it panics
	fr, err := o.Symbolize(a, LookupOptions{Inlines: true})
	if !errors.Is(err, ErrInternal) || len(fr) != 1 || fr[0] != (Frame{}) {
		t.Fatalf("Symbolize = %+v, %v; want one empty frame and ErrInternal", fr, err)
	}
	for _, want := range []string{path, fmt.Sprintf("0x%x", a)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}
