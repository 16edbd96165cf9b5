package resolve

import (
	"sync/atomic"
	"testing"
)

// TestFanOut: every call runs, at most max at once; a panic in one is
// raised again in the caller once all have run.
func TestFanOut(t *testing.T) {
	var ran, running, most atomic.Int32
	fanOut(20, 3, func(int) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		ran.Add(1)
		running.Add(-1)
	})
	if ran.Load() != 20 || most.Load() > 3 {
		t.Errorf("ran %d, %d at once; want 20, at most 3", ran.Load(), most.Load())
	}
	ran.Store(0)
	defer func() {
		if p := recover(); p != "boom" || ran.Load() != 4 {
			t.Errorf("recovered %v after %d calls; want boom after 4", p, ran.Load())
		}
	}()
	fanOut(5, 2, func(i int) {
		if i == 2 {
			panic("boom")
		}
		ran.Add(1)
	})
	t.Error("no panic in the caller")
}
