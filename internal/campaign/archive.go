package campaign

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/sanitrace/sanitrace/internal/mutate"
)

// The archive seeds are made here, from the project's own logs and one of
// its binaries, rather than committed: a bomb is small only compressed,
// and each seed is a few lines of what it tests.

// member is one entry of a generated archive.
type member struct {
	name string
	body []byte
	link string // a symbolic link to link
	hard string // a hard link to hard
	typ  byte   // another tar type (a FIFO, a device), or 0
	size int64  // a body of size bytes of repeated text, made as it is written (bombs)
}

// stamp is every member's time, so that the seeds are the same bytes on
// every run.
var stamp = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func tarOf(ms ...member) []byte {
	var b bytes.Buffer
	tarTo(&b, ms...)
	return b.Bytes()
}

// tarTo writes the tar archive of ms to w, bombs without holding them.
func tarTo(w io.Writer, ms ...member) {
	tw := tar.NewWriter(w)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		switch {
		case m.link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, m.link
		case m.hard != "":
			h.Typeflag, h.Linkname = tar.TypeLink, m.hard
		case m.typ != 0:
			h.Typeflag = m.typ
		case m.size > 0:
			h.Size = m.size
		default:
			h.Size = int64(len(m.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			panic(fmt.Sprintf("tar header %q: %v", m.name, err)) // our own seeds: a bug here
		}
		if m.size > 0 {
			writeRepeated(tw, m.size)
		} else if h.Typeflag == tar.TypeReg {
			tw.Write(m.body)
		}
	}
	tw.Close()
}

func zipOf(ms ...member) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: stamp}
		body := m.body
		if m.link != "" {
			h.SetMode(os.ModeSymlink | 0o777)
			body = []byte(m.link)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			panic(fmt.Sprintf("zip header %q: %v", m.name, err))
		}
		if m.size > 0 {
			writeRepeated(w, m.size)
		} else {
			w.Write(body)
		}
	}
	zw.Close()
	return b.Bytes()
}

// bombLine is what a bomb is made of: an ordinary log line, so that the
// bomb costs what its size costs (a bomb of report headers would test
// the renderer's speed on a hundred thousand reports instead).
const bombLine = "[ 1234.567890] worker 3: request 0x7f00 done in 12 ms, queue depth 4\n"

func writeRepeated(w io.Writer, size int64) {
	chunk := bytes.Repeat([]byte(bombLine), 64<<10/len(bombLine))
	for size > 0 {
		n := min(size, int64(len(chunk)))
		w.Write(chunk[:n])
		size -= n
	}
}

func gz(data []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func zst(data []byte) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// wrap compresses data as how says ("gz", "zst", "" for as is).
func wrap(how string, data []byte) []byte {
	switch how {
	case "gz":
		return gz(data)
	case "zst":
		return zst(data)
	}
	return data
}

// compressed returns what write writes, compressed as how ("gz" or
// "zst") as it is written: a bomb is never held inflated.
func compressed(how string, write func(io.Writer)) []byte {
	var b bytes.Buffer
	var w io.WriteCloser
	if how == "zst" {
		enc, err := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		w = enc
	} else {
		w, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
	}
	write(w)
	w.Close()
	return b.Bytes()
}

// archiveSeeds returns the generated archives: every container batch
// reads, nested ones, bombs past the limits the campaign runs batch
// with, links and names that would escape an extraction.
func archiveSeeds(root string) ([]*Seed, error) {
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, rel)) }
	var logs [4][]byte
	for i, rel := range []string{
		"testdata/batch/uaf_gcc_O0/unsymbolized.log",
		"testdata/batch/overflow_clang_O0/symbolized.log",
		"testdata/reports/go_panic.log",
		"testdata/reports/kernel_kasan_uaf.log",
	} {
		b, err := read(rel)
		if err != nil {
			return nil, err
		}
		logs[i] = b
	}
	prog, err := read("testdata/batch/uaf_gcc_O0/prog")
	if err != nil {
		return nil, err
	}
	plain := []member{
		{name: "ci/uaf_gcc_O0/unsymbolized.log", body: logs[0]},
		{name: "ci/uaf_gcc_O0/prog", body: prog},
		{name: "ci/overflow/symbolized.log", body: logs[1]},
		{name: "go/panic.log", body: logs[2]},
		{name: "kernel/dmesg.log", body: logs[3]},
	}
	plainTar := tarOf(plain...)
	bombTar := func(w io.Writer) {
		tarTo(w, member{name: "small.log", body: logs[2]}, member{name: "bomb.log", size: 40 << 20},
			member{name: "after.log", body: logs[0]})
	}
	// Many members under the entry limit that together pass the archive's.
	manyTar := func(w io.Writer) {
		ms := []member{{name: "first.log", body: logs[2]}}
		for i := range 12 {
			ms = append(ms, member{name: fmt.Sprintf("part%02d.log", i), size: 3 << 20})
		}
		tarTo(w, ms...)
	}
	links := tarOf(
		member{name: "a.log", body: logs[0]},
		member{name: "passwd.log", link: "/etc/passwd"},
		member{name: "up.log", link: "../../../../../etc/shadow"},
		member{name: "hard.log", hard: "a.log"},
		member{name: "hard-out.log", hard: "/etc/passwd"},
		member{name: "loop/a.log", link: "b.log"},
		member{name: "loop/b.log", link: "a.log"},
		member{name: "self.log", link: "self.log"},
		member{name: "fifo.log", typ: tar.TypeFifo},
		member{name: "dev.log", typ: tar.TypeChar},
		member{name: "dir.log/", typ: tar.TypeDir},
	)
	unsafeNames := []member{
		{name: "../../escape.log", body: logs[2]},
		{name: "/abs/root.log", body: logs[2]},
		{name: "a/../../b.log", body: logs[0]},
		{name: "x\x1b[31mred\x1b[0m.log", body: logs[2]},
		{name: "cr\rname.log", body: logs[2]},
		{name: `C:\windows\path.log`, body: logs[2]},
		{name: string(bytes.Repeat([]byte("long/"), 80)) + "deep.log", body: logs[2]},
		{name: "dup.log", body: logs[0]},
		{name: "dup.log", body: logs[1]},
	}
	zipLinks := zipOf(
		member{name: "a.log", body: logs[0]},
		member{name: "passwd.log", link: "/etc/passwd"},
		member{name: "up.log", link: "../../etc/shadow"},
	)
	deepZip := zipOf(member{name: "deep.log", body: logs[2]})
	innerTarGz := gz(tarOf(member{name: "deep.zip", body: deepZip}, member{name: "b.log", body: logs[1]}))
	nested := zipOf(
		member{name: "inner.tar.gz", body: innerTarGz},
		member{name: "c.log.gz", body: gz(logs[0])},
		member{name: "self.zip", body: zipOf(member{name: "in.zip", body: deepZip})},
	)
	deepGz := logs[2]
	for range 6 {
		deepGz = gz(deepGz)
	}
	zipBomb := zipOf(member{name: "small.log", body: logs[2]}, member{name: "bomb.log", size: 40 << 20})
	type gen struct {
		name  string
		data  []byte
		inner []byte
		how   string
	}
	gens := []gen{
		{"gen/plain.tar", plainTar, nil, ""},
		{"gen/plain.tar.gz", nil, plainTar, "gz"},
		{"gen/plain.tar.zst", nil, plainTar, "zst"},
		{"gen/plain.zip", zipOf(plain...), nil, ""},
		{"gen/nested.zip", nested, nil, ""},
		{"gen/zip-in-tar.tar.gz", nil, tarOf(member{name: "logs.zip", body: zipOf(plain[:3]...)}, member{name: "x.log", body: logs[3]}), "gz"},
		{"gen/tar-in-zip.zip", zipOf(member{name: "logs.tar", body: plainTar}), nil, ""},
		{"gen/bomb.tar.gz", compressed("gz", bombTar), nil, ""},
		{"gen/bomb.tar.zst", compressed("zst", bombTar), nil, ""},
		{"gen/bomb-many.tar.gz", compressed("gz", manyTar), nil, ""},
		{"gen/bomb.zip", zipBomb, nil, ""},
		{"gen/links.tar", links, nil, ""},
		{"gen/links.zip", zipLinks, nil, ""},
		{"gen/unsafe-names.tar", tarOf(unsafeNames...), nil, ""},
		{"gen/unsafe-names.zip", zipOf(unsafeNames...), nil, ""},
		{"gen/log.gz", nil, logs[0], "gz"},
		{"gen/bomb.log.gz", compressed("gz", func(w io.Writer) { writeRepeated(w, 40<<20) }), nil, ""},
		{"gen/deep.log.gz", deepGz, nil, ""},
	}
	var seeds []*Seed
	for _, g := range gens {
		s := &Seed{Name: g.name, Ext: extOf(g.name)}
		if g.how != "" {
			s.Wrap = g.how
			s.Inner = &mutate.Target{Data: g.inner}
			s.Target.Data = wrap(g.how, g.inner)
		} else {
			s.Target.Data = g.data
		}
		seeds = append(seeds, s)
	}
	return seeds, nil
}

// extOf returns the suffix that says what an archive is: ".tar.gz",
// ".zip", ".log.gz".
func extOf(name string) string {
	base := filepath.Base(name)
	if i := bytes.IndexByte([]byte(base), '.'); i >= 0 {
		return base[i:]
	}
	return ""
}
