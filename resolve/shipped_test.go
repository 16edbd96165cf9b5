package resolve

import (
	"reflect"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// TestShipped: a module the inputs carry is used before any search on disk,
// its key is what Open gets, and a build-id the log printed must match.
func TestShipped(t *testing.T) {
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{
		0x1360: {{Function: "shipped_fn", File: "/src/a.c", Line: 3}},
	}}
	var asked [][3]string
	var opened []string
	r := New(Options{
		Shipped: func(module, buildID, logName string) (Shipped, bool) {
			asked = append(asked, [3]string{module, buildID, logName})
			switch module {
			case "/build/ci/prog":
				return Shipped{Key: "art.tar.gz!/bin/prog", Traits: debuginfo.Traits{BuildID: "ABCD"}}, true
			case "/build/ci/other":
				return Shipped{Key: "art.tar.gz!/bin/other", Traits: debuginfo.Traits{BuildID: "1234"}}, true
			}
			return Shipped{}, false
		},
		Cache: testCache(t, func(p string) (modcache.Object, error) {
			opened = append(opened, p)
			return obj, nil
		}),
	})
	defer r.Close()
	rep := &report.Report{Input: report.InputRange{Name: "art.tar.gz!/logs/a.log"}, Stacks: []report.Stack{{
		Frames: []report.Frame{
			frame(0, "/build/ci/prog", 0x1360),
			func() report.Frame { f := frame(1, "/build/ci/other", 0x1360); f.BuildID = "ffff"; return f }(),
		},
	}}}
	r.Report(rep)
	if got := rep.Stacks[0].Frames[0].Function; got != "shipped_fn" {
		t.Errorf("frame 0: function %q, want shipped_fn", got)
	}
	if got := rep.Stacks[0].Frames[1].Symbolized; got != report.SymbolizedNone {
		t.Errorf("frame 1 (build-id mismatch): symbolized %q, want none", got)
	}
	if want := []string{"art.tar.gz!/bin/prog"}; !reflect.DeepEqual(opened, want) {
		t.Errorf("opened %q, want %q", opened, want)
	}
	if len(asked) == 0 || asked[0] != [3]string{"/build/ci/prog", "", "art.tar.gz!/logs/a.log"} {
		t.Errorf("first question %q", asked)
	}
}
