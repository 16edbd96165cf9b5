package pipeline

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/ulikunitz/xz"
)

const plainLog = "line one\n==1==ERROR: AddressSanitizer: SEGV on unknown address 0x0\nline three\n"

func zst(t *testing.T, b []byte) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

func xzc(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readLog(t *testing.T, name string, stdin []byte) (string, error) {
	t.Helper()
	rc, err := OpenLog(name, bytes.NewReader(stdin))
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), err
}

// TestOpenLogDecompresses: gzip, zstd, xz (and gzip in gzip) are read by
// their magic, from files whatever their names and from stdin.
func TestOpenLogDecompresses(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"plain.gz":      []byte(plainLog),
		"a.log":         fixture.Gzip(t, []byte(plainLog)),
		"b.txt":         zst(t, []byte(plainLog)),
		"c":             xzc(t, []byte(plainLog)),
		"double.log.gz": fixture.Gzip(t, fixture.Gzip(t, []byte(plainLog))),
	}
	if bz, err := exec.LookPath("bzip2"); err == nil {
		cmd := exec.Command(bz, "-c")
		cmd.Stdin = strings.NewReader(plainLog)
		if out, err := cmd.Output(); err == nil {
			cases["d.bz2"] = out
		}
	}
	for name, data := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, in := range []struct {
			name  string
			stdin []byte
		}{{p, nil}, {"-", data}} {
			got, err := readLog(t, in.name, in.stdin)
			if err != nil || got != plainLog {
				t.Errorf("%s (as %s): %q, %v", name, in.name, got, err)
			}
		}
	}
}

// TestOpenLogRefuses: what is not a log is an *InputError naming the
// input and saying what it is; a log with a stray NUL is still a log.
func TestOpenLogRefuses(t *testing.T) {
	dir := t.TempDir()
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	f, _ := zw.Create("x.log")
	f.Write([]byte(plainLog))
	zw.Close()
	var tarBuf bytes.Buffer
	tw := tar.NewWriter(&tarBuf)
	tw.WriteHeader(&tar.Header{Name: "x.log", Mode: 0o644, Size: int64(len(plainLog))})
	tw.Write([]byte(plainLog))
	tw.Close()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i*i*31)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"prog", append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...), "an ELF file"},
		{"logs.zip", zipBuf.Bytes(), "a zip archive"},
		{"logs.tar", tarBuf.Bytes(), "a tar archive"},
		{"logs.tar.gz", fixture.Gzip(t, tarBuf.Bytes()), "not a log"},
		{"core", random, "binary data"},
		{"libx.a", []byte("!<arch>\nfoo.o/ 0 0 0 644 10 `\n"), "an ar archive"},
		{"bad.gz", []byte("\x1f\x8b\x00\x00garbage"), "gzip data"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readLog(t, p, nil)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Name != p || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want an InputError naming it and saying %q", c.name, err, c.want)
		}
	}
	_, err := readLog(t, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "sanitrace batch") {
		t.Errorf("a directory: %v, want the hint to use batch", err)
	}
	_, err = readLog(t, filepath.Join(dir, "missing"), nil)
	if err == nil || strings.Count(err.Error(), "missing") != 1 {
		t.Errorf("a missing file: %v, want its name once", err)
	}
	if got, err := readLog(t, "-", []byte("ok\x00then text\n"+strings.Repeat("a normal line of a log\n", 10))); err != nil || !strings.HasPrefix(got, "ok\x00") {
		t.Errorf("a log with one NUL: %q, %v", got, err)
	}
	if got, err := readLog(t, "-", nil); err != nil || got != "" {
		t.Errorf("empty stdin: %q, %v", got, err)
	}
}

// TestOpenLogDoesNotWaitForMore: on a live pipe, telling a log from a
// compressed or binary one takes what the first write brings; it does
// not wait for a buffer's worth of input.
func TestOpenLogDoesNotWaitForMore(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go io.WriteString(pw, "starting\n")
	opened := make(chan error, 1)
	go func() {
		rc, err := OpenLog("-", pr)
		if err == nil {
			buf := make([]byte, 64)
			var n int
			n, err = rc.Read(buf)
			if err == nil && string(buf[:n]) != "starting\n" {
				err = errors.New("read " + string(buf[:n]))
			}
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // a hang guard, not a performance bound
		t.Fatal("OpenLog waits for more input than the first line")
	}
}
