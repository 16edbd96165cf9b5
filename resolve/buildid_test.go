package resolve

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
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

// TestReadELFInfoReadelf checks the build-id reader against readelf -n.
func TestReadELFInfoReadelf(t *testing.T) {
	readelf, err := exec.LookPath("readelf")
	if err != nil {
		t.Skip("readelf not installed: ", err)
	}
	for _, p := range fixtures(t) {
		out, err := exec.Command(readelf, "-n", "-W", p).Output()
		if err != nil {
			t.Errorf("readelf -n %s: %v", p, err)
			continue
		}
		want := ""
		if m := readelfBuildID.FindSubmatch(out); m != nil {
			want = string(m[1])
		}
		info, err := readELFInfo(p)
		if err != nil {
			t.Errorf("readELFInfo(%s): %v", p, err)
			continue
		}
		if info.buildID != want {
			t.Errorf("readELFInfo(%s).buildID = %q, readelf says %q", p, info.buildID, want)
		}
	}
}

func TestReadELFInfoNotELF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readELFInfo(p); err != errNotELF {
		t.Errorf("readELFInfo(script) error = %v, want errNotELF", err)
	}
	if _, err := readELFInfo(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("readELFInfo(missing) succeeded")
	}
}

// FuzzParseELFInfo: arbitrary bytes must give an answer or an error, never
// a panic or a hang.
func FuzzParseELFInfo(f *testing.F) {
	f.Add([]byte("\x7fELF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseELFInfo(bytes.NewReader(data))
	})
}
