package wire

import (
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Batch is the document of `sanitrace batch --format json`, which
// `sanitrace merge` reads back (docs/json.md). Every batch output format
// is written from it, so a merged run and an unsharded run print alike.
type Batch struct {
	Version int           `json:"version"`
	Inputs  int           `json:"inputs"`
	Reports []BatchReport `json:"reports"`
	Buckets []Bucket      `json:"buckets"`
	Errors  []BatchError  `json:"errors"`
	// Fragments are the logs' unattached fragments (frames outside every
	// report): not reports, in no bucket; absent when there were none.
	Fragments []BatchFragment `json:"fragments,omitempty"`
}

// BatchFragment is an unattached fragment plus the log it was found in
// and the lines it spans.
type BatchFragment struct {
	Fragment
	Source Source `json:"source"`
}

// BatchReport is a decode report plus where it was found and its bucket.
type BatchReport struct {
	Report
	Source Source `json:"source"`
	Bucket string `json:"bucket"`
	// Corrupted says why the report's stacks could not be read (it is in
	// a bucket of corrupted reports apart from the real ones); absent when
	// they could.
	Corrupted string `json:"corrupted,omitempty"`
}

// Source names a log (a file, or a member of an archive) and, for a
// report, the lines it spans.
type Source struct {
	Path      string  `json:"path"`
	Member    *string `json:"member"`
	FirstLine int     `json:"first_line,omitempty"`
	LastLine  int     `json:"last_line,omitempty"`
}

// Name is the source's one-word spelling: "run.log" or "ci.zip!/run.log".
func (s Source) Name() string {
	if s.Member == nil || *s.Member == "" {
		return s.Path
	}
	return s.Path + "!/" + *s.Member
}

// Bucket is one distinct bug: the reports that share a signature.
type Bucket struct {
	ID        string `json:"id"`
	Signature string `json:"signature"`
	Tool      string `json:"tool"`
	Kind      string `json:"kind"`
	Count     int    `json:"count"`
	New       bool   `json:"new"`
	Reports   []int  `json:"reports"`
	First     Source `json:"first"`
	Last      Source `json:"last"`
	// SignatureFrom says what the signature was made from: "in-app"
	// frames, a "fallback" to the top frames in groups when no frame is
	// in-app, the "headline"'s file, "none", or "corrupted" reports.
	// Absent in documents of older versions.
	SignatureFrom string `json:"signature_from,omitempty"`
	// Corrupted is the reason of the bucket's first report when the
	// bucket holds corrupted reports (BatchReport.Corrupted).
	Corrupted string `json:"corrupted,omitempty"`
	// Merged are the buckets --group similar joined into this one.
	Merged []MergedBucket `json:"merged,omitempty"`
}

// MergedBucket is a bucket that similar-crash grouping joined into
// another: its own id, signature and count of reports.
type MergedBucket struct {
	ID        string `json:"id"`
	Signature string `json:"signature"`
	Count     int    `json:"count"`
}

// Frames are the signature's frames (after "tool:kind:"), as normalised.
// Kinds may hold a colon ("KASAN: slab-out-of-bounds") and frames do
// ("ns::f"), so the bucket's own tool and kind are cut off, not split at.
func (b *Bucket) Frames() []string {
	rest, ok := strings.CutPrefix(b.Signature, b.Tool+":"+b.Kind+":")
	if !ok || rest == "" {
		return nil
	}
	return strings.Split(rest, "|")
}

// BatchError is a problem with one input; the run went on without it.
type BatchError struct {
	Source Source `json:"source"`
	Error  string `json:"error"`
}

// BatchReportOf is the batch document's form of a report found at src and
// put in the bucket with id bucket: its decode form (ReportOf) with each
// frame's User set by user (frame fi of stack si: the run's rules), or
// from the model's classification (report.Report.Class) when user is nil.
func BatchReportOf(r *report.Report, src Source, bucket string, user func(si, fi int) bool) BatchReport {
	out := BatchReport{Report: ReportOf(r), Source: src, Bucket: bucket}
	for si := range r.Stacks {
		fs := r.Stacks[si].Frames
		for fi := range fs {
			if user != nil {
				out.Stacks[si].Frames[fi].User = user(si, fi)
			} else {
				out.Stacks[si].Frames[fi].User = r.Class(&fs[fi]) == report.User
			}
		}
	}
	return out
}
