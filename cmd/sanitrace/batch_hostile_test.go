package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/sanitrace/sanitrace/wire"
)

// TestBatchHostileInputs: a zip with ../ and absolute member names, a
// .tar.gz that inflates to 10 GB, a .log.gz that does too, a tar with a
// symbolic link loop, unreadable files and a 2 GB log, next to real logs.
// Each costs one line in errors (the 2 GB log none: it is streamed), every
// real log is still reported, and the process stays small.
func TestBatchHostileInputs(t *testing.T) {
	t.Parallel() // long and self-contained
	if testing.Short() {
		t.Skip("-short: streams a 2 GB log")
	}
	cases := fixtureCases(t)
	report, err := os.ReadFile(filepath.Join(cases[0].dir, "symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "in")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(dir, 0o755))
	write := func(name string, data []byte) {
		must(os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	write("good.log", report)

	// A zip whose members climb out, are absolute, or are fine.
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, n := range []string{"../../../tmp/evil.log", "/etc/cron.d/evil.log", "inside.log"} {
		w, _ := zw.Create(n)
		w.Write(report)
	}
	must(zw.Close())
	write("evil.zip", zb.Bytes())

	// A tar.gz of 10 GB when inflated: a header saying so, then gzip
	// members of 1 MiB of zeros each, one compressed block written 10240
	// times (gzip allows concatenated members).
	var hdr bytes.Buffer
	must(tar.NewWriter(&hdr).WriteHeader(&tar.Header{Name: "core.bin", Mode: 0o644, Size: 10 << 30, Typeflag: tar.TypeReg}))
	writeBomb(t, filepath.Join(dir, "bomb.tar.gz"), hdr.Bytes(), make([]byte, 1<<20), 10<<30)
	// A .log.gz of 10 GB of text.
	writeBomb(t, filepath.Join(dir, "bomb.log.gz"), report, bytes.Repeat([]byte("noise noise noise noise noise..\n"), 1<<15), 10<<30)

	// A tar whose links go round, next to a real log.
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: "a", Linkname: "b", Typeflag: tar.TypeSymlink})
	tw.WriteHeader(&tar.Header{Name: "b", Linkname: "a", Typeflag: tar.TypeSymlink})
	tw.WriteHeader(&tar.Header{Name: "real.log", Mode: 0o644, Size: int64(len(report)), Typeflag: tar.TypeReg})
	tw.Write(report)
	must(tw.Close())
	write("loop.tar", tb.Bytes())

	// Unreadable: a link loop on disk, and (unless we are root) a file
	// without read permission.
	must(os.Symlink("unreadable-b", filepath.Join(dir, "unreadable-a")))
	must(os.Symlink("unreadable-a", filepath.Join(dir, "unreadable-b")))
	noperm := filepath.Join(dir, "noperm.log")
	write("noperm.log", report)
	must(os.Chmod(noperm, 0))
	asRoot := os.Geteuid() == 0

	// A 2 GB log: a report and some program output, a 2 GB hole (the file
	// system stores none of it; it reads as one endless line of NULs), a
	// report.
	big := filepath.Join(dir, "huge.log")
	f, err := os.Create(big)
	must(err)
	f.Write(report)
	f.Write(bytes.Repeat([]byte("worker 3: request served in 12 ms\n"), 1000))
	must(f.Truncate(2 << 30))
	_, err = f.Seek(0, 2)
	must(err)
	f.Write([]byte("\n"))
	f.Write(report)
	must(f.Close())

	exe := buildSanitrace(t)
	cmd := exec.Command(exe, "batch", "--fail-on", "none", "--max-entry-size", "64M", "-j", "2", dir)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("batch: %v\n%s", err, stderr.String())
	}
	var doc wire.Batch
	must(json.Unmarshal(out.Bytes(), &doc))

	perLog := make(map[string]int)
	for _, r := range doc.Reports {
		perLog[strings.TrimPrefix(r.Source.Name(), dir+"/")]++
	}
	want := map[string]int{"good.log": 1, "evil.zip!/inside.log": 1, "loop.tar!/real.log": 1, "huge.log": 2, "bomb.log.gz": 1}
	if !asRoot {
		delete(want, "noperm.log")
	} else {
		want["noperm.log"] = 1
	}
	if !equalCounts(perLog, want) {
		t.Errorf("reports per log %v, want %v", perLog, want)
	}
	var errs []string
	for _, e := range doc.Errors {
		errs = append(errs, strings.TrimPrefix(e.Source.Name(), dir+"/")+": "+e.Error)
		if strings.ContainsAny(e.Error, "\r\n") {
			t.Errorf("error of more than one line: %q", e.Error)
		}
	}
	sort.Strings(errs)
	wantErrs := []string{
		"bomb.log.gz: log longer than the inflated size limit (--max-entry-size): the rest was not read",
		"bomb.tar.gz!/core.bin: member of 10.0 GiB inflates to more than 64.0 MiB (--max-entry-size): the rest of the archive is skipped",
		"evil.zip!//etc/cron.d/evil.log: unsafe member name (absolute, with .., or empty): skipped",
		"evil.zip!/../../../tmp/evil.log: unsafe member name (absolute, with .., or empty): skipped",
		"loop.tar!/a: symbolic link loop (a -> b -> a): not followed",
		"unreadable-a: stat: too many levels of symbolic links",
		"unreadable-b: stat: too many levels of symbolic links",
	}
	if !asRoot {
		wantErrs = append(wantErrs, "noperm.log: open: permission denied")
	}
	sort.Strings(wantErrs)
	if !reflect2(errs, wantErrs) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(wantErrs, "\n"))
	}
	// Nothing was written beside the inputs, and the escape did not happen.
	if _, err := os.Stat("/tmp/evil.log"); err == nil {
		t.Errorf("/tmp/evil.log exists")
	}
	// Bounded memory: 2 GB of log and 20 GB of bombs in well under 1 GB.
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		if rss := ru.Maxrss << 10; rss > 512<<20 {
			t.Errorf("peak RSS %d MiB", rss>>20)
		}
		t.Logf("peak RSS %d MiB", ru.Maxrss>>10)
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func reflect2(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// writeBomb writes head (gzip-compressed) and then total bytes of chunk
// as repeated copies of one gzip member: gigabytes in a few megabytes.
func writeBomb(t *testing.T, path string, head, chunk []byte, total int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gzipped := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, flate.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	f.Write(gzipped(head))
	member := gzipped(chunk)
	for n := int64(0); n < total; n += int64(len(chunk)) {
		if _, err := f.Write(member); err != nil {
			t.Fatal(err)
		}
	}
}
