package debuginfo

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

// fixtures lists the committed ELF files of the repository.
func fixtures(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"../testdata/elf", "../testdata/demo"} {
		_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte("\x7fELF")) {
					files = append(files, p)
				}
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no ELF fixtures under ../testdata")
	}
	return files
}

var readelfBuildID = regexp.MustCompile(`Build ID: ([0-9a-f]+)`)

// TestBuildIDReadelf checks the build-id reader against readelf -n.
func TestBuildIDReadelf(t *testing.T) {
	readelf := reftool.Need(t, "readelf")
	for _, p := range fixtures(t) {
		out, stderr, code := reftool.Run(t, readelf, []string{"-n", "-W", p}, "")
		if code != 0 {
			t.Errorf("readelf -n %s: exit %d: %s", p, code, stderr)
			continue
		}
		want := ""
		if m := readelfBuildID.FindSubmatch([]byte(out)); m != nil {
			want = string(m[1])
		}
		f, err := Open(p)
		if err != nil {
			t.Errorf("Open(%s): %v", p, err)
			continue
		}
		if got := hex.EncodeToString(f.BuildID); got != want {
			t.Errorf("Open(%s).BuildID = %q, readelf says %q", p, got, want)
		}
		f.Close()
	}
}

func TestOpenNotELF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(p); err == nil {
		t.Error("Open(script) succeeded")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want not-exist", err)
	}
	// A Finder's search skips both.
	finder := &Finder{BinaryDirs: []string{filepath.Dir(p)}, DebugDirs: []string{}}
	if m, err := finder.Module(Query{Name: "/elsewhere/x"}); err == nil {
		t.Errorf("Module found %+v, a script", m)
	}
}

// FuzzOpenMemory: arbitrary bytes must give a File or an error, never a
// panic or a hang; a File answers every question about itself.
func FuzzOpenMemory(f *testing.F) {
	f.Add([]byte("\x7fELF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := OpenMemory("fuzz", data)
		if err != nil {
			return
		}
		defer file.Close()
		file.HasDWARF()
		file.ExecRanges()
		file.debugLink()
		(&Finder{DebugDirs: []string{}}).DebugFile(file)
	})
}
