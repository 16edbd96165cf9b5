package pipeline

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// gcTune sets the garbage collector's growth allowance during a decode run
// from the live heap, so that a collection comes after about gcHeadroom of
// new allocation rather than after the heap doubles. Without symbolizing,
// the live heap is a few MB (one report at a time) and the default
// collected every few MB: about one collection per 4 MB of a large log,
// 14% of decode's CPU. With many modules open the live heap is tens of MB
// and doubling it was most of the peak RSS. A run that sets GOGC keeps it.
type gcTune struct {
	on     bool
	prev   int
	n      int
	sample []metrics.Sample
}

const (
	gcHeadroom   = 48 << 20
	gcMinPercent = 50
	gcMaxPercent = 400
	gcEvery      = 64 // reports between two looks at the heap
)

func newGCTune() *gcTune {
	if _, set := os.LookupEnv("GOGC"); set {
		return &gcTune{}
	}
	t := &gcTune{on: true, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.prev = debug.SetGCPercent(gcMaxPercent)
	return t
}

// report is called after each report; every gcEvery reports it sets the
// percentage that gives the live heap gcHeadroom to grow.
func (t *gcTune) report() {
	if !t.on {
		return
	}
	t.n++
	if t.n%gcEvery != 0 {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := max(t.sample[0].Value.Uint64(), 1)
	pct := int(min(uint64(gcHeadroom)*100/live, gcMaxPercent))
	debug.SetGCPercent(max(pct, gcMinPercent))
}

// done restores the percentage the run started with.
func (t *gcTune) done() {
	if t.on {
		debug.SetGCPercent(t.prev)
	}
}
