package pipeline

import "github.com/sanitrace/sanitrace/internal/gctune"

// decodeGC is a decode run's collector policy: a collection after about
// 48 MB of new allocation, looked at every 64 reports. Without
// symbolizing, the live heap is a few MB (one report at a time) and the
// default collected every few MB: about one collection per 4 MB of a large
// log, 14% of decode's CPU. With many modules open the live heap is tens
// of MB and doubling it was most of the peak RSS.
var decodeGC = gctune.Policy{Headroom: 48 << 20, MinPercent: 50, MaxPercent: 400, Every: 64}
