package batch

import "github.com/sanitrace/sanitrace/internal/gctune"

// batchGC is a batch run's collector policy: a collection after about
// 96 MB of new allocation, looked at every 64 logs. A run keeps every
// report it reads, so its live heap grows from a few MB to a hundred
// (10,000 logs); the default percentage collected every few MB of the
// logs' transient allocation while that heap was small, each collection
// marking all of it again (a seventh of a run's CPU). The peak is the
// same: at the end of a large run the percentage is the default's.
var batchGC = gctune.Policy{Headroom: 96 << 20, MinPercent: 100, MaxPercent: 400, Every: 64}
