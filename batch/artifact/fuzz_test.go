package artifact

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

var writeSeeds = flag.Bool("seeds", false, "rewrite the committed seed corpus of FuzzWalk under testdata/fuzz")

// seedInputs are small archives of every form the walker reads, hostile
// ones included.
func seedInputs(t testing.TB) map[string][]byte {
	elf := string(elfBytes(t)[:2048]) // the head of a real ELF: classified, not parsed
	tarred := tarBytes(t,
		tmember{name: "logs/a.log", body: "==1==ERROR: AddressSanitizer: heap-use-after-free\n"},
		tmember{name: "bin/prog", body: elf},
		tmember{name: "bin/prog.1", link: "prog"},
		tmember{name: "loop/a", link: "b"},
		tmember{name: "loop/b", link: "a"},
	)
	return map[string][]byte{
		"tar":          tarred,
		"tar-gz":       fixture.Gzip(t, tarred),
		"tar-zst":      zstBytes(t, tarred),
		"log-gz":       fixture.Gzip(t, []byte("plain log\n")),
		"zip":          zipBytes(t, tmember{name: "a.log", body: "log\n"}, tmember{name: "prog", body: elf}, tmember{name: "l", link: "prog"}),
		"zip-escape":   zipBytes(t, tmember{name: "../../x.log", body: "x\n"}, tmember{name: "/abs.log", body: "y\n"}),
		"zip-in-tar":   fixture.Gzip(t, tarBytes(t, tmember{name: "in.zip", body: string(zipBytes(t, tmember{name: "z.log", body: "z\n"}))})),
		"tar-in-zip":   zipBytes(t, tmember{name: "in.tar", body: string(tarred)}),
		"text":         []byte("just a log line\n"),
		"nested-depth": fixture.Gzip(t, fixture.Gzip(t, fixture.Gzip(t, fixture.Gzip(t, fixture.Gzip(t, []byte("deep\n")))))),
	}
}

// TestFuzzSeeds keeps the committed corpus in step with seedInputs
// (go test ./batch/artifact -run FuzzSeeds -seeds rewrites it).
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzWalk")
	for name, data := range seedInputs(t) {
		p := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if *writeSeeds {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("seed %s missing (run with -seeds): %v", p, err)
		}
	}
}

// FuzzWalk: any bytes as an input: no panic, no hang, every error one line,
// every member name local, nothing read past the limits.
func FuzzWalk(f *testing.F) {
	for _, data := range seedInputs(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{Entry: 1 << 20, Archive: 4 << 20, Inline: 1 << 10, Depth: 3}
		var read int64
		w := &Walker{
			Limits: lim,
			Want:   map[Kind]bool{Log: true, Binary: true},
			Visit: func(e *Entry) error {
				for _, part := range strings.Split(e.Source.Member, "!/") {
					if e.Source.Member != "" {
						if _, ok := localName(part); !ok {
							t.Fatalf("entry with a non-local member name %q", e.Source.Member)
						}
					}
				}
				rc, err := e.Open()
				if err != nil {
					t.Fatalf("open %s: %v", e.Source, err)
				}
				n, _ := io.Copy(io.Discard, rc)
				if cerr := rc.Close(); cerr != nil && strings.Contains(cerr.Error(), "\n") {
					t.Fatalf("multi-line error %q", cerr)
				}
				if n > lim.Entry {
					t.Fatalf("%s: %d bytes read, limit %d", e.Source, n, lim.Entry)
				}
				read += n
				return nil
			},
			Error: func(e *Error) {
				if strings.ContainsAny(e.Error(), "\r\n") {
					t.Fatalf("multi-line error %q", e.Error())
				}
			},
		}
		st := &walk{w: w, lim: lim.withDefaults()}
		if err := st.data("fuzz", data); err != nil {
			t.Fatal(err)
		}
	})
}
