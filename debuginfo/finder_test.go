package debuginfo

import (
	"context"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// fakeFetcher serves one debug file and one executable by build-id, and
// counts the questions.
type fakeFetcher struct {
	id               []byte
	debug, exe       string
	debugAsk, exeAsk int
}

func (f *fakeFetcher) Debuginfo(_ context.Context, id []byte) (string, error) {
	f.debugAsk++
	if hex.EncodeToString(id) == hex.EncodeToString(f.id) {
		return f.debug, nil
	}
	return "", errors.New("not on this server")
}

func (f *fakeFetcher) Executable(_ context.Context, id []byte) (string, error) {
	f.exeAsk++
	if hex.EncodeToString(id) == hex.EncodeToString(f.id) {
		return f.exe, nil
	}
	return "", errors.New("not on this server")
}

// TestFetch: the Fetcher is asked by build-id only after the local rules
// found nothing, for a module and for a debug file.
func TestFetch(t *testing.T) {
	bin := fixture.ELF(t, "buildid/prog")
	id, err := ReadBuildID(bin)
	if err != nil || len(id) < 2 {
		t.Fatalf("build-id of %s: %v", bin, err)
	}
	debug := BuildIDPath(filepath.Join(filepath.Dir(bin), "debug"), id)
	root := t.TempDir()
	cached := filepath.Join(root, "cache", "debuginfo")
	fixture.Copy(t, debug, cached)
	exe := filepath.Join(root, "cache", "executable")
	fixture.Copy(t, bin, exe)
	fetch := &fakeFetcher{id: id, debug: cached, exe: exe}
	finder := &Finder{DebugDirs: []string{filepath.Join(root, "nothing")}, Fetch: fetch}
	defer finder.Close()

	m, err := finder.Module(Query{Name: "/gone/prog", BuildID: hex.EncodeToString(id)})
	if err != nil || m.Path != exe || fetch.exeAsk != 1 {
		t.Fatalf("Module = %+v, %v after %d questions; want %s from the fetcher", m, err, fetch.exeAsk, exe)
	}
	f, err := finder.Open(m.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	df, err := finder.DebugFile(f)
	if err != nil || df.Path != cached || fetch.debugAsk != 1 || !df.HasDWARF() {
		t.Fatalf("DebugFile = %v, %v after %d questions; want %s from the fetcher", df, err, fetch.debugAsk, cached)
	}
	df.Close()

	// Found locally: the fetcher is not asked.
	local := &Finder{DebugDirs: []string{filepath.Join(filepath.Dir(bin), "debug")}, Fetch: fetch}
	defer local.Close()
	if df, err := local.DebugFile(f); err != nil || fetch.debugAsk != 1 {
		t.Fatalf("DebugFile = %v, %v after %d questions; want the local file", df, err, fetch.debugAsk)
	} else {
		df.Close()
	}
	if p, ok := local.DebugFileByID(id); !ok || p != BuildIDPath(filepath.Join(filepath.Dir(bin), "debug"), id) || fetch.debugAsk != 1 {
		t.Errorf("DebugFileByID = %q, %v", p, ok)
	}
	// Nothing anywhere: the error says not found.
	other := []byte{1, 2, 3, 4}
	if p, ok := finder.DebugFileByID(other); ok {
		t.Errorf("DebugFileByID(unknown) = %q", p)
	}
}

// TestDefaultDebugDirs: nil means the system's directory, under the
// sysroot when there is one; an empty list means none.
func TestDefaultDebugDirs(t *testing.T) {
	for _, tt := range []struct {
		f    *Finder
		want []string
	}{
		{&Finder{}, []string{DefaultDebugDir}},
		{&Finder{Sysroot: "/sr"}, []string{"/sr" + DefaultDebugDir}},
		{&Finder{Sysroot: "/sr", DebugDirs: []string{"/d"}}, []string{"/d"}},
		{&Finder{DebugDirs: []string{}}, []string{}},
	} {
		if got := tt.f.debugDirs(); len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
			t.Errorf("%+v: debugDirs = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// TestSplitPaths: where the .dwp and the .dwo files are looked for.
func TestSplitPaths(t *testing.T) {
	f := &Finder{}
	if got := f.DWP("/b/prog.debug"); got != "/b/prog.debug.dwp" {
		t.Errorf("DWP = %q", got)
	}
	f.DWPPath = "/x/all.dwp"
	if got := f.DWP("/b/prog.debug"); got != "/x/all.dwp" {
		t.Errorf("DWP with DWPPath = %q", got)
	}
	got := f.DWOCandidates("obj/a.dwo", "/build", "/bin/prog", "/dbg/prog.debug")
	want := []string{"/build/obj/a.dwo", "/bin/obj/a.dwo", "/bin/a.dwo", "/dbg/obj/a.dwo", "/dbg/a.dwo"}
	if len(got) != len(want) {
		t.Fatalf("DWOCandidates = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("DWOCandidates = %q, want %q", got, want)
			break
		}
	}
	if got := f.DWOCandidates("/abs/a.dwo", "/build", "/bin/prog", "/bin/prog"); len(got) != 2 || got[0] != "/abs/a.dwo" || got[1] != "/bin/a.dwo" {
		t.Errorf("DWOCandidates(absolute) = %q", got)
	}
}
