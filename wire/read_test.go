package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// TestReadBatchErrors: what is wrong with an input that is not a batch
// document is said in the project's words.
func TestReadBatchErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty or cut short: not a whole batch --format json output"},
		{`{"version": 1, "reports": [`, "empty or cut short: not a whole batch --format json output"},
		{"[1, 2]", "not a batch --format json output: the document is a JSON array, want an object"},
		{`{"version": 1, "inputs": "three"}`, "not a batch --format json output: inputs is a JSON string, want a number"},
		{"{x", "not JSON (byte 2: invalid character 'x' looking for beginning of object key string)"},
		{`{"version": 2}`, "batch JSON version 2, want 1"},
	} {
		_, err := ReadBatch(strings.NewReader(c.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("ReadBatch(%q): error %q, want %q", c.in, got, c.want)
		}
	}
}

// TestReadBatchClassifies: a document read back has each frame's User as
// BatchReportOf gave it from the model, which the schema does not carry.
func TestReadBatchClassifies(t *testing.T) {
	frames := []report.Frame{
		{Function: "__interceptor_malloc", Module: "/usr/lib/libasan.so.8", HasPC: true, PC: 0x10},
		{Function: "schedule", File: "kernel/sched/core.c", Line: 3},
		{Function: "make_list", File: "/src/list.c", Line: 7},
		{Function: "_start", HasPC: true, PC: 0x20},
		{Module: "[stack]", HasOffset: true, Offset: 8},
	}
	for _, tool := range []string{"AddressSanitizer", report.ToolKernel} {
		r := &report.Report{Tool: tool, Kind: "k", Stacks: []report.Stack{{Title: "t", Frames: frames}}}
		br := BatchReportOf(r, Source{Path: "a.log"}, "0123456789ab")
		doc := Batch{Version: Version, Reports: []BatchReport{br}, Buckets: []Bucket{}, Errors: []BatchError{}}
		var b strings.Builder
		if err := json.NewEncoder(&b).Encode(&doc); err != nil {
			t.Fatal(err)
		}
		back, err := ReadBatch(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range back.Reports[0].Stacks[0].Frames {
			want := r.Class(&frames[i]) == report.User
			if made := br.Stacks[0].Frames[i].User; made != want {
				t.Errorf("%s frame %d: BatchReportOf's User %v, want %v", tool, i, made, want)
			}
			if f.User != want {
				t.Errorf("%s frame %d: User %v read back, want %v", tool, i, f.User, want)
			}
		}
	}
}
