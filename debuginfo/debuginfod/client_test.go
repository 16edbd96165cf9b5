package debuginfod

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/debuginfodtest"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

const fixtures = "../../testdata/elf"

// warnings collects the client's warning lines.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, msg)
}

func (w *warnings) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

func newClient(t *testing.T, cache string, w *warnings, urls ...string) *Client {
	t.Helper()
	return New(Config{URLs: urls, CachePath: cache, Timeout: 5 * time.Second}, debuginfo.ReadBuildID, w.add)
}

func buildID(t *testing.T, path string) []byte {
	t.Helper()
	id, err := debuginfo.ReadBuildID(path)
	if err != nil || len(id) == 0 {
		t.Fatalf("build-id of %s: %v %x", path, err, id)
	}
	return id
}

func sameContent(t *testing.T, a, b string) {
	t.Helper()
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		t.Fatalf("%s and %s differ (%v, %v)", a, b, err1, err2)
	}
}

// TestRealServer fetches through elfutils' debuginfod: concurrent requests
// for the modules of one run, elfutils' cache layout, misses recorded, and
// a second run served from the cache with the server stopped.
func TestRealServer(t *testing.T) {
	srv := t.TempDir()
	names := []string{"c-O2-dw5-pie", "cxx-O2-dw5", "libfix.so"}
	for _, n := range names {
		fixture.Copy(t, filepath.Join(fixtures, n), filepath.Join(srv, n))
	}
	s := debuginfodtest.Start(t, srv, len(names))
	cache := filepath.Join(t.TempDir(), "cache")
	var w warnings
	c := newClient(t, cache, &w, s.URL)

	var wg sync.WaitGroup
	got := make([][4]string, len(names))
	errs := make([][4]error, len(names))
	for i, n := range names {
		id := buildID(t, filepath.Join(srv, n))
		for j := 0; j < 4; j++ { // the same module asked for by several frames at once
			wg.Add(1)
			go func() {
				defer wg.Done()
				if j%2 == 0 {
					got[i][j], errs[i][j] = c.Debuginfo(context.Background(), id)
				} else {
					got[i][j], errs[i][j] = c.Executable(context.Background(), id)
				}
			}()
		}
	}
	wg.Wait()
	for i, n := range names {
		id := hex.EncodeToString(buildID(t, filepath.Join(srv, n)))
		for j := 0; j < 4; j++ {
			if errs[i][j] != nil {
				t.Fatalf("%s: %v", n, errs[i][j])
			}
			kind := []string{"debuginfo", "executable"}[j%2]
			if want := filepath.Join(cache, id, kind); got[i][j] != want {
				t.Errorf("%s: cached at %s, want elfutils' layout %s", n, got[i][j], want)
			}
			sameContent(t, got[i][j], filepath.Join(srv, n))
		}
	}
	if _, err := os.Stat(filepath.Join(cache, cleanIntervalFile)); err != nil {
		t.Errorf("cache clock not created: %v", err)
	}

	// A build-id the server does not know: a miss, recorded as an empty file.
	unknown, _ := hex.DecodeString("0123456789abcdef0123456789abcdef01234567")
	if _, err := c.Debuginfo(context.Background(), unknown); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown build-id: %v, want ErrNotFound", err)
	}
	if fi, err := os.Stat(filepath.Join(cache, hex.EncodeToString(unknown), "debuginfo")); err != nil || fi.Size() != 0 {
		t.Errorf("miss not recorded: %v", err)
	}
	if l := w.get(); len(l) != 0 {
		t.Errorf("warnings from a healthy server: %q", l)
	}

	// Second run: the server is gone, the cache answers.
	s.Stop()
	var w2 warnings
	c2 := newClient(t, cache, &w2, s.URL)
	for _, n := range names {
		p, err := c2.Debuginfo(context.Background(), buildID(t, filepath.Join(srv, n)))
		if err != nil {
			t.Fatalf("%s from the cache: %v", n, err)
		}
		sameContent(t, p, filepath.Join(srv, n))
	}
	if _, err := c2.Debuginfo(context.Background(), unknown); !errors.Is(err, ErrNotFound) {
		t.Fatalf("cached miss: %v", err)
	}
	if l := w2.get(); len(l) != 0 {
		t.Errorf("cache hits and cached misses must not ask the server: %q", l)
	}
	// Something not cached: the dead server costs one line, once.
	other, _ := hex.DecodeString("fedcba9876543210fedcba9876543210fedcba98")
	for i := 0; i < 3; i++ {
		other[0] = byte(i)
		if _, err := c2.Debuginfo(context.Background(), other); !errors.Is(err, ErrNotFound) {
			t.Fatalf("stopped server: %v", err)
		}
	}
	if l := w2.get(); len(l) != 1 || !strings.Contains(l[0], s.URL) || !strings.Contains(l[0], "refused") {
		t.Errorf("stopped server: want one line naming it, got %q", l)
	}
}

// TestSilentServer: a server that accepts and never answers costs one
// warning and one DEBUGINFOD_TIMEOUT, after which it is not asked again.
func TestSilentServer(t *testing.T) {
	silent := debuginfodtest.Silent(t)
	var w warnings
	c := New(Config{URLs: []string{silent}, CachePath: t.TempDir(), Timeout: time.Second}, debuginfo.ReadBuildID, w.add)
	id := buildID(t, filepath.Join(fixtures, "c-O2-dw5-pie"))
	if _, err := c.Debuginfo(context.Background(), id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("silent server: %v", err)
	}
	if _, err := c.Executable(context.Background(), id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("silent server, second artifact: %v", err)
	}
	lines := w.get()
	if len(lines) != 1 || !strings.Contains(lines[0], "DEBUGINFOD_TIMEOUT=1 s") {
		t.Fatalf("want one timeout line, got %q", lines)
	}
	// No miss is recorded for a server that did not answer.
	if _, err := os.Stat(filepath.Join(c.cfg.CachePath, hex.EncodeToString(id), "debuginfo")); err == nil {
		t.Error("a timeout was cached as a miss")
	}
}

// TestBadAnswers: garbage and a file with another build-id are refused
// with one line each and never enter the cache; a good second server still
// answers.
func TestBadAnswers(t *testing.T) {
	good := filepath.Join(fixtures, "c-O2-dw5-pie")
	other := filepath.Join(fixtures, "cxx-O2-dw5")
	id := buildID(t, good)
	tests := []struct {
		name string
		body func(w http.ResponseWriter)
		want string
	}{
		{"garbage", func(w http.ResponseWriter) { w.Write([]byte("<html>try again later</html>")) }, "not an ELF file"},
		{"wrong build-id", func(w http.ResponseWriter) {
			b, _ := os.ReadFile(other)
			w.Write(b)
		}, "file has build-id " + hex.EncodeToString(buildID(t, other))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.body(w) }))
			defer bad.Close()
			cache := t.TempDir()
			var w warnings
			c := newClient(t, cache, &w, bad.URL)
			if _, err := c.Debuginfo(context.Background(), id); !errors.Is(err, ErrNotFound) {
				t.Fatalf("bad answer accepted: %v", err)
			}
			l := w.get()
			if len(l) != 1 || !strings.Contains(l[0], tc.want) || strings.Contains(l[0], "\n") {
				t.Fatalf("want one line with %q, got %q", tc.want, l)
			}
			entries, _ := os.ReadDir(filepath.Join(cache, hex.EncodeToString(id)))
			if len(entries) != 0 {
				t.Fatalf("rejected file left in the cache: %v", entries)
			}

			// With a good server beside it, the good answer is taken.
			fine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/buildid/"+hex.EncodeToString(id)+"/debuginfo" {
					http.NotFound(w, r)
					return
				}
				http.ServeFile(w, r, good)
			}))
			defer fine.Close()
			c = newClient(t, t.TempDir(), &w, bad.URL, fine.URL)
			p, err := c.Debuginfo(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			sameContent(t, p, good)
		})
	}
}

// TestSource: the request path is escaped per segment and the cached name
// spells "/" as "##", as elfutils does.
func TestSource(t *testing.T) {
	id := []byte{0xab, 0xcd, 0xef, 0x01}
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.EscapedPath()
		w.Write([]byte("int main() {}\n"))
	}))
	defer srv.Close()
	cache := t.TempDir()
	var w warnings
	c := newClient(t, cache, &w, srv.URL+"/")
	p, err := c.Source(context.Background(), id, "/src/a b/x#y.c")
	if err != nil {
		t.Fatal(err)
	}
	if want := "/buildid/abcdef01/source/src/a%20b/x%23y.c"; asked != want {
		t.Errorf("asked %s, want %s", asked, want)
	}
	if want := filepath.Join(cache, "abcdef01", "source##src##a b##x#y.c"); p != want {
		t.Errorf("cached at %s, want %s", p, want)
	}
	if _, err := c.Source(context.Background(), id, "rel/x.c"); err == nil {
		t.Error("relative source path accepted")
	}
}

// TestCacheMissExpires: a recorded miss short-circuits for cache_miss_s,
// then the servers are asked again.
func TestCacheMissExpires(t *testing.T) {
	asks := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asks++
		http.NotFound(w, r)
	}))
	defer srv.Close()
	cache := t.TempDir()
	var w warnings
	id := []byte{1, 2, 3, 4}
	now := time.Now()
	for i, step := range []struct {
		at   time.Duration
		asks int
	}{{0, 1}, {time.Minute, 1}, {defaultCacheMiss + time.Minute, 2}} {
		c := newClient(t, cache, &w, srv.URL)
		c.now = func() time.Time { return now.Add(step.at) }
		if _, err := c.Debuginfo(context.Background(), id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("step %d: %v", i, err)
		}
		if asks != step.asks {
			t.Fatalf("step %d: server asked %d times, want %d", i, asks, step.asks)
		}
	}
}

// TestCleanCache: a due round removes files unused for max_unused_age_s
// and the directories it empties, and keeps the rest and the control files.
func TestCleanCache(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	write := func(rel string, age time.Duration) {
		p := filepath.Join(cache, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte("x"), 0o400); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	write("aaaa/debuginfo", 8*24*time.Hour)   // unused for more than a week
	write("bbbb/debuginfo", time.Hour)        // recent
	write("bbbb/executable", 30*24*time.Hour) // old beside a recent one
	write(cleanIntervalFile, 2*24*time.Hour)  // last round two days ago
	os.WriteFile(filepath.Join(cache, cleanIntervalFile), []byte("86400\n"), 0o644)
	os.Chtimes(filepath.Join(cache, cleanIntervalFile), now.Add(-48*time.Hour), now.Add(-48*time.Hour))
	os.WriteFile(filepath.Join(cache, maxUnusedAgeFile), []byte("604800\n"), 0o644)

	c := New(Config{URLs: []string{"http://127.0.0.1:9"}, CachePath: cache}, nil, nil)
	c.now = func() time.Time { return now }
	c.cleanCache()
	exists := func(rel string) bool { _, err := os.Stat(filepath.Join(cache, rel)); return err == nil }
	for rel, want := range map[string]bool{
		"aaaa": false, "bbbb/debuginfo": true, "bbbb/executable": false,
		cleanIntervalFile: true, maxUnusedAgeFile: true,
	} {
		if exists(rel) != want {
			t.Errorf("%s: exists=%v after cleaning, want %v", rel, !want, want)
		}
	}
	fi, _ := os.Stat(filepath.Join(cache, cleanIntervalFile))
	if !fi.ModTime().Equal(now) {
		t.Errorf("clock not reset: %v", fi.ModTime())
	}
	// Not due yet: nothing goes.
	write("cccc/debuginfo", 30*24*time.Hour)
	c.cleanCache()
	if !exists("cccc/debuginfo") {
		t.Error("cleaned before cache_clean_interval_s passed")
	}
}

func TestConfigFromEnv(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		env  map[string]string
		want Config
	}{
		{map[string]string{"HOME": home}, Config{CachePath: home + "/.cache/debuginfod_client", Timeout: DefaultTimeout}},
		{map[string]string{"HOME": home, "XDG_CACHE_HOME": "/x", "DEBUGINFOD_URLS": " http://a  https://b/ "},
			Config{URLs: []string{"http://a", "https://b/"}, CachePath: "/x/debuginfod_client", Timeout: DefaultTimeout}},
		{map[string]string{"DEBUGINFOD_CACHE_PATH": "/c", "DEBUGINFOD_TIMEOUT": "7", "DEBUGINFOD_MAXTIME": "9", "DEBUGINFOD_MAXSIZE": "100"},
			Config{CachePath: "/c", Timeout: 7 * time.Second, MaxTime: 9 * time.Second, MaxSize: 100}},
		{map[string]string{"DEBUGINFOD_CACHE_PATH": "/c", "DEBUGINFOD_TIMEOUT": "0"}, Config{CachePath: "/c"}},
		{map[string]string{"DEBUGINFOD_CACHE_PATH": "/c", "DEBUGINFOD_TIMEOUT": "soon"}, Config{CachePath: "/c", Timeout: DefaultTimeout}},
	}
	for _, tc := range tests {
		got := ConfigFromEnv(func(k string) string { return tc.env[k] })
		if strings.Join(got.URLs, " ") != strings.Join(tc.want.URLs, " ") || got.CachePath != tc.want.CachePath ||
			got.Timeout != tc.want.Timeout || got.MaxTime != tc.want.MaxTime || got.MaxSize != tc.want.MaxSize {
			t.Errorf("%v: got %+v, want %+v", tc.env, got, tc.want)
		}
	}
	// The deprecated directory wins when it exists.
	os.Mkdir(filepath.Join(home, ".debuginfod_client_cache"), 0o700)
	if got := ConfigFromEnv(func(k string) string { return map[string]string{"HOME": home}[k] }); got.CachePath != home+"/.debuginfod_client_cache" {
		t.Errorf("deprecated cache dir not used: %s", got.CachePath)
	}
}

// TestCacheFilesLikeElfutils runs the same queries through elfutils'
// debuginfod-find and through a Client, each in its own cache, and compares
// the caches after every step: the control files appear when libdebuginfod
// creates them (the cleaning clock on first use, cache_miss_s when a
// recorded miss is consulted, max_unused_age_s in a cleaning round), with
// the same contents, and a miss is recorded the same way.
func TestCacheFilesLikeElfutils(t *testing.T) {
	find := reftool.NeedFor(t, "debuginfod-find", "no elfutils client to compare with")
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	const id = "0123456789abcdef0123456789abcdef01234567"
	raw, _ := hex.DecodeString(id)
	theirs, ours := filepath.Join(t.TempDir(), "elfutils"), filepath.Join(t.TempDir(), "sanitrace")
	snapshot := func(root string) map[string]string {
		files := map[string]string{}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				files[rel] = string(b)
			}
			return nil
		})
		return files
	}
	steps := []struct {
		name   string
		before func(root string)
	}{
		{"first query: a miss", nil},
		{"second query: the recorded miss", nil},
		{"a cleaning round is due", func(root string) {
			p := filepath.Join(root, cleanIntervalFile)
			if err := os.WriteFile(p, []byte("0"), 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-48 * time.Hour)
			os.Chtimes(p, old, old)
		}},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before(theirs)
			st.before(ours)
		}
		cmd := exec.Command(find, "debuginfo", id)
		cmd.Env = append(os.Environ(), "DEBUGINFOD_URLS="+srv.URL, "DEBUGINFOD_CACHE_PATH="+theirs, "DEBUGINFOD_TIMEOUT=5")
		cmd.Run() // a miss: debuginfod-find exits 1
		c := New(Config{URLs: []string{srv.URL}, CachePath: ours, Timeout: 5 * time.Second}, debuginfo.ReadBuildID, nil)
		if _, err := c.Debuginfo(context.Background(), raw); !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: %v", st.name, err)
		}
		want, got := snapshot(theirs), snapshot(ours)
		if len(want) == 0 {
			t.Fatalf("%s: debuginfod-find left no cache in %s", st.name, theirs)
		}
		for name, content := range want {
			if g, ok := got[name]; !ok || g != content {
				t.Errorf("%s: %s is %q (present %v), elfutils wrote %q", st.name, name, g, ok, content)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: %s in our cache only", st.name, name)
			}
		}
	}
}
