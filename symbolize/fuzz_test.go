package symbolize

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// openBytes writes data to a temporary file and opens it.
func openBytes(t *testing.T, dir string, data []byte) (*Object, error) {
	p := filepath.Join(dir, "obj")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return Open(p, noDebugDirs())
}

// fuzzOpenSeeds are FuzzOpen's binaries: C (DWARF 4 and 5, gcc and
// clang), C++, Rust, Go, and sections compressed with zlib, zstd and as
// legacy .zdebug.
var fuzzOpenSeeds = []string{"c-O0-dw4-nopie", "c-O2-dw5-clang", "c-O2-zdebug", "c-O2-zlib", "c-O2-zstd",
	"cxx-O2-dw5", "rust-v0-O", "go-trimpath"}

// FuzzOpen: bytes -> ELF -> Object -> CODE, DATA and FRAME queries at
// addresses inside the seeds' functions and data. Nothing may panic or
// hang; errors are fine.
func FuzzOpen(f *testing.F) {
	var addrs []uint64
	for _, name := range fuzzOpenSeeds {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", name))
		if err != nil {
			continue
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
		if ef, err := elf.NewFile(bytes.NewReader(data)); err == nil {
			syms, _ := ef.Symbols()
			n := 0
			for _, s := range syms {
				if t := elf.ST_TYPE(s.Info); (t == elf.STT_FUNC || t == elf.STT_OBJECT) && s.Size > 2 && n < 6 {
					addrs = append(addrs, s.Value+s.Size/2)
					n++
				}
			}
		}
	}
	addrs = append(addrs, 0, 0x1000, 0x1130, 0x401126, 0x4011a0)
	// One directory per fuzzing process: t.TempDir in every iteration costs
	// more than the whole open-and-lookup (a few executions a second).
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := openBytes(t, dir, data)
		if o == nil {
			if err == nil {
				t.Fatal("nil object without error")
			}
			return
		}
		defer o.Close()
		if d := o.Damage(); d != nil && strings.Contains(d.Error(), "\n") {
			t.Fatalf("damage spans lines: %q", d)
		}
		for _, a := range addrs {
			fr := symbolizeNoPanic(t, o, a, LookupOptions{Inlines: true, Demangle: true})
			if len(fr) == 0 {
				t.Fatal("no frames")
			}
			o.Data(a)
			o.Frame(a)
		}
	})
}

// TestTruncated opens every truncation step of a real binary: each must give
// an object or an error, never a panic.
func TestTruncated(t *testing.T) {
	data, err := os.ReadFile(fx.ELF(t, "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += len(data)/97 + 1 {
		o, err := openBytes(t, t.TempDir(), data[:n])
		if o == nil && err == nil {
			t.Fatalf("truncated at %d: nil object without error", n)
		}
		if o != nil {
			fr := symbolizeNoPanic(t, o, 0x1130, LookupOptions{Inlines: true})
			if len(fr) == 0 {
				t.Fatalf("truncated at %d: no frames", n)
			}
		}
	}
}

// TestErrorNamesFile checks the one-line error names the file.
func TestErrorNamesFile(t *testing.T) {
	_, err := openBytes(t, t.TempDir(), []byte("not an elf file"))
	if err == nil {
		t.Fatal("no error for garbage")
	}
	if want := "symbolize: open "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q does not start with %q", err, want)
	}
}

// FuzzSplitDWARF: a binary with split units, its .dwo next to it and a
// .dwp package, all three fuzzed. Lookups must not panic or hang, whatever
// the .dwo and the package hold.
func FuzzSplitDWARF(f *testing.F) {
	read := func(name string) []byte {
		data, _ := os.ReadFile(filepath.Join("..", "testdata", "elf", name))
		return data
	}
	bin, dwo, dwp := read("split-dw4/prog"), read("split-dw4/split-prog.dwo"), read("split-dw4-dwp/prog.dwp")
	if bin != nil {
		f.Add(bin, dwo, []byte(nil))
		f.Add(bin, []byte(nil), dwp)
		f.Add(bin, dwo[:len(dwo)/2], dwp[:len(dwp)/3])
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, bin, dwo, dwp []byte) {
		for name, data := range map[string][]byte{"obj": bin, "split-prog.dwo": dwo, "obj.dwp": dwp} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		o, err := Open(filepath.Join(dir, "obj"), noDebugDirs())
		if o == nil {
			if err == nil {
				t.Fatal("nil object without error")
			}
			return
		}
		defer o.Close()
		for _, a := range []uint64{0x1090, 0x10a4, 0x1100, 0x1220, 0x1238, 0x1290} {
			if fr := symbolizeNoPanic(t, o, a, LookupOptions{Inlines: true, Demangle: true}); len(fr) == 0 {
				t.Fatal("no frames")
			}
		}
	})
}
