package main

import (
	"debug/elf"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestDistroDebugPackageLive symbolizes the system's libc through the debug
// file Debian's libc6-dbg installs under /usr/lib/debug/.build-id and
// compares every answer with binutils addr2line and llvm-symbolizer, which
// find it the same way. Skipped where libc6-dbg is not installed.
func TestDistroDebugPackageLive(t *testing.T) {
	var libc string
	for _, p := range []string{"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6"} {
		if _, err := os.Stat(p); err == nil {
			libc = p
			break
		}
	}
	if libc == "" {
		t.Skip("no x86-64 glibc at the usual paths")
	}
	id, err := debuginfo.ReadBuildID(libc)
	if err != nil || len(id) < 2 {
		t.Skipf("%s: no build-id (%v)", libc, err)
	}
	if _, err := os.Stat(debuginfo.BuildIDPath("/usr/lib/debug", id)); err != nil {
		t.Skipf("libc6-dbg not installed (no %s)", debuginfo.BuildIDPath("/usr/lib/debug", id))
	}
	f, err := elf.Open(libc)
	if err != nil {
		t.Fatal(err)
	}
	text := f.Section(".text")
	f.Close()
	if text == nil {
		t.Fatalf("%s: no .text", libc)
	}
	// Every 997th byte of .text: about 1,400 addresses over the whole library.
	var in strings.Builder
	for a := text.Addr; a < text.Addr+text.Size; a += 997 {
		fmt.Fprintf(&in, "0x%x\n", a)
	}
	cases := []struct {
		name, tool, argv0 string
		args              []string
	}{
		{"addr2line", "addr2line", "addr2line", []string{"-f", "-i", "-C", "-a", "-e", libc}},
		{"llvm-json", "llvm-symbolizer", "llvm-symbolizer", []string{"--output-style=JSON", "--obj=" + libc}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reftool.Need(t, c.tool)
			want, _, _ := reftool.Run(t, c.tool, c.args, in.String())
			got, _, _ := runArgv0(t, c.argv0, c.args, in.String())
			if got != want {
				t.Errorf("%s on %s differs from %s:\n%s", c.name, libc, c.tool, golden.FirstDiff(want, got))
			}
		})
	}
}
