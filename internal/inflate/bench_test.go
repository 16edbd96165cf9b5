package inflate

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"io"
	"os"
	"testing"

	kzlib "github.com/klauspost/compress/zlib"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// BenchmarkZlibSection inflates go-trimpath's compressed .debug_info
// (Go's linker, zlib) into a buffer of its size, as a section is read:
// with this package, klauspost/compress (what it replaced) and
// compress/zlib. docs/performance.md has the figures on go-large.
func BenchmarkZlibSection(b *testing.B) {
	path := fx.ELF(b, "go-trimpath")
	f := fx.OpenELF(b, path)
	file, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s := f.Section(".debug_info")
	if s == nil || s.Flags&elf.SHF_COMPRESSED == 0 {
		b.Fatalf("%s: no compressed .debug_info", path)
	}
	stream := file[s.Offset+24 : s.Offset+s.FileSize] // after the Elf64_Chdr
	out := make([]byte, s.Size)
	readers := []struct {
		name string
		open func() (io.Reader, error)
	}{
		{"inflate", func() (io.Reader, error) { return NewZlib(stream) }},
		{"klauspost", func() (io.Reader, error) { return kzlib.NewReader(bytes.NewReader(stream)) }},
		{"compress-zlib", func() (io.Reader, error) { return zlib.NewReader(bytes.NewReader(stream)) }},
	}
	for _, r := range readers {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				z, err := r.open()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(z, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
