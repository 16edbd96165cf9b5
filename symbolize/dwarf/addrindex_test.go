package dwarf

import (
	"math/rand"
	"slices"
	"testing"
)

// AddrIndex.UpperBound is upperBound: on arrays spread evenly, clustered
// (a few dense runs far apart), with duplicates, at the top of the
// address space, and for addresses at, between, below and above them.
func TestAddrIndex(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	shapes := map[string]func(n int) []uint64{
		"even": func(n int) []uint64 {
			a := make([]uint64, n)
			for i := range a {
				a[i] = 0x400000 + uint64(i)*16 + uint64(r.Intn(16))
			}
			return a
		},
		"clusters": func(n int) []uint64 {
			a := make([]uint64, n)
			for i := range a {
				a[i] = uint64(r.Intn(4))<<40 + uint64(r.Intn(1<<20))
			}
			return a
		},
		"duplicates": func(n int) []uint64 {
			a := make([]uint64, n)
			for i := range a {
				a[i] = 0x1000 + uint64(r.Intn(n/4+1))*8
			}
			return a
		},
		"top": func(n int) []uint64 {
			a := make([]uint64, n)
			for i := range a {
				a[i] = ^uint64(0) - uint64(r.Intn(1<<30))
			}
			if n > 0 {
				a[0] = ^uint64(0)
			}
			return a
		},
		"whole": func(n int) []uint64 {
			a := make([]uint64, n)
			for i := range a {
				a[i] = r.Uint64()
			}
			if n > 1 {
				a[0], a[1] = 0, ^uint64(0)
			}
			return a
		},
	}
	for name, shape := range shapes {
		for _, n := range []int{0, 1, 63, 64, 65, 1000, 20000} {
			addrs := shape(n)
			slices.Sort(addrs)
			x := NewAddrIndex(addrs)
			if n >= 64 && x.first == nil {
				t.Fatalf("%s, %d addresses: not indexed", name, n)
			}
			probes := []uint64{0, 1, ^uint64(0), ^uint64(0) - 1}
			for _, a := range addrs {
				probes = append(probes, a, a-1, a+1)
			}
			for range 2000 {
				probes = append(probes, r.Uint64())
			}
			for _, pc := range probes {
				if got, want := x.UpperBound(addrs, pc), upperBound(addrs, pc); got != want {
					t.Fatalf("%s, %d addresses, pc %#x: %d, want %d", name, n, pc, got, want)
				}
			}
			if len(x.first) > n+2 {
				t.Errorf("%s, %d addresses: %d buckets", name, n, len(x.first))
			}
		}
	}
}

// A BucketIndex over 32-bit offsets (prune's) finds what upperBound finds.
func TestBucketIndexOffsets(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, n := range []int{64, 500, 30000} {
		offs := make([]uint32, n)
		for i := range offs {
			offs[i] = uint32(r.Intn(1 << 24))
		}
		offs[n-1] = ^uint32(0)
		slices.Sort(offs)
		offs = slices.Compact(offs)
		x := newBucketIndex(offs)
		if x.first == nil {
			t.Fatalf("%d offsets: not indexed", len(offs))
		}
		probes := []uint32{0, ^uint32(0)}
		for _, o := range offs {
			probes = append(probes, o, o-1, o+1)
		}
		for _, v := range probes {
			if got, want := x.UpperBound(offs, v), upperBound(offs, v); got != want {
				t.Fatalf("%d offsets, %#x: %d, want %d", len(offs), v, got, want)
			}
		}
	}
}
