package debuginfo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestFinderOneFileManyPaths: one file named by several paths (a directory
// symlink as merged /usr makes /lib of /usr/lib, a hard link) is read once
// per run: every path shares one probe and one FileKey, and only the path
// the File was opened under is handed it.
func TestFinderOneFileManyPaths(t *testing.T) {
	root := t.TempDir()
	usr := filepath.Join(root, "usr", "lib", "libdemo.so")
	fixture.Copy(t, "../testdata/demo/session", usr)
	if err := os.Symlink(filepath.Join("usr", "lib"), filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(root, "elsewhere", "libdemo.so")
	if err := os.MkdirAll(filepath.Dir(hard), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(usr, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(root, "copy", "libdemo.so")
	fixture.Copy(t, usr, other)

	f := &Finder{DebugDirs: []string{}}
	defer f.Close()
	paths := []string{filepath.Join(root, "lib", "libdemo.so"), usr, hard}
	var key string
	for i, p := range paths {
		m, err := f.Module(Query{Name: p})
		if err != nil || m.Path != p {
			t.Fatalf("Module(%s) = %+v, %v", p, m, err)
		}
		k := f.FileKey(p)
		if i == 0 {
			key = k
			if k == p {
				t.Fatalf("FileKey(%s) is the path: no identity learnt", p)
			}
		} else if k != key {
			t.Errorf("FileKey(%s) = %q, FileKey(%s) = %q: one file, two keys", p, k, paths[0], key)
		}
		if f.probes[p] != f.probes[paths[0]] {
			t.Errorf("%s probed again: the file is read once per run", p)
		}
	}
	if _, err := f.Module(Query{Name: other}); err != nil {
		t.Fatal(err)
	}
	if k := f.FileKey(other); k == key {
		t.Errorf("a copy of the file has its key %q", k)
	}
	// The File the search opened goes to its own path; another path of
	// the file opens its own, under its own name.
	first, err := f.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := f.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if first.Path != paths[0] || second.Path != paths[1] || first == second {
		t.Errorf("Open: %s and %s", first.Path, second.Path)
	}
}

// A File kept before any search (a fetched one) leaves the identity table
// to the first search: no nil map.
func TestFinderKeepThenSearch(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	fixture.Copy(t, "../testdata/demo/session", a)
	fixture.Copy(t, "../testdata/demo/session", b)
	f := &Finder{DebugDirs: []string{}}
	defer f.Close()
	file, err := Open(a)
	if err != nil {
		t.Fatal(err)
	}
	f.Keep(file)
	if _, err := f.Module(Query{Name: b}); err != nil {
		t.Fatal(err)
	}
	if f.FileKey(b) == b {
		t.Errorf("FileKey(%s): no identity learnt", b)
	}
}

// FileKey names a file no search has met by its identity too (a path a
// drop-in query or a shipped binary names), and a path with no file
// there by itself.
func TestFileKeyUnsearched(t *testing.T) {
	root := t.TempDir()
	a, link := filepath.Join(root, "a"), filepath.Join(root, "link")
	fixture.Copy(t, "../testdata/demo/session", a)
	if err := os.Link(a, link); err != nil {
		t.Fatal(err)
	}
	f := &Finder{DebugDirs: []string{}}
	if _, err := f.Module(Query{Name: a}); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if k := f.FileKey(link); k != f.FileKey(a) || k == link {
		t.Errorf("FileKey(%s) = %q, FileKey(%s) = %q", link, k, a, f.FileKey(a))
	}
	missing := filepath.Join(root, "missing")
	if k := f.FileKey(missing); k != missing {
		t.Errorf("FileKey(%s) = %q", missing, k)
	}
}
