package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	demoBin = "../testdata/demo/session"
	execBin = "../testdata/elf/c-O0-dw4-nopie" // ET_EXEC, another build-id
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Skipf("fixture %s missing: %v", from, err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

func buildIDOf(t *testing.T, p string) string {
	t.Helper()
	info, err := readELFInfo(p)
	if err != nil || info.buildID == "" {
		t.Skipf("fixture %s: no build-id (%v)", p, err)
	}
	return info.buildID
}

func TestLocate(t *testing.T) {
	root := t.TempDir()
	copyFile(t, demoBin, filepath.Join(root, "mapped/session"))
	copyFile(t, demoBin, filepath.Join(root, "bins/session"))
	copyFile(t, demoBin, filepath.Join(root, "byid/renamed"))
	copyFile(t, execBin, filepath.Join(root, "other/session"))
	copyFile(t, demoBin, filepath.Join(root, "logs/session"))
	copyFile(t, demoBin, filepath.Join(root, "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"))
	id := buildIDOf(t, demoBin)
	wrong := buildIDOf(t, execBin)

	tests := []struct {
		name     string
		opts     Options
		module   string
		buildID  string
		ctx      context
		want     string // path relative to root; "" for an error
		wantLog  string
		wantErr  string
		wantExec bool
	}{
		{name: "prefix map", module: "/build/demo/session",
			opts: Options{PrefixMaps: []PrefixMap{{"/build/demo", filepath.Join(root, "mapped")}}},
			want: "mapped/session"},
		{name: "binary dir by base name", module: "/build/demo/session",
			opts: Options{BinaryDirs: []string{filepath.Join(root, "bins")}},
			want: "bins/session"},
		{name: "build-id verified, first candidate wrong", module: "/build/demo/session", buildID: strings.ToUpper(id),
			opts: Options{BinaryDirs: []string{filepath.Join(root, "other"), filepath.Join(root, "bins")}},
			want: "bins/session"},
		{name: "binary dir by build-id", module: "/somewhere/else/app", buildID: id,
			opts: Options{BinaryDirs: []string{filepath.Join(root, "byid")}},
			want: "byid/renamed"},
		{name: "build-id mismatch", module: "/build/demo/session", buildID: id,
			opts:    Options{BinaryDirs: []string{filepath.Join(root, "other")}},
			wantErr: "build-id mismatch: log says " + id + ", file has " + wrong},
		{name: "not found lists the search", module: "/build/demo/session",
			opts:    Options{BinaryDirs: []string{filepath.Join(root, "nothing")}},
			wantErr: "not found (searched " + filepath.Join(root, "nothing/session") + ", /build/demo/session)"},
		{name: "tsan base name via the report's absolute path", module: "session",
			opts: Options{PrefixMaps: []PrefixMap{{"/build/demo", filepath.Join(root, "mapped")}}},
			ctx:  context{siblings: map[string]string{"session": "/build/demo/session"}},
			want: "mapped/session", wantLog: "/build/demo/session"},
		{name: "base name next to the log", module: "session",
			ctx:  context{logDir: filepath.Join(root, "logs")},
			want: "logs/session"},
		{name: "base-name shared library under the sysroot", module: "libdemo.so.1",
			opts: Options{Sysroot: filepath.Join(root, "sysroot")},
			want: "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"},
		{name: "sysroot for absolute paths", module: "/lib/x86_64-linux-gnu/libdemo.so.1",
			opts: Options{Sysroot: filepath.Join(root, "sysroot")},
			want: "sysroot/lib/x86_64-linux-gnu/libdemo.so.1"},
		{name: "ET_EXEC noticed", module: "/x/session",
			opts: Options{BinaryDirs: []string{filepath.Join(root, "other")}},
			want: "other/session", wantExec: true},
		{name: "a directory is not a module", module: "/x/bins",
			opts:    Options{BinaryDirs: []string{root}},
			wantErr: "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLocator(&tt.opts)
			got, err := l.locate(tt.module, tt.buildID, tt.ctx)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("locate(%q) = %+v, %v; want error %q", tt.module, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("locate(%q): %v", tt.module, err)
			}
			if want := filepath.Join(root, tt.want); got.path != want {
				t.Errorf("path = %s, want %s", got.path, want)
			}
			if got.logPath != tt.wantLog {
				t.Errorf("logPath = %q, want %q", got.logPath, tt.wantLog)
			}
			if got.info.exec != tt.wantExec {
				t.Errorf("exec = %v, want %v", got.info.exec, tt.wantExec)
			}
		})
	}
}
