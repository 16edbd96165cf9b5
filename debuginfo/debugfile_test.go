package debuginfo

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestDebugFile puts the separate debug files of the debuglink and
// build-id fixtures everywhere the toolchain looks, and where it must not
// be taken (wrong CRC, wrong build-id).
func TestDebugFile(t *testing.T) {
	stripped := fixture.ELF(t, "debuglink/prog") // .gnu_debuglink -> prog.debug
	debug := fixture.ELF(t, "debuglink/prog.debug")
	other := fixture.ELF(t, "c-O0-dw4-nopie") // any other ELF: wrong CRC, wrong build-id
	byID := fixture.ELF(t, "buildid/prog")    // build-id only, no debuglink
	idDir := filepath.Join(filepath.Dir(byID), "debug")
	id, err := ReadBuildID(byID)
	if err != nil || len(id) == 0 {
		t.Fatalf("build-id of %s: %v", byID, err)
	}

	for _, tt := range []struct {
		name   string
		layout func(root, bin string) // puts files under root; bin is the stripped binary's copy
		bin    string                 // fixture copied to root/bin/prog
		dirs   func(root string) []string
		want   func(root string) string // "" = not found
	}{
		{"next to the binary", func(root, bin string) { fixture.Copy(t, debug, filepath.Join(root, "bin", "prog.debug")) },
			stripped, nil, func(root string) string { return filepath.Join(root, "bin", "prog.debug") }},
		{"in .debug/", func(root, bin string) { fixture.Copy(t, debug, filepath.Join(root, "bin", ".debug", "prog.debug")) },
			stripped, nil, func(root string) string { return filepath.Join(root, "bin", ".debug", "prog.debug") }},
		{"under a debug-file directory", func(root, bin string) {
			fixture.Copy(t, debug, filepath.Join(root, "dbg", filepath.Dir(bin), "prog.debug"))
		}, stripped, func(root string) []string { return []string{filepath.Join(root, "dbg")} },
			func(root string) string { return filepath.Join(root, "dbg", root, "bin", "prog.debug") }},
		{"wrong CRC is not taken", func(root, bin string) { fixture.Copy(t, other, filepath.Join(root, "bin", "prog.debug")) },
			stripped, nil, func(string) string { return "" }},
		{"by build-id", func(root, bin string) {
			fixture.Copy(t, BuildIDPath(idDir, id), BuildIDPath(filepath.Join(root, "dbg"), id))
		}, byID, func(root string) []string {
			return []string{filepath.Join(root, "nothing"), filepath.Join(root, "dbg")}
		},
			func(root string) string { return BuildIDPath(filepath.Join(root, "dbg"), id) }},
		{"build-id mismatch is not taken", func(root, bin string) {
			fixture.Copy(t, other, BuildIDPath(filepath.Join(root, "dbg"), id))
		}, byID, func(root string) []string { return []string{filepath.Join(root, "dbg")} },
			func(string) string { return "" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			bin := filepath.Join(root, "bin", "prog")
			fixture.Copy(t, tt.bin, bin)
			tt.layout(root, bin)
			finder := &Finder{DebugDirs: []string{}}
			if tt.dirs != nil {
				finder.DebugDirs = tt.dirs(root)
			}
			defer finder.Close()
			f, err := Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			df, err := finder.DebugFile(f)
			want := tt.want(root)
			if want == "" {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("DebugFile = %v, %v; want ErrNotFound", df, err)
				}
				return
			}
			if err != nil || df.Path != want {
				t.Fatalf("DebugFile = %v, %v; want %q", df, err, want)
			}
			if !df.HasDWARF() {
				t.Errorf("%s: no DWARF", df.Path)
			}
			df.Close()
		})
	}
}
