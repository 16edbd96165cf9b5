package batch

import (
	"testing"

	"github.com/sanitrace/sanitrace/wire"
)

// TestGroupSimilar: buckets of one tool and kind whose in-app signatures
// share their first two named frames are joined into the biggest; other
// kinds, fallback signatures and "[module]" frames are never joined.
func TestGroupSimilar(t *testing.T) {
	bucket := func(id, sig, from string, count int, reports ...int) wire.Bucket {
		return wire.Bucket{ID: id, Signature: "AddressSanitizer:" + sig, SignatureFrom: from, Tool: "AddressSanitizer",
			Kind: sig[:len("heap-use-after-free")], Count: count, Reports: reports, New: true}
	}
	doc := &wire.Batch{Reports: make([]wire.BatchReport, 7)}
	doc.Buckets = []wire.Bucket{
		bucket("a", "heap-use-after-free:f|g|h", FromInApp, 3, 0, 2, 4),
		bucket("b", "heap-use-after-free:f|g|k", FromInApp, 2, 1, 3),
		bucket("c", "heap-use-after-free:f|g", FromFallback, 1, 5),
		bucket("d", "heap-use-after-free:[p]|[p]|x", FromInApp, 1, 6),
	}
	for i := range doc.Reports {
		doc.Reports[i].Source.Path = string(rune('0' + i))
	}
	for _, b := range doc.Buckets {
		for _, ri := range b.Reports {
			doc.Reports[ri].Bucket = b.ID
		}
	}
	groupSimilar(doc, func(id string) bool { return id != "b" })
	if len(doc.Buckets) != 3 {
		t.Fatalf("%d buckets: %+v", len(doc.Buckets), doc.Buckets)
	}
	a := doc.Buckets[0]
	if a.ID != "a" || a.Count != 5 || len(a.Merged) != 1 || a.Merged[0].ID != "b" || a.New {
		t.Errorf("joined bucket %+v", a)
	}
	if want := []int{0, 1, 2, 3, 4}; len(a.Reports) != 5 || a.Reports[1] != 1 || a.Last.Path != "4" {
		t.Errorf("reports %v, last %v; want %v", a.Reports, a.Last, want)
	}
	if doc.Reports[1].Bucket != "a" || doc.Reports[3].Bucket != "a" || doc.Reports[5].Bucket != "c" {
		t.Errorf("reports not moved to the joined bucket")
	}
}
