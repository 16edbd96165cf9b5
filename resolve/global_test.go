package resolve

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/symbolize"
)

func TestTSanGlobalLocation(t *testing.T) {
	root := t.TempDir()
	copyFile(t, demoBin, filepath.Join(root, "race_global"))
	obj := &fakeObject{globals: map[uint64]symbolize.DataSymbol{
		0x4088: {Name: "_ZN3app8servicedE", Demangled: "app::served", Start: 0x4080, Size: 16},
	}}
	r := New(Options{
		BinaryDirs: []string{root},
		Open:       func(string) (Object, error) { return obj, nil },
	})
	defer r.Close()
	for _, tt := range []struct {
		name, line, access, want string
	}{
		{"inside", "  Location is global '<null>' at 0x000000000000 (race_global+0x4088)", "0x563024230088",
			"  Location is global 'app::served' of size 16 at 0x563024230080 (race_global+0x4088)"},
		{"no access address", "  Location is global '<null>' at 0x000000000000 (race_global+0x4088)", "",
			"  Location is global 'app::served' of size 16 at 0x000000000000 (race_global+0x4088)"},
		{"unknown global", "  Location is global '<null>' at 0x000000000000 (race_global+0x9000)", "0x1",
			"  Location is global '<null>' at 0x000000000000 (race_global+0x9000)"},
		{"already named", "  Location is global 'x' of size 4 at 0x5555 (race_global+0x4088)", "0x1",
			"  Location is global 'x' of size 4 at 0x5555 (race_global+0x4088)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := &parse.Report{Tool: "ThreadSanitizer", Location: []string{tt.line}, Input: parse.InputRange{Name: "log"}}
			if tt.access != "" {
				rep.Access = &parse.Access{Op: "Read", Size: 8, Address: tt.access}
			}
			r.Report(rep)
			if rep.Location[0] != tt.want {
				t.Errorf("got  %q\nwant %q", rep.Location[0], tt.want)
			}
		})
	}
}

func TestTSanStripsInterceptorPrefix(t *testing.T) {
	root := t.TempDir()
	copyFile(t, demoBin, filepath.Join(root, "race"))
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{
		0x10: {{Function: "__interceptor_pthread_mutex_lock"}},
	}}
	r := New(Options{BinaryDirs: []string{root}, Open: func(string) (Object, error) { return obj, nil }})
	defer r.Close()
	for _, tool := range []string{"ThreadSanitizer", "AddressSanitizer"} {
		f := parse.Frame{Index: 0, Module: "race", Offset: 0x10, HasOffset: true}
		rep := &parse.Report{Tool: tool, Input: parse.InputRange{Name: "log"}, Stacks: []parse.Stack{{Frames: []parse.Frame{f}}}}
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
