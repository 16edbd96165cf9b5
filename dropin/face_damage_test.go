package dropin

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFacesDamagedHeaders: both drop-in faces answer from a file whose
// damaged headers debug/elf (and bfd) refuse, under the engine's one
// policy: a bad section name costs that section, program headers past
// the end of the file cost the program headers. llvm-symbolizer 14 names
// these addresses too; addr2line 2.40 refuses the files
// (docs/differences.md).
func TestFacesDamagedHeaders(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	shoff := binary.LittleEndian.Uint64(data[0x28:])
	got := -1
	for i, s := range f.Sections {
		if s.Name == ".got" {
			got = i
		}
	}
	dir := t.TempDir()
	badName := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(badName[shoff+uint64(got)*64:], 0xffffff)
	badPhdrs := append([]byte(nil), data...)
	binary.LittleEndian.PutUint16(badPhdrs[0x38:], 0xffff)
	for name, b := range map[string][]byte{"bad-name": badName, "bad-phdrs": badPhdrs} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		out, errs, code := faceRunFace(t, "llvm-symbolizer", []string{"--obj=" + p, "0x10a0"}, "")
		if code != 0 || !strings.HasPrefix(out, "main\n/build/sanitrace/src/prog.c:35:") {
			t.Errorf("%s: llvm-symbolizer face: %q (stderr %q, exit %d)", name, out, errs, code)
		}
		out, errs, code = faceRunFace(t, "addr2line", []string{"-f", "-e", p, "0x10a0"}, "")
		if code != 0 || out != "main\n/build/sanitrace/src/prog.c:35\n" {
			t.Errorf("%s: addr2line face: %q (stderr %q, exit %d)", name, out, errs, code)
		}
	}
}
