package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// TestDecodeCompressedLogs: a gzip, zstd or xz log decodes as the plain
// one does, told by its magic (not its name), from a file or stdin; a
// compressed log is never a silent "no reports".
func TestDecodeCompressedLogs(t *testing.T) {
	plain := readFile(t, demoLog)
	want, _, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", demoLog)
	if code != exitFound {
		t.Fatalf("plain log: exit %d", code)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(plain))
	zw.Close()
	enc, _ := zstd.NewWriter(nil)
	zs := enc.EncodeAll([]byte(plain), nil)
	enc.Close()
	var x bytes.Buffer
	xw, _ := xz.NewWriter(&x)
	xw.Write([]byte(plain))
	xw.Close()
	dir := t.TempDir()
	files := map[string][]byte{"session.log.gz": gz.Bytes(), "session.zst": zs, "session.log": x.Bytes()}
	// The real tools' output too, where installed (CI installs zstd).
	for tool, name := range map[string]string{"gzip": "tool.gz", "zstd": "tool.zst", "xz": "tool.xz"} {
		if p, err := exec.LookPath(tool); err == nil {
			cmd := exec.Command(p, "-c", demoLog)
			if b, err := cmd.Output(); err == nil {
				files[name] = b
			}
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", p)
		if code != exitFound || out != want {
			t.Errorf("%s: exit %d, stderr %q, output differs from the plain log's:\n%s", name, code, errs, out)
		}
		out, _, code = runCLI(t, string(data), "decode", "--symbolize=false", "--color=never")
		if code != exitFound || out != want {
			t.Errorf("%s on stdin: exit %d", name, code)
		}
	}
	// A cut gzip: the report it holds is still shown, the cut is an
	// input error (exit 2) naming the file.
	cut := filepath.Join(dir, "cut.gz")
	os.WriteFile(cut, gz.Bytes()[:gz.Len()*3/4], 0o644)
	out, errs, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", cut)
	if code != exitUsage || !strings.Contains(errs, cut+": gzip data: unexpected EOF") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("cut gzip: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "heap-use-after-free") {
		t.Errorf("cut gzip: the report before the cut is not shown:\n%s", out)
	}
}

// TestDecodeRefusesNonLogs: an ELF file, an archive, binary data or a
// directory given as a log is a one-line error naming it (exit 2), and
// the other inputs are still decoded.
func TestDecodeRefusesNonLogs(t *testing.T) {
	dir := t.TempDir()
	zipFile := filepath.Join(dir, "logs.zip")
	os.WriteFile(zipFile, []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"+strings.Repeat("\x00", 40)), 0o644)
	bin := filepath.Join(dir, "data.bin")
	b := make([]byte, 2048)
	for i := range b {
		b[i] = byte(i * 131)
	}
	os.WriteFile(bin, b, 0o644)
	elf := filepath.Join(demoDir, "session") // the demo's binary
	for _, c := range []struct{ input, want string }{
		{elf, "not a log: an ELF file"},
		{zipFile, "not a log: a zip archive (use sanitrace batch"},
		{bin, "not a log: binary data"},
		{dir, "is a directory; decode reads log files, use \"sanitrace batch " + dir + "\""},
	} {
		out, errs, code := runCLI(t, "", "decode", "--symbolize=false", "--color=never", c.input, demoLog)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", c.input, code, exitUsage)
		}
		if want := "sanitrace: " + c.input + ": " + c.want; !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line starting %q", c.input, errs, want)
		}
		if !strings.Contains(out, "heap-use-after-free") {
			t.Errorf("%s: the log after it was not decoded", c.input)
		}
	}
	// The same on stdin.
	_, errs, code := runCLI(t, readFile(t, elf), "decode")
	if code != exitUsage || !strings.HasPrefix(errs, "sanitrace: -: not a log: an ELF file") {
		t.Errorf("ELF on stdin: exit %d, stderr %q", code, errs)
	}
}

// TestDecodeFilters: --tool and --kind choose the reports shown and
// counted (case-insensitively, short tool names too); --frames user
// collapses the frames outside the program; -q prints nothing.
func TestDecodeFilters(t *testing.T) {
	base := []string{"decode", "--symbolize=false", "--color=never"}
	run := func(flags ...string) (string, string, int) {
		t.Helper()
		return runCLI(t, "", append(append(append([]string{}, base...), flags...), demoLog, ubsanLog)...)
	}
	for _, c := range []struct {
		flags       []string
		asan, ubsan bool
		code        int
	}{
		{nil, true, true, exitFound},
		{[]string{"--tool", "asan"}, true, false, exitFound},
		{[]string{"--tool", "AddressSanitizer"}, true, false, exitFound},
		{[]string{"--tool", "UBSAN"}, false, true, exitFound},
		{[]string{"--tool", "asan,ubsan"}, true, true, exitFound},
		{[]string{"--tool", "tsan"}, false, false, exitOK},
		{[]string{"--kind", "Heap-Use-After-Free"}, true, false, exitFound},
		{[]string{"--kind", "misaligned-pointer-use"}, false, true, exitFound},
		{[]string{"--tool", "asan", "--kind", "misaligned-pointer-use"}, false, false, exitOK},
	} {
		out, errs, code := run(c.flags...)
		asan := strings.Contains(out, "heap-use-after-free on address")
		ubsan := strings.Contains(out, "load of misaligned address")
		if code != c.code || asan != c.asan || ubsan != c.ubsan {
			t.Errorf("%v: exit %d, ASan %v, UBSan %v; want %d, %v, %v\nstderr: %s", c.flags, code, asan, ubsan, c.code, c.asan, c.ubsan, errs)
		}
	}

	all, _, _ := run()
	user, _, code := run("--frames", "USER")
	if code != exitFound {
		t.Errorf("--frames user: exit %d", code)
	}
	for _, gone := range []string{"libc.so.6+0x27249", "libasan.so.8+0xb76a8", "__libc_start_main"} {
		if !strings.Contains(all, gone) || strings.Contains(user, gone) {
			t.Errorf("--frames user: %q not collapsed", gone)
		}
	}
	for _, kept := range []string{"#1 0x55e43b40e3cd (/build/demo/session+0x13cd)", "#0 0x5624289681bb in load_u32", "#2-#3 (2 frames: libc)", "#0 (1 frame: runtime)", "#4 (1 frame: libc)"} {
		if !strings.Contains(user, kept) {
			t.Errorf("--frames user lacks %q:\n%s", kept, user)
		}
	}
	for _, bad := range [][]string{{"--frames", "some"}, {"--frames", "user", "--format", "json"}} {
		if _, errs, code := run(bad...); code != exitUsage || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs)
		}
	}
	out, errs, code := run("-q")
	if code != exitFound || out != "" || errs != "" {
		t.Errorf("-q: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, code := runCLI(t, "", "decode", "-q", "--tool", "tsan", demoLog); code != exitOK || out != "" {
		t.Errorf("-q --tool tsan: exit %d, stdout %q", code, out)
	}
}
