package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// Kernel frames resolve against the stand-in vmlinux at symbol address +
// offset to what binutils' addr2line -f -i says there (testdata/kernel/
// addr2line.txt, recorded by `make -C testdata kernel`), inline chains
// included; the frame whose printed size is not the symbol's is left as
// printed, marked, and warned about; the module, a .ko, is named in a
// warning and left alone.
func TestDecodeKernelVmlinux(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	out, stderr, code := runCLI(t, "", "decode", "--format", "json",
		"--vmlinux", filepath.Join(td, "elf", "kernel", "vmlinux"),
		"--modules-dir", filepath.Join(td, "elf", "kernel"),
		filepath.Join(td, "kernel", "standin.log"))
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	doc := parseDecodeJSON(t, out)
	if len(doc.Reports) != 1 || len(doc.Reports[0].Stacks) != 1 {
		t.Fatalf("want one report with one stack, got %+v", doc)
	}
	var got []string
	var mismatch, module int
	for _, f := range doc.Reports[0].Stacks[0].Frames {
		switch {
		case f.Symbolized == "sanitrace":
			got = append(got, str(f.Function)+"\n"+str(f.File)+":"+strconv.Itoa(f.Line))
		case f.Problem != "":
			mismatch++
			if !strings.Contains(f.Problem, "size mismatch") || str(f.Function) != "print_report" {
				t.Errorf("problem frame %s: %q", str(f.Function), f.Problem)
			}
		case str(f.Module) == "ringbuf":
			module++
		default:
			t.Errorf("frame %s+%s left unresolved", str(f.Function), str(f.SymbolOffset))
		}
	}
	ref, err := os.ReadFile(filepath.Join(td, "kernel", "addr2line.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(string(ref), "\n")
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("resolved frames differ from addr2line -f -i:\ngot:\n%s\nwant:\n%s", g, want)
	}
	if mismatch != 1 || module != 1 {
		t.Errorf("%d size-mismatch frames, %d module frames; want 1 and 1", mismatch, module)
	}
	for _, w := range []string{"print_report+0x5/0x32: size mismatch", "ringbuf.ko: a relocatable object"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}

// The same decode as text: the frames sanitrace resolved as the kernel's
// decode_stacktrace.sh prints them ("func (file:line file:line) module",
// an inline chain's locations innermost first), the size-mismatch frame and
// the module's frame as the kernel printed them, inside <TASK> markers.
func TestDecodeKernelVmlinuxText(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	out, stderr, code := runCLI(t, "", "decode", "--color=never",
		"--vmlinux", filepath.Join(td, "elf", "kernel", "vmlinux"),
		"--modules-dir", filepath.Join(td, "elf", "kernel"),
		filepath.Join(td, "kernel", "standin.log"))
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{
		" kasan_report (/build/sanitrace/src/kernel/vmlinux.c:16 /build/sanitrace/src/kernel/vmlinux.c:29) (sanitrace)\n",
		" print_report+0x5/0x32\n",
		" ring_pop+0x12/0x5f [ringbuf]\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	golden.Check(t, filepath.Join(golden.Dir("decode"), "kernel-standin.txt"), out)
}

// A vmlinux whose build id is not the one the log's CPU: line prints is
// not used.
func TestDecodeKernelBuildIDMismatch(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	log, err := os.ReadFile(filepath.Join(td, "kernel", "standin.log"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(log), "6.1.0-standin #1", "6.1.0-standin #1 0123456789abcdef0123456789abcdef01234567", 1)
	out, stderr, _ := runCLI(t, text, "decode", "--format", "json",
		"--vmlinux", filepath.Join(td, "elf", "kernel", "vmlinux"), "-")
	for _, f := range parseDecodeJSON(t, out).Reports[0].Stacks[0].Frames {
		if f.Symbolized == "sanitrace" {
			t.Fatalf("frame %s resolved against a vmlinux of another build", str(f.Function))
		}
	}
	if !strings.Contains(stderr, "the log's kernel is 0123456789abcdef0123456789abcdef01234567") {
		t.Errorf("no build id warning:\n%s", stderr)
	}
}

// gdb's bt of a stripped program ("in ?? ()", testdata/gdb/looks.log, made
// by `make -C testdata looks`) completed with --obj: the frames sanitrace
// resolved printed as gdb prints frames with debug info, the inlined call
// as a frame of its own, gdb's own frames as printed, and every frame
// keeping the number gdb printed: the inlined call sanitrace found at #0
// is #0.1, above #0 itself, and #1 stays #1 (text never renumbers). The
// functions and lines are llvm-symbolizer 14's at the same addresses.
func TestDecodeGDBLook(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	out, stderr, code := runCLI(t, "", "decode", "--color=never",
		"--obj", filepath.Join(td, "elf", "looks-O1-nopie"),
		filepath.Join(td, "gdb", "looks.log"))
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{
		"#0.1 0x000000000040110c in peek () at /build/sanitrace/src/looks/looks.c:10 (sanitrace)\n",
		"#0  read_slot () at /build/sanitrace/src/looks/looks.c:15 (sanitrace)\n",
		"#1  0x000000000040112d in main () at /build/sanitrace/src/looks/looks.c:21 (sanitrace)\n",
		"#2  0x00007ffff7dfb24a in __libc_start_call_main (main=main@entry=0x401111,",
		"#4  0x0000000000401041 in _start () from ",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	out = strings.ReplaceAll(out, filepath.Join(td, "elf")+"/", "")
	golden.Check(t, filepath.Join(golden.Dir("decode"), "gdb-looks.txt"), out)
}
