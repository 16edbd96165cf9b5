package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// TestDecodeSourceNotFound: --source-context says once per source file
// that it is not here and which prefix map would find it; nothing when
// the map finds it, and nothing without --source-context.
func TestDecodeSourceNotFound(t *testing.T) {
	note := "sanitrace: source /build/demo/session.c not found; try --prefix-map /build/demo=DIR"
	for _, tc := range []struct {
		name string
		args []string
		want []string // the lines of stderr that are about sources
	}{
		{"no map", []string{"--source-context", "2", "--binary-dir", demoDir}, []string{note}},
		{"the map finds it", []string{"--source-context", "2", "--prefix-map", demoMap}, nil},
		{"no source context", []string{"--binary-dir", demoDir}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DEBUGINFOD_URLS", "")
			args := append([]string{"decode", "--color=never"}, tc.args...)
			out, errs, code := runCLI(t, "", append(args, demoLog)...)
			if code != exitFound {
				t.Fatalf("exit code %d; stderr:\n%s", code, errs)
			}
			var got []string
			for _, l := range lines(errs) {
				if strings.Contains(l, "source ") {
					got = append(got, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("source notes on stderr:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if !strings.Contains(out, "session_active") {
				t.Errorf("frames not symbolized:\n%s", out)
			}
		})
	}
}

// TestDecodeSourceNotFoundDebuginfod: with debuginfod servers configured
// the note says they did not have the file either.
func TestDecodeSourceNotFoundDebuginfod(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	t.Setenv("DEBUGINFOD_URLS", srv.URL)
	t.Setenv("DEBUGINFOD_CACHE_PATH", t.TempDir())
	_, errs, _ := runCLI(t, "", "decode", "--color=never", "--source-context", "1", "--binary-dir", demoDir, demoLog)
	want := "sanitrace: source /build/demo/session.c not found nor on the debuginfod servers; try --prefix-map /build/demo=DIR"
	n := 0
	for _, l := range lines(errs) {
		if strings.Contains(l, "source ") {
			n++
			if l != want {
				t.Errorf("note %q, want %q", l, want)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d source notes, want 1; stderr:\n%s", n, errs)
	}
}

// TestDecodeUnverifiedHostLibraries: gcc's runtime prints no build-ids;
// the system libraries the log names are symbolized with this machine's
// copies and named once each on stderr as unverified. With the build-ids
// in the log they are verified and not named; a wrong build-id is the
// mismatch error it always was; under --sysroot the host's copies are not
// used at all.
func TestDecodeUnverifiedHostLibraries(t *testing.T) {
	const libc = "/lib/x86_64-linux-gnu/libc.so.6"
	id, err := debuginfo.ReadBuildID(libc)
	if err != nil || len(id) == 0 {
		t.Skipf("%s: no build-id here (%v)", libc, err)
	}
	t.Setenv("DEBUGINFOD_URLS", "")
	log := readFile(t, demoLog)
	// Two reports: the note comes once per library and run, not per report.
	twice := log + "\n" + log
	unverified := regexp.MustCompile(`^sanitrace: (\S+): unverified: the log gives no build-id, so this machine's copy is used as is \(right only if the crashed machine had the same build\)$`)
	notes := func(errs string) (libs []string, other []string) {
		for _, l := range lines(errs) {
			if m := unverified.FindStringSubmatch(l); m != nil {
				libs = append(libs, m[1])
			} else {
				other = append(other, l)
			}
		}
		return libs, other
	}
	// ASan prints the build-id after the module: (module+0x...) (BuildId: ...).
	withID := func(s string, lib string, id []byte) string {
		re := regexp.MustCompile(`\(` + regexp.QuoteMeta(lib) + `\+0x[0-9a-f]+\)`)
		return re.ReplaceAllStringFunc(s, func(m string) string { return m + fmt.Sprintf(" (BuildId: %x)", id) })
	}

	t.Run("no build-id", func(t *testing.T) {
		out, errs, _ := runCLI(t, twice, "decode", "--color=never", "--prefix-map", demoMap)
		libs, other := notes(errs)
		if !slices.Contains(libs, libc) {
			t.Errorf("libc not named as unverified; stderr:\n%s", errs)
		}
		seen := map[string]bool{}
		for _, l := range libs {
			if seen[l] {
				t.Errorf("%s named twice", l)
			}
			seen[l] = true
			if !strings.HasPrefix(l, "/lib/") && !strings.HasPrefix(l, "/usr/lib/") {
				t.Errorf("%s named as a host library", l)
			}
		}
		if len(other) != 0 {
			t.Errorf("other stderr lines: %q", other)
		}
		if !strings.Contains(out, "__libc_start_call_main") {
			t.Errorf("libc frames not symbolized:\n%s", out)
		}
	})
	t.Run("build-id verified", func(t *testing.T) {
		in := withID(twice, libc, id)
		out, errs, _ := runCLI(t, in, "decode", "--color=never", "--prefix-map", demoMap)
		libs, _ := notes(errs)
		for _, l := range libs {
			if l == libc {
				t.Errorf("libc named as unverified although the log gives its build-id; stderr:\n%s", errs)
			}
		}
		if !strings.Contains(out, "__libc_start_call_main") {
			t.Errorf("libc frames not symbolized:\n%s", out)
		}
	})
	t.Run("wrong build-id", func(t *testing.T) {
		in := withID(log, libc, []byte("not libc's build-id"))
		_, errs, _ := runCLI(t, in, "decode", "--color=never", "--prefix-map", demoMap, "--debug-file-directory", t.TempDir())
		libs, other := notes(errs)
		for _, l := range libs {
			if l == libc {
				t.Errorf("libc named as unverified with a build-id in the log")
			}
		}
		if !strings.Contains(strings.Join(other, "\n"), libc+": build-id mismatch") {
			t.Errorf("no build-id mismatch for libc; stderr:\n%s", errs)
		}
	})
	t.Run("sysroot", func(t *testing.T) {
		root := t.TempDir()
		if err := os.MkdirAll(root+"/lib/x86_64-linux-gnu", 0o755); err != nil {
			t.Fatal(err)
		}
		_, errs, _ := runCLI(t, log, "decode", "--color=never", "--prefix-map", demoMap, "--sysroot", root)
		if libs, _ := notes(errs); len(libs) != 0 {
			t.Errorf("host libraries named under --sysroot: %q", libs)
		}
	})
}
