package artifact

import (
	"archive/tar"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestWalkFormats: every input form gives its logs and binaries, in order,
// with nothing written next to the inputs.
func TestWalkFormats(t *testing.T) {
	dir := t.TempDir()
	elf := elfBytes(t)
	n := itoa(len(elf))
	writeFile(t, filepath.Join(dir, "a.log"), []byte("log a\n"))
	writeFile(t, filepath.Join(dir, "sub", "b.txt"), []byte("log b\n"))
	writeFile(t, filepath.Join(dir, "sub", "prog"), elf)
	writeFile(t, filepath.Join(dir, "image.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	writeFile(t, filepath.Join(dir, "empty.log"), nil)
	tarred := tarBytes(t,
		tmember{name: "logs/", body: ""},
		tmember{name: "logs/c.log", body: "log c\n"},
		tmember{name: "bin/prog", body: string(elf)},
		tmember{name: "bin/prog.link", link: "prog"},
		tmember{name: "core", body: "\x00\x01\x02"},
	)
	writeFile(t, filepath.Join(dir, "x.tar"), tarred)
	writeFile(t, filepath.Join(dir, "x.tar.gz"), fixture.Gzip(t, tarred))
	writeFile(t, filepath.Join(dir, "x.tgz.renamed"), fixture.Gzip(t, tarred))
	writeFile(t, filepath.Join(dir, "x.tar.zst"), zstBytes(t, tarred))
	writeFile(t, filepath.Join(dir, "x.zip"), zipBytes(t,
		tmember{name: "d.log", body: "log d\n"},
		tmember{name: "inner.tar.gz", body: string(fixture.Gzip(t, tarBytes(t, tmember{name: "e.log", body: "log e\n"})))},
		tmember{name: "dir\\f.log", body: "log f\n"},
	))
	writeFile(t, filepath.Join(dir, "y.log.gz"), fixture.Gzip(t, []byte("log y\n")))
	before := listTree(t, dir)

	got := walkAll(t, &Walker{}, dir)
	tars := func(name string) []string {
		return []string{
			"log " + name + "!/logs/c.log = log c",
			"binary " + name + "!/bin/prog " + n,
			"binary " + name + "!/bin/prog.link " + n,
		}
	}
	want := []string{"log " + dir + "/a.log = log a", "log " + dir + "/empty.log = "}
	want = append(want,
		"log "+dir+"/sub/b.txt = log b",
		"binary "+dir+"/sub/prog "+n,
	)
	// WalkDir order: a.log, empty.log, image.png, sub/, x.tar, x.tar.gz, x.tar.zst, x.tgz.renamed, x.zip, y.log.gz
	want = append(want, tars(dir+"/x.tar")...)
	want = append(want, tars(dir+"/x.tar.gz")...)
	want = append(want, tars(dir+"/x.tar.zst")...)
	want = append(want, tars(dir+"/x.tgz.renamed")...)
	want = append(want,
		"log "+dir+"/x.zip!/d.log = log d",
		"log "+dir+"/x.zip!/inner.tar.gz!/e.log = log e",
		"log "+dir+"/x.zip!/dir/f.log = log f",
		"log "+dir+"/y.log.gz = log y",
	)
	if !reflect.DeepEqual(got.entries, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got.entries, "\n"), strings.Join(want, "\n"))
	}
	if len(got.errors) != 0 {
		t.Errorf("errors: %q", got.errors)
	}
	if after := listTree(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("the walk changed the input tree:\n%q\n%q", before, after)
	}
}

func listTree(t *testing.T, dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestWalkWantCounts: a walk that reads only binaries sees the same entries
// (logs classified, not read) as one that reads everything.
func TestWalkWantCounts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "x.tar.gz"), fixture.Gzip(t, tarBytes(t,
		tmember{name: "a.log", body: strings.Repeat("big log line\n", 1<<16)},
		tmember{name: "prog", body: string(elfBytes(t))},
	)))
	got := walkAll(t, &Walker{Want: map[Kind]bool{Binary: true}}, dir)
	if len(got.entries) != 2 || !strings.HasPrefix(got.entries[0], "log ") || !strings.HasSuffix(got.entries[0], "(not read)") {
		t.Errorf("entries %q", got.entries)
	}
}

// TestWalkHostile: each hostile input costs one line in the errors and the
// other logs are still read.
func TestWalkHostile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "good.log"), []byte("good\n"))
	writeFile(t, filepath.Join(dir, "evil.zip"), zipBytes(t,
		tmember{name: "../../escape.log", body: "escape\n"},
		tmember{name: "/etc/abs.log", body: "abs\n"},
		tmember{name: "..\\win.log", body: "win\n"},
		tmember{name: "C:/drive.log", body: "drive\n"},
		tmember{name: "ok.log", body: "zip ok\n"},
	))
	writeFile(t, filepath.Join(dir, "loop.tar"), tarBytes(t,
		tmember{name: "a", link: "b"},
		tmember{name: "b", link: "c"},
		tmember{name: "c", link: "a"},
		tmember{name: "self", link: "./self"},
		tmember{name: "t.log", body: "tar ok\n"},
	))
	// A symbolic link loop and a dangling link on disk, and a named pipe
	// (reading it would block forever).
	os.Symlink("loop2", filepath.Join(dir, "loop1"))
	os.Symlink("loop1", filepath.Join(dir, "loop2"))
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	// A link to a file outside the input (a secret of the machine that
	// reads the artifact), and one to a file inside, which is read.
	outside := filepath.Join(t.TempDir(), "secret.log")
	writeFile(t, outside, []byte("secret\n"))
	os.Symlink(outside, filepath.Join(dir, "leak.log"))
	os.Symlink("good.log", filepath.Join(dir, "alias.log"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := walkAll(t, &Walker{}, dir, filepath.Join(dir, "missing.log"))
	wantEntries := []string{
		"log " + dir + "/alias.log = good",
		"log " + dir + "/evil.zip!/ok.log = zip ok",
		"log " + dir + "/good.log = good",
		"log " + dir + "/loop.tar!/t.log = tar ok",
	}
	if !reflect.DeepEqual(sorted(got.entries), wantEntries) {
		t.Errorf("entries %q, want %q", got.entries, wantEntries)
	}
	wantErrors := []string{
		dir + "/dangling: stat: no such file or directory",
		dir + "/evil.zip!/../../escape.log: " + errUnsafeName.Error(),
		dir + "/evil.zip!//etc/abs.log: " + errUnsafeName.Error(),
		dir + "/evil.zip!/..\\win.log: " + errUnsafeName.Error(),
		dir + "/evil.zip!/C:/drive.log: " + errUnsafeName.Error(),
		dir + "/loop.tar!/a: symbolic link loop (a -> b -> c -> a): not followed",
		dir + "/loop.tar!/self: symbolic link loop (self -> self): not followed",
		dir + "/leak.log: symbolic link out of the input directory: not followed",
		dir + "/loop1: stat: too many levels of symbolic links",
		dir + "/loop2: stat: too many levels of symbolic links",
		dir + "/missing.log: no such file or directory",
		dir + "/pipe: not a regular file (p---------)",
	}
	if !reflect.DeepEqual(sorted(got.errors), sorted(wantErrors)) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(sorted(got.errors), "\n"), strings.Join(sorted(wantErrors), "\n"))
	}
	for _, e := range got.errors {
		if strings.Contains(e, "\n") {
			t.Errorf("error of more than one line: %q", e)
		}
	}
}

// repeatedGzip writes a gzip stream that inflates to total bytes of chunk
// repeated, built from one compressed member written many times (gzip
// allows concatenated members), so a 10 GB bomb takes a few MB and
// milliseconds to make.
func repeatedGzip(t testing.TB, w io.Writer, head []byte, chunk []byte, total int64) {
	t.Helper()
	var m bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&m, flate.BestCompression)
	zw.Write(chunk)
	zw.Close()
	if head != nil {
		w.Write(fixture.Gzip(t, head))
	}
	for n := int64(0); n < total; n += int64(len(chunk)) {
		if _, err := w.Write(m.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWalkBombs: 10 GB when inflated, in three shapes; each is stopped by a
// limit without inflating it, and the log next to it is read.
func TestWalkBombs(t *testing.T) {
	dir := t.TempDir()
	const ten = 10 << 30
	chunkZero := make([]byte, 1<<20)
	chunkText := bytes.Repeat([]byte("AAAAAAAAAAAAAAA\n"), 1<<16)

	// A tar.gz whose one member is 10 GB of zeros: the header says so.
	var hb bytes.Buffer
	if err := tar.NewWriter(&hb).WriteHeader(&tar.Header{Name: "zeros.bin", Mode: 0o644, Size: ten, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	hdr := hb.Bytes() // the header only: the 10 GB body follows as gzip members
	f, _ := os.Create(filepath.Join(dir, "bomb.tar.gz"))
	repeatedGzip(t, f, hdr, chunkZero, ten)
	f.Close()
	// A single .gz log of 10 GB of text: read up to the entry limit.
	f, _ = os.Create(filepath.Join(dir, "bomb.log.gz"))
	repeatedGzip(t, f, []byte("==1==ERROR: start of a long log\n"), chunkText, ten)
	f.Close()
	// A .gz of 10 GB of zeros: not text, skipped after its first bytes.
	f, _ = os.Create(filepath.Join(dir, "zeros.gz"))
	repeatedGzip(t, f, nil, chunkZero, ten)
	f.Close()
	writeFile(t, filepath.Join(dir, "z.log"), []byte("still read\n"))

	got := walkAll(t, &Walker{Limits: Limits{Entry: 8 << 20, Archive: 64 << 20}}, dir)
	if len(got.entries) != 2 || !strings.HasPrefix(got.entries[0], "log "+dir+"/bomb.log.gz = ==1==ERROR") ||
		got.entries[1] != "log "+dir+"/z.log = still read" {
		t.Errorf("entries %.200q", got.entries)
	}
	wantErrors := []string{
		dir + "/bomb.log.gz: log longer than the inflated size limit (--max-entry-size): the rest was not read",
		dir + "/bomb.tar.gz!/zeros.bin: member of 10.0 GiB inflates to more than 8.0 MiB (--max-entry-size): the rest of the archive is skipped",
	}
	if !reflect.DeepEqual(sorted(got.errors), wantErrors) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got.errors, "\n"), strings.Join(wantErrors, "\n"))
	}
}

// TestWalkArchiveBudget: many members, each under the entry limit, that
// together pass the archive limit: the walk of that archive stops.
func TestWalkArchiveBudget(t *testing.T) {
	dir := t.TempDir()
	var ms []tmember
	for i := 0; i < 8; i++ {
		ms = append(ms, tmember{name: "m" + itoa(i) + ".log", body: strings.Repeat("x", 1<<20)})
	}
	writeFile(t, filepath.Join(dir, "many.tar.gz"), fixture.Gzip(t, tarBytes(t, ms...)))
	writeFile(t, filepath.Join(dir, "many.zip"), zipBytes(t, ms...))
	got := walkAll(t, &Walker{Limits: Limits{Entry: 2 << 20, Archive: 3 << 20}}, dir)
	if len(got.entries) < 4 || len(got.entries) > 6 {
		t.Errorf("%d entries read from two archives limited to 3 MiB each", len(got.entries))
	}
	if len(got.errors) != 2 {
		t.Errorf("errors %q", got.errors)
	}
	for _, e := range got.errors {
		if !strings.Contains(e, "(--max-archive-size)") {
			t.Errorf("error %q does not name the archive limit", e)
		}
	}
}

func TestLocalName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"a/b.log", "a/b.log", true},
		{"./a//b.log", "a/b.log", true},
		{"a/../b.log", "", false},
		{"../b.log", "", false},
		{"/b.log", "", false},
		{`..\b.log`, "", false},
		{`a\b.log`, "a/b.log", true},
		{"C:/x", "", false},
		{"", "", false},
		{".", "", false},
		{"a\x00b", "", false},
	} {
		got, ok := localName(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("localName(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want class
	}{
		{"hello\n", classText},
		{"", classText},
		{"\x1b[31mred\x1b[0m\n", classText},
		{"caf\xe9 latin-1\n", classText},
		{"\x7fELF\x02\x01", classELF},
		{"\x1f\x8b\x08", classGzip},
		{"\x28\xb5\x2f\xfd", classZstd},
		{"PK\x03\x04", classZip},
		{"a\x00b", classOther},
		{strings.Repeat("\x01\x02", 10), classOther},
		// What decode reads as a log (textsniff): a torn write's NULs, a
		// bell and a carriage return on every line.
		{"output\x00\x00 torn\n" + strings.Repeat("==1==ERROR: AddressSanitizer: heap-use-after-free\n", 10), classText},
		{strings.Repeat("\a\rprogress 10%\n==1==ERROR: AddressSanitizer: heap-use-after-free\n", 10), classText},
	} {
		if got := classify([]byte(tc.in)); got != tc.want {
			t.Errorf("classify(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestWalkUnopened: a path given to Walk that cannot be opened at all is
// marked so (a usage error for batch); a problem inside an input, or with
// an input that opens, is not. No input is opened twice: a FIFO given by
// name is refused, not waited on.
func TestWalkUnopened(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ok.log"), []byte("x\n"))
	if err := os.Symlink("nowhere", filepath.Join(dir, "dangling.log")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	missing, dangling := filepath.Join(dir, "missing.log"), filepath.Join(dir, "dangling.log")
	var got []string
	w := &Walker{Want: map[Kind]bool{Log: true}, Visit: func(*Entry) error { return nil },
		Error: func(e *Error) { got = append(got, fmt.Sprintf("%s %v", e.Source.Path, e.Unopened)) }}
	if err := w.Walk([]string{missing, dir, fifo, dangling}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		missing + " true",   // given, missing
		dangling + " false", // a dangling link inside a directory given
		fifo + " false",     // given, opens, but no regular file
		dangling + " true",  // the same link given
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors (path, unopened) %q, want %q", got, want)
	}
}
