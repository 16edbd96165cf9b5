package symbolize

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

const dwzDir = "../testdata/elf/dwz"

// dwzAddrs returns the middle of every function of the unprocessed build.
func dwzAddrs(t testing.TB, name string) []uint64 {
	t.Helper()
	return funcAddrs(t, filepath.Join(dwzDir, "orig", name))
}

// answers renders the inline chains of addrs under both policies.
func answers(t testing.TB, o *Object, addrs []uint64) string {
	t.Helper()
	var sb strings.Builder
	for _, policy := range []*Policy{LLVM14, GNU240} {
		for _, a := range addrs {
			fr, err := o.Symbolize(a, LookupOptions{Inlines: true, Demangle: true, Policy: policy})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fr {
				sb.WriteString(f.Function + " " + f.File + " " + f.StartFile + "\n")
			}
		}
	}
	return sb.String()
}

// relink rewrites, in a copy of bin, the supplementary file's name in
// .gnu_debugaltlink to name (the same length: the build-id follows it).
func relink(t *testing.T, bin, name, to string) {
	t.Helper()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Section(".gnu_debugaltlink")
	old := data[s.Offset : s.Offset+s.Size]
	i := bytes.IndexByte(old, 0)
	if i != len(name) {
		t.Fatalf("new name %q must have the old one's length %d", name, i)
	}
	copy(old, name)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSupplementaryFile: the DIEs and strings dwz moved out are read back,
// wherever the toolchain's rules find the supplementary file, and the
// answers equal those for the unprocessed build (under both policies); without the
// file the object says what it looked for.
func TestSupplementaryFile(t *testing.T) {
	for _, variant := range []string{"gnu", "sup"} {
		t.Run(variant, func(t *testing.T) {
			want := func(name string) string {
				o := openObject(t, filepath.Join(dwzDir, "orig", name), noDebugDirs())
				return answers(t, o, dwzAddrs(t, name))
			}
			check := func(t *testing.T, bin string, opts *Options) {
				t.Helper()
				o := openObject(t, bin, opts)
				if err := o.SupplementaryError(); err != nil {
					t.Fatal(err)
				}
				name := filepath.Base(bin)
				if got := answers(t, o, dwzAddrs(t, name)); got != want(name) {
					t.Errorf("%s: answers differ from the build before dwz", bin)
				}
			}
			bin := filepath.Join(dwzDir, variant, "tmpl")
			sup := filepath.Join(dwzDir, variant, "common.debug")
			t.Run("next to the debug file", func(t *testing.T) {
				check(t, bin, noDebugDirs())
				check(t, filepath.Join(dwzDir, variant, "stl"), noDebugDirs())
			})
			t.Run("missing", func(t *testing.T) {
				dir := t.TempDir()
				fx.Copy(t, bin, filepath.Join(dir, "tmpl"))
				o := openObject(t, filepath.Join(dir, "tmpl"), noDebugDirs())
				e := o.SupplementaryError()
				if e == nil || !strings.Contains(e.Error(), "common.debug") || !strings.Contains(e.Error(), "not found") {
					t.Fatalf("missing supplementary file: %v", e)
				}
				if got := answers(t, o, dwzAddrs(t, "tmpl")); got == want("tmpl") {
					t.Error("answers without the supplementary file equal the full ones: the test shows nothing")
				}
			})
			t.Run("fetched by build-id", func(t *testing.T) {
				dir := t.TempDir()
				fx.Copy(t, bin, filepath.Join(dir, "bin", "tmpl"))
				fx.Copy(t, sup, filepath.Join(dir, "cache", "tmpl")) // named like the binary: the name proves nothing
				var asked string
				check(t, filepath.Join(dir, "bin", "tmpl"), &Options{Finder: &debuginfo.Finder{DebugDirs: []string{}, Fetch: fetchFunc(func(id []byte) (string, error) {
					asked = hex.EncodeToString(id)
					return filepath.Join(dir, "cache", "tmpl"), nil
				})}})
				if asked == "" {
					t.Error("the fetch hook was not asked")
				}
			})
		})
	}
	gnuBin := filepath.Join(dwzDir, "gnu", "tmpl")
	gnuSup := filepath.Join(dwzDir, "gnu", "common.debug")
	t.Run("under .dwz of a debug-file directory", func(t *testing.T) {
		dir := t.TempDir()
		relink(t, gnuBin, "/d/.dwz/c.db", filepath.Join(dir, "bin", "tmpl"))
		fx.Copy(t, gnuSup, filepath.Join(dir, "debug", ".dwz", "c.db"))
		supFound(t, filepath.Join(dir, "bin", "tmpl"), filepath.Join(dir, "debug"))
	})
	t.Run("by build-id", func(t *testing.T) {
		dir := t.TempDir()
		fx.Copy(t, gnuBin, filepath.Join(dir, "bin", "tmpl"))
		id, err := debuginfo.ReadBuildID(gnuSup)
		if err != nil || len(id) == 0 {
			t.Fatalf("supplementary file build-id: %v", err)
		}
		fx.Copy(t, gnuSup, debuginfo.BuildIDPath(filepath.Join(dir, "debug"), id))
		supFound(t, filepath.Join(dir, "bin", "tmpl"), filepath.Join(dir, "debug"))
	})
	t.Run("wrong build-id", func(t *testing.T) {
		dir := t.TempDir()
		fx.Copy(t, gnuBin, filepath.Join(dir, "tmpl"))
		fx.Copy(t, filepath.Join(dwzDir, "sup", "common.debug"), filepath.Join(dir, "common.debug"))
		o := openObject(t, filepath.Join(dir, "tmpl"), noDebugDirs())
		if o.SupplementaryError() == nil {
			t.Fatal("a supplementary file with another identity was used")
		}
	})
}

// fetchFunc is a debuginfo.Fetcher of debug files only.
type fetchFunc func(id []byte) (string, error)

func (f fetchFunc) Debuginfo(_ context.Context, id []byte) (string, error) { return f(id) }

func (f fetchFunc) Executable(context.Context, []byte) (string, error) {
	return "", errors.New("no executables here")
}

// FuzzSupplementary: a dwz-processed binary (GNU forms or DWARF 5 _sup
// forms) with a fuzzed supplementary file next to it. The references and
// strings that point into it must not panic or hang whatever it holds.
func FuzzSupplementary(f *testing.F) {
	for _, v := range []string{"gnu", "sup"} {
		if data, err := os.ReadFile(filepath.Join(dwzDir, v, "common.debug")); err == nil {
			f.Add(v == "sup", data)
			f.Add(v == "sup", data[:len(data)/2])
		}
	}
	bins := map[bool][]byte{}
	for v, name := range map[bool]string{false: "gnu", true: "sup"} {
		data, err := os.ReadFile(filepath.Join(dwzDir, name, "tmpl"))
		if err != nil {
			f.Skipf("dwz fixtures: %v", err)
		}
		bins[v] = data
	}
	addrs := dwzSample(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, sup bool, data []byte) {
		symbolizeDWZPair(t, dir, bins[sup], data, addrs)
	})
}

// dwzSample is a sample of the dwz tmpl's addresses: it keeps executions
// fast, and they all reach the shared DIEs.
func dwzSample(f *testing.F) []uint64 {
	addrs := dwzAddrs(f, "tmpl")
	if len(addrs) > 24 {
		step := len(addrs) / 24
		for i := range 24 {
			addrs[i] = addrs[i*step]
		}
		addrs = addrs[:24]
	}
	return addrs
}

// symbolizeDWZPair writes bin and its supplementary file sup into dir and
// symbolizes addrs under both policies: whatever the bytes, no panic, no hang,
// and an object that opens answers every address with a frame.
func symbolizeDWZPair(t *testing.T, dir string, bin, sup []byte, addrs []uint64) {
	if err := os.WriteFile(filepath.Join(dir, "tmpl"), bin, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "common.debug"), sup, 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := Open(filepath.Join(dir, "tmpl"), noDebugDirs())
	if o == nil {
		if err == nil {
			t.Fatal("nil object without error")
		}
		return
	}
	defer o.Close()
	for _, a := range addrs {
		for _, policy := range []*Policy{LLVM14, GNU240} {
			if fr := symbolizeNoPanic(t, o, a, LookupOptions{Inlines: true, Demangle: true, Policy: policy}); len(fr) == 0 {
				t.Fatal("no frames")
			}
		}
	}
}

// FuzzSupplementaryReferrer: the other side. The dwz-processed binary
// itself is fuzzed, its supplementary file intact beside it, so that
// DW_FORM_GNU_ref_alt, DW_FORM_ref_sup4/8, DW_FORM_GNU_strp_alt and
// DW_FORM_strp_sup values (and the links naming the file) point anywhere.
func FuzzSupplementaryReferrer(f *testing.F) {
	sups := map[bool][]byte{}
	for v, name := range map[bool]string{false: "gnu", true: "sup"} {
		bin, err := os.ReadFile(filepath.Join(dwzDir, name, "tmpl"))
		if err != nil {
			f.Skipf("dwz fixtures: %v", err)
		}
		f.Add(v, bin)
		f.Add(v, bin[:len(bin)*3/4])
		if sups[v], err = os.ReadFile(filepath.Join(dwzDir, name, "common.debug")); err != nil {
			f.Skipf("dwz fixtures: %v", err)
		}
	}
	addrs := dwzSample(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, sup bool, bin []byte) {
		symbolizeDWZPair(t, dir, bin, sups[sup], addrs)
	})
}

// supFound opens bin with debugDir as the one debug-file directory and
// fails unless its supplementary file was found and read.
func supFound(t *testing.T, bin, debugDir string) {
	t.Helper()
	o := openObject(t, bin, &Options{Finder: &debuginfo.Finder{DebugDirs: []string{debugDir}}})
	if err := o.SupplementaryError(); err != nil {
		t.Fatal(err)
	}
}
