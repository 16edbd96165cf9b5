package artifact

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// member is one archive member to build.
type tmember struct {
	name string
	body string
	link string // symlink target (tar, zip) when set
	hard bool   // a tar hard link
}

func tarBytes(t testing.TB, ms ...tmember) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}
		switch {
		case strings.HasSuffix(m.name, "/"):
			h.Typeflag = tar.TypeDir
		case m.link != "" && m.hard:
			h.Typeflag, h.Linkname, h.Size = tar.TypeLink, m.link, 0
		case m.link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, m.link, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, m.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipBytes(t testing.TB, ms ...tmember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		body := m.body
		if m.link != "" {
			h.SetMode(os.ModeSymlink | 0o777)
			body = m.link
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zw.Close()
	return zw.EncodeAll(b, nil)
}

func writeFile(t testing.TB, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// elfBytes is a real ELF file from the committed fixtures.
func elfBytes(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elf", "c-O2-dw5-pie"))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}

// walked is what a walk saw, in a form tests compare.
type walked struct {
	entries []string // "log SOURCE = CONTENT" / "binary SOURCE (N bytes)"
	errors  []string
}

func walkAll(t testing.TB, w *Walker, paths ...string) walked {
	t.Helper()
	var got walked
	if w.Want == nil {
		w.Want = map[Kind]bool{Log: true, Binary: true}
	}
	w.Visit = func(e *Entry) error {
		if !w.Want[e.Kind] {
			got.entries = append(got.entries, e.Kind.String()+" "+e.Source.String()+" (not read)")
			return nil
		}
		rc, err := e.Open()
		if err != nil {
			t.Fatalf("%s: open: %v", e.Source, err)
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatalf("%s: read: %v", e.Source, err)
		}
		if cerr := rc.Close(); cerr != nil {
			got.errors = append(got.errors, cerr.Error())
		}
		switch e.Kind {
		case Log:
			got.entries = append(got.entries, "log "+e.Source.String()+" = "+strings.TrimSpace(string(b)))
		case Binary:
			got.entries = append(got.entries, "binary "+e.Source.String()+" "+strconv.Itoa(len(b)))
		}
		return nil
	}
	w.Error = func(e *Error) { got.errors = append(got.errors, e.Error()) }
	if err := w.Walk(paths); err != nil {
		t.Fatalf("walk: %v", err)
	}
	return got
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
