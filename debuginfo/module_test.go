package debuginfo

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

const (
	demoBin = "../testdata/demo/session"
	execBin = "../testdata/elf/c-O0-dw4-nopie" // ET_EXEC, another build-id
)

func buildIDOf(t *testing.T, p string) string {
	t.Helper()
	id, err := ReadBuildID(p)
	if err != nil || len(id) == 0 {
		t.Skipf("fixture %s: no build-id (%v)", p, err)
	}
	return hex.EncodeToString(id)
}

func TestModule(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "mapped/session"))
	fixture.Copy(t, demoBin, filepath.Join(root, "bins/session"))
	fixture.Copy(t, demoBin, filepath.Join(root, "byid/renamed"))
	fixture.Copy(t, execBin, filepath.Join(root, "other/session"))
	fixture.Copy(t, demoBin, filepath.Join(root, "logs/session"))
	fixture.Copy(t, demoBin, filepath.Join(root, "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"))
	id := buildIDOf(t, demoBin)
	wrong := buildIDOf(t, execBin)

	tests := []struct {
		name     string
		finder   *Finder
		module   string
		buildID  string
		also     string
		logDir   string
		want     string // path relative to root; "" for an error
		wantErr  string
		wantExec bool
	}{
		{name: "prefix map", module: "/build/demo/session",
			finder: &Finder{PrefixMaps: []PrefixMap{{"/build/demo", filepath.Join(root, "mapped")}}},
			want:   "mapped/session"},
		{name: "binary dir by base name", module: "/build/demo/session",
			finder: &Finder{BinaryDirs: []string{filepath.Join(root, "bins")}},
			want:   "bins/session"},
		{name: "build-id verified, first candidate wrong", module: "/build/demo/session", buildID: strings.ToUpper(id),
			finder: &Finder{BinaryDirs: []string{filepath.Join(root, "other"), filepath.Join(root, "bins")}},
			want:   "bins/session"},
		{name: "binary dir by build-id", module: "/somewhere/else/app", buildID: id,
			finder: &Finder{BinaryDirs: []string{filepath.Join(root, "byid")}},
			want:   "byid/renamed"},
		{name: "build-id mismatch", module: "/build/demo/session", buildID: id,
			finder:  &Finder{BinaryDirs: []string{filepath.Join(root, "other")}},
			wantErr: "build-id mismatch: log says " + id + ", file has " + wrong},
		{name: "not found lists the search", module: "/build/demo/session",
			finder:  &Finder{BinaryDirs: []string{filepath.Join(root, "nothing")}},
			wantErr: "not found (searched " + filepath.Join(root, "nothing/session") + ", /build/demo/session)"},
		{name: "tsan base name via the report's absolute path", module: "session",
			finder: &Finder{PrefixMaps: []PrefixMap{{"/build/demo", filepath.Join(root, "mapped")}}},
			also:   "/build/demo/session",
			want:   "mapped/session"},
		{name: "base name next to the log", module: "session",
			logDir: filepath.Join(root, "logs"),
			want:   "logs/session"},
		{name: "base-name shared library under the sysroot", module: "libdemo.so.1",
			finder: &Finder{Sysroot: filepath.Join(root, "sysroot")},
			want:   "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"},
		{name: "sysroot for absolute paths", module: "/lib/x86_64-linux-gnu/libdemo.so.1",
			finder: &Finder{Sysroot: filepath.Join(root, "sysroot")},
			want:   "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"},
		{name: "ET_EXEC noticed", module: "/x/session",
			finder: &Finder{BinaryDirs: []string{filepath.Join(root, "other")}},
			want:   "other/session", wantExec: true},
		{name: "a directory is not a module", module: "/x/bins",
			finder:  &Finder{BinaryDirs: []string{root}},
			wantErr: "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.finder == nil {
				tt.finder = &Finder{}
			}
			tt.finder.DebugDirs = []string{}
			got, err := tt.finder.Module(Query{Name: tt.module, Also: tt.also, BuildID: tt.buildID, LogDir: tt.logDir})
			defer tt.finder.Close()
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Module(%q) = %+v, %v; want error %q", tt.module, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Module(%q): %v", tt.module, err)
			}
			if want := filepath.Join(root, tt.want); got.Path != want {
				t.Errorf("path = %s, want %s", got.Path, want)
			}
			if got.Exec != tt.wantExec {
				t.Errorf("exec = %v, want %v", got.Exec, tt.wantExec)
			}
			// The file the search opened is handed over, and only once.
			pending := tt.finder.probes[got.Path].file
			if pending == nil {
				t.Fatal("the search kept no file open for Open")
			}
			f, err := tt.finder.Open(got.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f != pending || tt.finder.probes[got.Path].file != nil {
				t.Error("Open did not hand over the file the search opened")
			}
			if hex.EncodeToString(f.BuildID) != got.BuildID {
				t.Errorf("opened build-id %x, found %s", f.BuildID, got.BuildID)
			}
		})
	}
}
