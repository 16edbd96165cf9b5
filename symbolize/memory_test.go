package symbolize

import (
	"os"
	"reflect"
	"testing"
	"unsafe"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// TestOpenMemoryMatchesOpen: an object read from bytes (a binary shipped
// inside an archive) answers every address of its text exactly as the same
// file opened from disk.
func TestOpenMemoryMatchesOpen(t *testing.T) {
	for _, name := range []string{"c-O2-dw5-pie", "cxx-O2-dw5", "c-O2-zstd"} {
		t.Run(name, func(t *testing.T) {
			path := fx.ELF(t, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			disk := openObject(t, path, noDebugDirs())
			mem, err := OpenMemory("archive.tar.gz!/"+name, data, noDebugDirs())
			if err != nil {
				t.Fatal(err)
			}
			defer mem.Close()
			if mem.Path() != "archive.tar.gz!/"+name {
				t.Errorf("Path() = %q", mem.Path())
			}
			var addrs []uint64
			for _, a := range disk.syms.addrs {
				addrs = append(addrs, a, a+1)
			}
			if len(addrs) == 0 {
				t.Fatal("fixture has no symbols")
			}
			opts := LookupOptions{Inlines: true, Demangle: true, Policy: LLVM14}
			want := disk.SymbolizeMany(addrs, opts)
			got := mem.SymbolizeMany(addrs, opts)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("answers from memory differ from answers from disk")
			}
		})
	}
}

// TestOpenMemoryGarbage: bytes that are not ELF give an error, not a panic.
func TestOpenMemoryGarbage(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("\x7fELF"), []byte("not an elf file at all")} {
		if o, err := OpenMemory("junk", data, nil); err == nil {
			o.Close()
			t.Errorf("OpenMemory(%q): no error", data)
		}
	}
}

// TestCompactSizes: the records the engine keeps one of per symbol or per
// named DIE for a whole session stay at the sizes their layout was chosen
// for (on 64-bit platforms); a field added or widened shows here (the
// dwarf package checks its own).
func TestCompactSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"symbol", unsafe.Sizeof(symbol{}), 48}, // and its address, in symtab.addrs
		{"named", unsafe.Sizeof(named{}), 32},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.what, c.got, c.want)
		}
	}
}
