package resolve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// TestReportOneFileTwoPaths: a log naming one file by two paths (merged
// /usr: /lib/x86_64-linux-gnu/libc.so.6 and /usr/lib/x86_64-linux-gnu/libc.so.6)
// opens it once per run; each frame keeps the path its log printed. A copy
// of the file is another file, opened on its own.
func TestReportOneFileTwoPaths(t *testing.T) {
	root := t.TempDir()
	usr := filepath.Join(root, "usr", "lib", "libdemo.so")
	fixture.Copy(t, demoBin, usr)
	if err := os.Symlink(filepath.Join("usr", "lib"), filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(root, "lib", "libdemo.so")
	other := filepath.Join(root, "copy", "libdemo.so")
	fixture.Copy(t, demoBin, other)
	obj := &fakeObject{answers: map[uint64][]symbolize.Frame{0x13cd: {{Function: "main", File: "/src/a.c", Line: 20, Column: 1}}}}
	var opened []string
	r := New(Options{
		Finder: &debuginfo.Finder{DebugDirs: []string{}},
		Cache: testCache(t, func(p string) (modcache.Object, error) {
			opened = append(opened, p)
			return obj, nil
		}),
	})
	defer r.Close()
	rep := &report.Report{Input: report.InputRange{Name: "-"}, Stacks: []report.Stack{{Frames: []report.Frame{
		frame(0, lib, 0x13cd), frame(1, usr, 0x13cd), frame(2, lib, 0x13cd),
	}}}}
	r.Report(rep)
	if len(opened) != 1 || opened[0] != lib {
		t.Errorf("opened %q, want %s once", opened, lib)
	}
	for i, want := range []string{lib, usr, lib} {
		if f := rep.Stacks[0].Frames[i]; f.Function != "main" || f.Module != want {
			t.Errorf("frame %d: %s in %s, want main in %s", i, f.Function, f.Module, want)
		}
	}
	r.Report(&report.Report{Input: report.InputRange{Name: "-"}, Stacks: []report.Stack{{Frames: []report.Frame{frame(0, other, 0x13cd)}}}})
	if len(opened) != 2 || opened[1] != other {
		t.Errorf("opened %q, want the copy opened on its own", opened)
	}
}
