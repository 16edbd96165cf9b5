package debuginfo

import (
	"debug/elf"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/elfbuild"
)

// buildIDNote is a GNU build-id note holding id.
func buildIDNote(id []byte) []byte {
	n := make([]byte, 12, 16+len(id)+3)
	binary.LittleEndian.PutUint32(n[0:], 4)
	binary.LittleEndian.PutUint32(n[4:], uint32(len(id)))
	binary.LittleEndian.PutUint32(n[8:], 3) // NT_GNU_BUILD_ID
	n = append(n, "GNU\x00"...)
	n = append(n, id...)
	for len(n)%4 != 0 {
		n = append(n, 0)
	}
	return n
}

// FuzzDebugFileLookup: a binary whose .gnu_debuglink and build-id note
// are the fuzzer's, searched for its debug file among real candidates (a
// .build-id tree and a debuglink target next to it). No panic; a debug
// file found is never the binary itself, and one found by build-id
// carries that build-id.
func FuzzDebugFileLookup(f *testing.F) {
	f.Add([]byte("prog.debug\x00\x00\x00\x00\x00\x00"), []byte{0xab, 0xcd, 0xef, 0x01})
	f.Add([]byte("../prog.debug\x00\x00\x00"), []byte{0xab})
	f.Add([]byte("\x00"), []byte(nil))
	f.Add([]byte("prog\x00\x00\x00\x00\x12\x34\x56\x78"), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	root := f.TempDir()
	debugDir := filepath.Join(root, "debug")
	// A debug file by build-id abcdef01 and one named by a debuglink.
	dbg := elfbuild.Build(elfbuild.Section{Name: ".note.gnu.build-id", Type: elf.SHT_NOTE, Data: buildIDNote([]byte{0xab, 0xcd, 0xef, 0x01})},
		elfbuild.Section{Name: ".debug_info", Type: elf.SHT_PROGBITS, Data: []byte{1, 2, 3}})
	byID := filepath.Join(debugDir, ".build-id", "ab", "cdef01.debug")
	if err := os.MkdirAll(filepath.Dir(byID), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(byID, dbg, 0o600); err != nil {
		f.Fatal(err)
	}
	binDir := filepath.Join(root, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(binDir, "prog.debug"), dbg, 0o600); err != nil {
		f.Fatal(err)
	}
	crc := crc32.ChecksumIEEE(dbg)
	f.Add(append([]byte("prog.debug\x00\x00"), byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)), []byte{9, 9})
	bin := filepath.Join(binDir, "prog")
	f.Fuzz(func(t *testing.T, link, id []byte) {
		data := elfbuild.Build(
			elfbuild.Section{Name: ".note.gnu.build-id", Type: elf.SHT_NOTE, Data: buildIDNote(id)},
			elfbuild.Section{Name: ".gnu_debuglink", Type: elf.SHT_PROGBITS, Data: link},
		)
		if err := os.WriteFile(bin, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := Open(bin)
		if err != nil {
			t.Fatalf("builder made an unreadable file: %v", err)
		}
		defer file.Close()
		finder := &Finder{DebugDirs: []string{debugDir}}
		defer finder.Close()
		found, err := finder.DebugFile(file)
		if err != nil {
			return
		}
		defer found.Close()
		if p, _ := filepath.Abs(found.Path); p == bin {
			t.Fatalf("the binary is its own debug file (link %q)", link)
		}
		if strings.Contains(found.Path, ".build-id") && string(found.BuildID) != string(file.BuildID) {
			t.Fatalf("found %s by build-id %x, it has %x", found.Path, file.BuildID, found.BuildID)
		}
	})
}

// FuzzPrefixMap: a --prefix-map value parsed and applied. A parsed map
// gives back the flag's text; applied to its own FROM it gives TO, and a
// rewritten path keeps the rest after FROM.
func FuzzPrefixMap(f *testing.F) {
	f.Add("/build/ci=/home/me/src", "/build/ci/x/y.c")
	f.Add("/=/sysroot", "/usr/lib/libc.so.6")
	f.Add("/build/ci/=/src/", "/build/cix")
	f.Add("=x", "/a")
	f.Fuzz(func(t *testing.T, flag, path string) {
		m, err := ParsePrefixMap(flag)
		if err != nil {
			return
		}
		if m.From == "" || m.From+"="+m.To != flag {
			t.Fatalf("ParsePrefixMap(%q) = %+v", flag, m)
		}
		from := strings.TrimSuffix(m.From, "/")
		if from == "" {
			from = "/"
		}
		if got, ok := Apply([]PrefixMap{m}, from); !ok || got != m.To {
			t.Fatalf("Apply(%+v, %q) = %q, %v; want TO", m, from, got, ok)
		}
		got, ok := Apply([]PrefixMap{m}, path)
		if !ok {
			if got != path {
				t.Fatalf("unmapped %q came back as %q", path, got)
			}
			return
		}
		if path != from && !strings.HasPrefix(got, strings.TrimSuffix(m.To, "/")) {
			t.Fatalf("Apply(%+v, %q) = %q: TO is not its prefix", m, path, got)
		}
	})
}
