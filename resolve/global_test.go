package resolve

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

func TestTSanGlobalLocation(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "race_global"))
	obj := &fakeObject{globals: map[uint64]symbolize.DataSymbol{
		0x4088: {Name: "_ZN3app8servicedE", Demangled: "app::served", Start: 0x4080, Size: 16},
	}}
	r := New(Options{
		Finder: &debuginfo.Finder{BinaryDirs: []string{root}},
		Cache:  testCache(t, func(string) (modcache.Object, error) { return obj, nil }),
	})
	defer r.Close()
	for _, tt := range []struct {
		name, line, access, want string
	}{
		{"inside", "Location is global '<null>' at 0x000000000000 (race_global+0x4088)", "0x563024230088",
			"Location is global 'app::served' of size 16 at 0x563024230080 (race_global+0x4088)"},
		{"no access address", "Location is global '<null>' at 0x000000000000 (race_global+0x4088)", "",
			"Location is global 'app::served' of size 16 at 0x000000000000 (race_global+0x4088)"},
		{"unknown global", "Location is global '<null>' at 0x000000000000 (race_global+0x9000)", "0x1",
			"Location is global '<null>' at 0x000000000000 (race_global+0x9000)"},
		{"already named", "Location is global 'x' of size 4 at 0x5555 (race_global+0x4088)", "0x1",
			"Location is global 'x' of size 4 at 0x5555 (race_global+0x4088)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := &report.Report{Tool: "ThreadSanitizer", Location: []report.Location{{Text: tt.line}}, Input: report.InputRange{Name: "log"}}
			if tt.access != "" {
				rep.Access = &report.Access{Op: "Read", Size: 8, Address: tt.access}
			}
			parse.Fill(rep)
			r.Report(rep)
			if got := rep.Location[0].Text; got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			// The typed parts agree with the line.
			if again := rep.Location[0]; again.Kind == report.Global && again.HasSize {
				var want report.Report
				want.Location = []report.Location{{Text: tt.want}}
				parse.Fill(&want)
				if w := want.Location[0]; w.Name != again.Name || w.Size != again.Size || w.Begin != again.Begin {
					t.Errorf("typed location %+v, the line says %+v", again, w)
				}
			}
		})
	}
}

func TestTSanStripsInterceptorPrefix(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "race"))
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{
		0x10: {{Function: "__interceptor_pthread_mutex_lock"}},
	}}
	r := New(Options{Finder: &debuginfo.Finder{BinaryDirs: []string{root}}, Cache: testCache(t, func(string) (modcache.Object, error) { return obj, nil })})
	defer r.Close()
	for _, tool := range []string{"ThreadSanitizer", "AddressSanitizer"} {
		f := report.Frame{Index: 0, Module: "race", Offset: 0x10, HasOffset: true}
		rep := &report.Report{Tool: tool, Input: report.InputRange{Name: "log"}, Stacks: []report.Stack{{Frames: []report.Frame{f}}}}
		r.Report(rep)
		got := rep.Stacks[0].Frames[0].Function
		want := "__interceptor_pthread_mutex_lock"
		if tool == "ThreadSanitizer" {
			want = "pthread_mutex_lock"
		}
		if got != want {
			t.Errorf("%s: function %q, want %q", tool, got, want)
		}
	}
}
