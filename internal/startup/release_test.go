//go:build linux

package startup

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// rssFileKB is the file-backed part of this process's resident set.
func rssFileKB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("RssFile: %q: %v", v, err)
			}
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

// TestRelease checks that Release finds this test binary's read-only
// mappings and that their pages leave the resident set (the test binary
// is several MB, and its start-up touched most of it).
func TestRelease(t *testing.T) {
	before := rssFileKB(t)
	n, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFileKB(t)
	if n < 1<<20 {
		t.Fatalf("Release spanned %d bytes; want the executable's text and read-only data (MBs)", n)
	}
	if after >= before {
		t.Fatalf("RssFile %d kB before Release, %d kB after: nothing was handed back", before, after)
	}
	t.Logf("Release: %d bytes of mappings; RssFile %d -> %d kB", n, before, after)
}

func TestReadOnlyMappingOf(t *testing.T) {
	id := fileID{dev: unix.Mkdev(0xfd, 0x01), ino: 1234}
	cases := []struct {
		line   string
		lo, hi uint64
		ok     bool
	}{
		{"00400000-00c8c000 r-xp 00000000 fd:01 1234 /usr/bin/sanitrace", 0x400000, 0xc8c000, true},
		{"00c8c000-01500000 r--p 0088c000 fd:01 1234 /usr/bin/sanitrace", 0xc8c000, 0x1500000, true},
		{"01500000-01540000 rw-p 01100000 fd:01 1234 /usr/bin/sanitrace", 0, 0, false}, // writable
		{"7f0000000000-7f0000001000 r--p 00000000 fd:01 99 /lib/libc.so", 0, 0, false}, // another file
		{"7f0000000000-7f0000001000 r--s 00000000 fd:01 1234 /usr/bin/sanitrace", 0, 0, false},
		{"00400000-00300000 r-xp 00000000 fd:01 1234 /x", 0, 0, false}, // empty range
		{"zz-00300000 r-xp 00000000 fd:01 1234 /x", 0, 0, false},
		{"00400000-00c8c000 r-xp 00000000 fd:01 1234", 0, 0, false},            // no path field
		{"00400000-00c8c000 r-xp 00000000 fd:02 1234 /mnt/other", 0, 0, false}, // same inode, another device
		{"", 0, 0, false},
	}
	for _, c := range cases {
		lo, hi, ok := readOnlyMappingOf([]byte(c.line), id)
		if lo != c.lo || hi != c.hi || ok != c.ok {
			t.Errorf("%q: got %#x-%#x %v, want %#x-%#x %v", c.line, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
}
