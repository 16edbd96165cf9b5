package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

var sink [][]byte

// TestTuner checks the percentages a Tuner sets for a small and a large
// live heap, that a nil Tuner does nothing, and that Stop restores the
// percentage Start found.
func TestTuner(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)

	var none *Tuner
	none.Tick()
	none.Stop()
	if got := current(); got != 100 {
		t.Fatalf("a nil Tuner changed the percentage to %d", got)
	}

	tu := Start(Policy{Headroom: 16 << 20, MinPercent: 25, MaxPercent: 35, Every: 2})
	if got := current(); got != 35 {
		t.Fatalf("after Start: %d%%, want MaxPercent 35", got)
	}
	// A small live heap: the most the policy allows.
	runtime.GC()
	tu.Tick()
	tu.Tick()
	if got := current(); got != 35 {
		t.Fatalf("small heap: %d%%, want 35", got)
	}
	// A live heap of 96 MB: 16 MB of it is 17%, below MinPercent.
	for range 96 {
		sink = append(sink, make([]byte, 1<<20))
	}
	runtime.GC()
	tu.Tick()
	if got := current(); got != 35 {
		t.Fatalf("first of every 2 ticks: %d%%, want it unchanged (35)", got)
	}
	tu.Tick()
	if got := current(); got != 25 {
		t.Fatalf("96 MB heap: %d%%, want MinPercent 25", got)
	}
	sink = nil
	tu.Stop()
	if got := current(); got != 100 {
		t.Fatalf("after Stop: %d%%, want the 100 it started from", got)
	}
}

// current returns the collector's percentage without changing it.
func current() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}

// TestStartUnlessSet: a GOGC in the environment keeps the collector's
// percentage (no Tuner); without one the policy's ceiling is set until
// Stop.
func TestStartUnlessSet(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	p := Policy{Headroom: 1 << 20, MinPercent: 50, MaxPercent: 300, Every: 1}

	t.Setenv("GOGC", "100")
	if tu := StartUnlessSet(p); tu != nil {
		tu.Stop()
		t.Fatal("a Tuner although the environment sets GOGC")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("percentage %d after StartUnlessSet with GOGC set, want 100", got)
	}

	os.Unsetenv("GOGC") // t.Setenv restores it
	tu := StartUnlessSet(p)
	if tu == nil {
		t.Fatal("no Tuner without GOGC")
	}
	if got := debug.SetGCPercent(300); got != 300 {
		t.Fatalf("percentage %d after StartUnlessSet, want the ceiling 300", got)
	}
	tu.Stop()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("percentage %d after Stop, want 100", got)
	}
}
