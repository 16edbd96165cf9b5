package symbolize

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// miniDebugPayload returns the .gnu_debugdata bytes of the
// testdata/minidebuginfo file name, and the file's bytes.
func miniDebugPayload(t *testing.T, name string) (payload, file []byte, off uint64) {
	t.Helper()
	root, err := fx.Root()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "testdata", "minidebuginfo", name)
	f := fx.OpenELF(t, path)
	s := f.Section(miniDebugSection)
	f.Close()
	if s == nil {
		t.Fatalf("%s has no %s", path, miniDebugSection)
	}
	file, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return file[s.Offset : s.Offset+s.FileSize], file, s.Offset
}

// TestXZDictSize: the dictionary size read from an xz block header, as xz
// -6 writes it into the fixtures (8 MiB), and nothing from a truncated or
// foreign stream.
func TestXZDictSize(t *testing.T) {
	p, _, _ := miniDebugPayload(t, "prog")
	if got, ok := xzDictSize(p); !ok || got != 8<<20 {
		t.Errorf("prog's payload: %d, %v; want 8 MiB", got, ok)
	}
	for n := range 20 {
		if _, ok := xzDictSize(p[:n]); ok {
			t.Errorf("%d bytes of the stream: read a dictionary size", n)
		}
	}
	if _, ok := xzDictSize([]byte("\x1f\x8b\x08\x00 not xz at all")); ok {
		t.Error("gzip bytes: read a dictionary size")
	}
}

// TestMiniDebugDictionaryBound: a stream whose header asks for a 4 GiB
// dictionary is refused before the decoder allocates it; the file still
// opens, its MiniDebugInfo's problem in its damage.
func TestMiniDebugDictionaryBound(t *testing.T) {
	p, file, off := miniDebugPayload(t, "prog")
	const props = 12 + 4 // stream header, block header size and flags, filter id and property size
	if p[props-2] != 0x21 || p[props-1] != 1 {
		t.Fatalf("prog's payload is not laid out as xz -6 writes it: % x", p[:props+1])
	}
	file[off+props] = 40 // 4 GiB - 1
	path := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(path, file, 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := Open(path, nil)
	if o == nil {
		t.Fatalf("open: %v", err)
	}
	defer o.Close()
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if d := o.Damage(); d != nil {
		msg = d.Error()
	}
	if !strings.Contains(msg, path+": .gnu_debugdata (MiniDebugInfo): its xz stream asks for a dictionary of 4294967295 bytes") {
		t.Errorf("problem %q: want the dictionary refused, naming the file", msg)
	}
}

// FuzzXZDictSize: no input makes the header reader fail other than by
// saying it cannot read it.
func FuzzXZDictSize(f *testing.F) {
	f.Add([]byte("\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x16\x00\x00\x00"))
	f.Add([]byte("\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46\xff\xc3\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if n, ok := xzDictSize(b); ok && n == 0 {
			t.Errorf("%q: a dictionary of 0 bytes", b)
		}
	})
}

// FuzzMiniDebug: whatever a .gnu_debugdata section holds, opening the
// file neither panics nor inflates past the bound; seeded with the
// fixtures' payloads (a valid one, and one with damaged bytes).
func FuzzMiniDebug(f *testing.F) {
	for _, name := range []string{"prog", "libmini.so"} {
		root, err := fx.Root()
		if err != nil {
			f.Fatal(err)
		}
		path := filepath.Join(root, "testdata", "minidebuginfo", name)
		file, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		ef, err := elf.NewFile(bytes.NewReader(file))
		if err != nil {
			f.Fatal(err)
		}
		if s := ef.Section(miniDebugSection); s != nil {
			p := file[s.Offset : s.Offset+s.FileSize]
			f.Add(p)
			bad := bytes.Clone(p)
			copy(bad[len(bad)/2:], "\xff\xff\xff\xff")
			f.Add(bad)
		}
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		data := elfbuild.Build(elfbuild.Section{Name: miniDebugSection, Type: elf.SHT_PROGBITS, Data: payload})
		ef, err := elf.NewFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		_, _, _ = readMiniDebug(ef, data)
	})
}
