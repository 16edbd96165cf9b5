// Package gctune sets the garbage collector's growth allowance from the
// live heap, for runs whose live heap grows from a few MB to tens.
//
// GOGC's allowance is a percentage of the live heap: right for a heap of
// steady size, wrong at both ends of one that grows. While the live heap
// is small the default collects every few MB of allocation (a decode run
// spent 14% of its CPU so), and once it is large the same percentage lets
// the heap grow by tens of MB before collecting (most of the peak RSS of a
// symbolizer session on a big C++ binary). A Tuner gives the heap about a
// fixed number of bytes to grow instead, within a range of percentages.
package gctune

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// Policy is a Tuner's rule: a collection after about Headroom bytes of
// new allocation, as a percentage in [MinPercent, MaxPercent], set again
// every Every ticks.
type Policy struct {
	Headroom               uint64
	MinPercent, MaxPercent int
	Every                  int
}

// A Tuner applies a Policy; its methods do nothing on a nil Tuner.
type Tuner struct {
	p      Policy
	prev   int
	set    int
	n      int
	sample []metrics.Sample
}

// Start sets the collector's percentage to p.MaxPercent and returns a Tuner
// that adjusts it. (A caller leaves alone a run whose environment sets
// GOGC: its Tuner is nil.)
func Start(p Policy) *Tuner {
	t := &Tuner{p: p, set: p.MaxPercent, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.prev = debug.SetGCPercent(p.MaxPercent)
	return t
}

// StartUnlessSet is Start, or nil when the environment sets GOGC: a run
// whose user chose the collector's percentage keeps it.
func StartUnlessSet(p Policy) *Tuner {
	if _, set := os.LookupEnv("GOGC"); set {
		return nil
	}
	return Start(p)
}

// Tick is called once per unit of work (a report, a batch of queries);
// every Every ticks it sets the percentage that gives the live heap
// Headroom to grow.
func (t *Tuner) Tick() {
	if t == nil {
		return
	}
	t.n++
	if t.n%max(t.p.Every, 1) != 0 {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := max(t.sample[0].Value.Uint64(), 1)
	pct := int(min(t.p.Headroom*100/live, uint64(t.p.MaxPercent)))
	pct = max(pct, t.p.MinPercent)
	if pct != t.set {
		t.set = pct
		debug.SetGCPercent(pct)
	}
}

// Stop restores the percentage the run started with.
func (t *Tuner) Stop() {
	if t != nil {
		debug.SetGCPercent(t.prev)
	}
}
