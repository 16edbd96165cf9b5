package batch

import (
	"slices"
	"strings"

	"github.com/sanitrace/sanitrace/wire"
)

// SimilarFrames is how many leading in-app frames two signatures of one
// tool and kind share, in order, for --group similar to make them one
// bucket (ClusterFuzz's crash comparer likewise treats crash states that
// agree on their top frames as one crash).
const SimilarFrames = 2

// groupSimilar joins the buckets of doc whose signatures are made of
// in-app frames and agree on tool, kind and their first SimilarFrames
// frames: the bucket with most reports keeps its id and signature, takes
// the others' reports and lists them in Merged; it is new only when all
// of them are. Buckets are sorted by
// count on entry and on return.
func groupSimilar(doc *wire.Batch, isNew func(id string) bool) {
	keep := make(map[string]int) // similarity key -> index in out
	out := doc.Buckets[:0:0]
	moved := false
	for _, b := range doc.Buckets {
		key, ok := similarKey(&b)
		if !ok {
			out = append(out, b)
			continue
		}
		i, seen := keep[key]
		if !seen {
			keep[key] = len(out)
			out = append(out, b)
			continue
		}
		moved = true
		into := &out[i]
		into.Merged = append(into.Merged, wire.MergedBucket{ID: b.ID, Signature: b.Signature, Count: b.Count})
		into.Count += b.Count
		into.Reports = append(into.Reports, b.Reports...)
		for _, ri := range b.Reports {
			doc.Reports[ri].Bucket = into.ID
		}
		// Known when any of the joined buckets is known.
		into.New = into.New && isNew(b.ID)
	}
	if !moved {
		return
	}
	for i := range out {
		b := &out[i]
		if len(b.Merged) == 0 {
			continue
		}
		slices.Sort(b.Reports)
		b.First = doc.Reports[b.Reports[0]].Source
		b.Last = doc.Reports[b.Reports[len(b.Reports)-1]].Source
	}
	sortBuckets(out)
	doc.Buckets = out
}

// similarKey is the key buckets agree on to be joined; ok is false for a
// bucket that is never joined (a signature of fewer than SimilarFrames
// named frames, or not made of in-app frames).
func similarKey(b *wire.Bucket) (string, bool) {
	if b.SignatureFrom != FromInApp {
		return "", false
	}
	fs := b.Frames()
	if len(fs) < SimilarFrames {
		return "", false
	}
	for _, f := range fs[:SimilarFrames] {
		if strings.HasPrefix(f, "[") {
			return "", false // "[module]": no function known, nothing to compare
		}
	}
	return b.Tool + "\x00" + b.Kind + "\x00" + strings.Join(fs[:SimilarFrames], "\x00"), true
}
