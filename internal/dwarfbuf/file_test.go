package dwarfbuf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileCStringAt checks that a mapped file's strings, read with pread,
// are the ones CStringAt reads from the bytes, for strings that fit the
// first read and strings that span several, at the end of the range and
// past it, and that a file held in memory reads the same.
func TestFileCStringAt(t *testing.T) {
	long := strings.Repeat("_ZN5outer", 100) // 900 bytes: four reads of 256
	data := []byte("\x00short\x00" + long + "\x00unterminated")
	path := filepath.Join(t.TempDir(), "strings")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := Map(f)
	f.Close() // the File keeps what it needs
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	if mapped.fd < 0 {
		t.Skip("the file was not mapped here; CStringAt reads the bytes then")
	}
	end := uint64(len(data))
	cases := []struct {
		name     string
		off, end uint64
		want     string
		ok       bool
	}{
		{"empty", 0, end, "", true},
		{"short", 1, end, "short", true},
		{"inside", 3, end, "ort", true},
		{"long", 7, end, long, true},
		{"long, from its middle", 7 + 600, end, long[600:], true},
		{"unterminated at the end", end - 12, end, "", false},
		{"cut by end", 7, 7 + 300, "", false},
		{"at end", end, end, "", false},
		{"past the file", 0, end + 1, "", false},
	}
	for _, c := range cases {
		for _, m := range []*File{mapped, Memory(data)} {
			got, ok := m.CStringAt(c.off, c.end)
			if got != c.want || ok != c.ok {
				t.Errorf("%s (mapped %v): CStringAt(%d, %d) = %q, %v; want %q, %v", c.name, m.fd >= 0, c.off, c.end, got, ok, c.want, c.ok)
			}
			if want := c.ok && c.want != ""; m.NonEmptyAt(c.off, c.end) != want && c.ok {
				t.Errorf("%s (mapped %v): NonEmptyAt(%d, %d) = %v, want %v", c.name, m.fd >= 0, c.off, c.end, !want, want)
			}
		}
	}
}
