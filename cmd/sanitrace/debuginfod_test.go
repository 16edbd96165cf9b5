package main

import (
	"debug/elf"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/debuginfodtest"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// sampleAddresses picks up to maxFuncs function starts and middles and up
// to maxInl inlined-call starts of the unstripped build src, and 0.
func sampleAddresses(t testing.TB, src string, maxFuncs, maxInl int) []uint64 {
	t.Helper()
	funcs := fixture.Funcs(t, src)
	step := max(1, (len(funcs)+maxFuncs-1)/maxFuncs)
	var out []uint64
	for i := 0; i < len(funcs); i += step {
		out = append(out, funcs[i].Value, funcs[i].Value+funcs[i].Size/2)
	}
	out = append(out, fixture.InlineStarts(t, src, maxInl)...)
	return append(out, 0)
}

func hexList(addrs []uint64) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = fmt.Sprintf("0x%x", a)
	}
	return out
}

// debuginfodEnv points the run at servers and a cache, with no local
// debug-file directory to find anything in.
func debuginfodEnv(t *testing.T, cache string, urls ...string) {
	t.Helper()
	t.Setenv("DEBUGINFOD_URLS", strings.Join(urls, " "))
	t.Setenv("DEBUGINFOD_CACHE_PATH", cache)
	t.Setenv("DEBUGINFOD_TIMEOUT", "2")
}

var jsonModule = regexp.MustCompile(`"ModuleName":"[^"]*"`)

// debuginfodFaces runs every face over a module with the same addresses.
type debuginfodCase struct {
	name  string
	argv0 string
	args  []string // "BIN" stands for the module
	in    string
}

func debuginfodCases(addrs []uint64) []debuginfodCase {
	stdin := strings.Join(hexList(addrs), "\n") + "\n"
	return []debuginfodCase{
		{"llvm", "llvm-symbolizer", []string{"--obj=BIN", "--debug-file-directory=/nonexistent"}, stdin},
		{"json", "llvm-symbolizer", []string{"--obj=BIN", "--output-style=JSON", "--debug-file-directory=/nonexistent"}, stdin},
		{"gnu", "llvm-symbolizer", []string{"--obj=BIN", "--output-style=GNU", "--debug-file-directory=/nonexistent"}, stdin},
		{"addr2line", "addr2line", []string{"-f", "-i", "-C", "-a", "-e", "BIN"}, stdin},
	}
}

func (c debuginfodCase) run(t *testing.T, bin string) (string, string) {
	t.Helper()
	var args []string
	for _, a := range c.args {
		args = append(args, strings.ReplaceAll(a, "BIN", bin))
	}
	out, stderr, _ := runArgv0(t, c.argv0, args, c.in)
	return jsonModule.ReplaceAllString(out, `"ModuleName":""`), stderr
}

// checkThroughDebuginfod is the comparison of the debuginfod tests:
// without a server, run(without) must answer otherwise than run(with)
// (else the test shows nothing); with url as DEBUGINFOD_URLS, run(without)
// must answer as run(with) did and say nothing on stderr. what names the
// run in failures.
func checkThroughDebuginfod(t *testing.T, url, what string, run func(string) (string, string), with, without string) {
	t.Helper()
	t.Setenv("DEBUGINFOD_URLS", "")
	want, _ := run(with)
	if plain, _ := run(without); plain == want {
		t.Fatalf("%s answers alike without debuginfod: the test shows nothing", what)
	}
	t.Setenv("DEBUGINFOD_URLS", url)
	got, stderr := run(without)
	if stderr != "" {
		t.Errorf("%s: stderr: %q", what, stderr)
	}
	if got != want {
		t.Errorf("%s through debuginfod:\n%s", what, golden.FirstDiff(want, got))
	}
}

// TestDebuginfodFaces: stripped copies of fixtures answer through a real
// elfutils debuginfod exactly as the unstripped fixtures answer (llvm,
// JSON, GNU styles and addr2line); a second run with the server stopped is
// served from the cache, silently.
func TestDebuginfodFaces(t *testing.T) {
	srv := t.TempDir()
	// The server holds the unstripped builds; the client has copies whose
	// DWARF was removed (strip --strip-debug keeps the symbol table, so
	// the answers must be the unstripped file's to the byte).
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(srv, "c-O2-dw5-pie"))
	fixture.Copy(t, fixtureDir+"/cxx-O2-dw5", filepath.Join(srv, "cxx-O2-dw5"))
	s := debuginfodtest.Start(t, srv, 2)
	cache := filepath.Join(t.TempDir(), "cache")
	debuginfodEnv(t, cache, s.URL)

	bins := t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-stripped", filepath.Join(bins, "c-O2-stripped"))
	fixture.Copy(t, fixtureDir+"/buildid/prog", filepath.Join(bins, "prog"))
	modules := []struct {
		stripped, unstripped string
		ref                  []string // extra arguments for the reference run
		a2lRef               string   // the reference for addr2line when ref is set
		addrs                []uint64
	}{
		{filepath.Join(bins, "c-O2-stripped"), fixtureDir + "/c-O2-dw5-pie", nil, "",
			sampleAddresses(t, fixtureDir+"/c-O2-dw5-pie", 1000, 30)},
		// strip --strip-all: the reference is the same binary with its
		// debug file found locally by build-id.
		{filepath.Join(bins, "prog"), fixtureDir + "/buildid/prog", []string{"--debug-file-directory=" + fixtureDir + "/buildid/debug"},
			fixtureDir + "/cxx-O2-dw5", sampleAddresses(t, fixtureDir+"/cxx-O2-dw5", 20, 8)},
	}
	type result struct{ out, stderr string }
	first := map[string]result{}
	for _, m := range modules {
		for _, c := range debuginfodCases(m.addrs) {
			t.Run(filepath.Base(m.stripped)+"/"+c.name, func(t *testing.T) {
				ref, refBin := c, m.unstripped
				if m.ref != nil {
					if c.argv0 == "addr2line" {
						// addr2line has no debug-directory flag; bfd names
						// functions from the debug file's symbol table,
						// which is the unstripped build's.
						refBin = m.a2lRef
					} else {
						ref.args = append(append([]string(nil), c.args[:len(c.args)-1]...), m.ref...)
					}
				}
				t.Setenv("DEBUGINFOD_URLS", "")
				want, _ := ref.run(t, refBin)
				t.Setenv("DEBUGINFOD_URLS", s.URL)
				got, stderr := c.run(t, m.stripped)
				if stderr != "" {
					t.Errorf("stderr: %q", stderr)
				}
				if got != want {
					t.Fatalf("through debuginfod:\n%s", golden.FirstDiff(want, got))
				}
				first[m.stripped+c.name] = result{got, stderr}
			})
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "cache_clean_interval_s")); err != nil {
		t.Errorf("no elfutils cache under DEBUGINFOD_CACHE_PATH: %v", err)
	}

	s.Stop()
	for _, m := range modules {
		for _, c := range debuginfodCases(m.addrs) {
			t.Run("cached/"+filepath.Base(m.stripped)+"/"+c.name, func(t *testing.T) {
				prev, ok := first[m.stripped+c.name]
				if !ok {
					t.Skip("no first run")
				}
				got, stderr := c.run(t, m.stripped)
				if got != prev.out || stderr != "" {
					t.Errorf("second run with the server stopped: stderr %q\n%s", stderr, golden.FirstDiff(prev.out, got))
				}
			})
		}
	}
}

// asanLog is a log whose frames name /opt/app/prog at addrs.
func asanLog(addrs []uint64) string {
	var frames strings.Builder
	for i, a := range addrs {
		if a != 0 {
			fmt.Fprintf(&frames, "    #%d 0x%x  (/opt/app/prog+0x%x)\n", i, 0x555555554000+a, a)
		}
	}
	return "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x555555555242 bp 0x7ffd00000000 sp 0x7ffd00000000\n" +
		"READ of size 4 at 0x602000000010 thread T0\n" + frames.String() + "\nSUMMARY: AddressSanitizer: heap-use-after-free (/opt/app/prog+0x1242)\n"
}

// strippedProg serves c-O2-dw5-pie from a real debuginfod (the client's
// cache a fresh directory) and returns the server and two directories
// holding "prog": its stripped copy and the unstripped one.
func strippedProg(t *testing.T) (s *debuginfodtest.Server, stripped, unstripped string) {
	t.Helper()
	srv := t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(srv, "c-O2-dw5-pie"))
	s = debuginfodtest.Start(t, srv, 1)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	stripped, unstripped = t.TempDir(), t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-stripped", filepath.Join(stripped, "prog"))
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(unstripped, "prog"))
	return s, stripped, unstripped
}

// TestDebuginfodDecode: decode and batch complete a log's frames of a
// stripped module from the server, as with the unstripped module.
func TestDebuginfodDecode(t *testing.T) {
	s, stripped, unstripped := strippedProg(t)
	log := asanLog(sampleAddresses(t, fixtureDir+"/c-O2-dw5-pie", 12, 6))
	logs := t.TempDir()
	if err := os.WriteFile(filepath.Join(logs, "asan.log"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		in   string
	}{
		{"decode", []string{"decode", "--color=never", "--format=json"}, log},
		{"batch", []string{"batch", "--format=json", logs}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(dir string) (string, string) {
				args := append(append([]string(nil), c.args...), "--binary-dir="+dir, "--debug-file-directory=/nonexistent")
				out, stderr, _ := runArgv0(t, "sanitrace", args, c.in)
				return out, stderr
			}
			checkThroughDebuginfod(t, s.URL, c.name+" of the stripped module", run, unstripped, stripped)
		})
	}
}

// TestDebuginfodBadServers: a server that never answers costs one line and
// at most DEBUGINFOD_TIMEOUT; garbage or a file with another build-id is
// rejected with one line; the answers are then those without debug info.
func TestDebuginfodBadServers(t *testing.T) {
	bins := t.TempDir()
	bin := filepath.Join(bins, "c-O2-stripped")
	fixture.Copy(t, fixtureDir+"/c-O2-stripped", bin)
	addrs := sampleAddresses(t, fixtureDir+"/c-O2-dw5-pie", 1000, 30)
	c := debuginfodCases(addrs)[1] // JSON
	t.Setenv("DEBUGINFOD_URLS", "")
	t.Setenv("DEBUGINFOD_CACHE_PATH", filepath.Join(t.TempDir(), "unused"))
	plain, _ := c.run(t, bin)

	silent := debuginfodtest.Silent(t)
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>503 Service Unavailable</html>"))
	}))
	defer garbage.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, fixtureDir+"/cxx-O2-dw5")
	}))
	defer other.Close()

	for _, tc := range []struct {
		name, url, want string
	}{
		{"silent", silent, "within DEBUGINFOD_TIMEOUT=1 s"},
		{"garbage", garbage.URL, "not an ELF file"},
		{"wrong build-id", other.URL, "not the one asked for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), tc.url)
			t.Setenv("DEBUGINFOD_TIMEOUT", "1")
			got, stderr := c.run(t, bin)
			if got != plain {
				t.Errorf("answers differ from those without debuginfod:\n%s", golden.FirstDiff(plain, got))
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.url) || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr %q: want one line naming %s with %q", stderr, tc.url, tc.want)
			}
		})
	}
}

// TestDebuginfodSupplementary: a dwz-processed binary whose supplementary
// file only the server has answers as with the file beside it.
func TestDebuginfodSupplementary(t *testing.T) {
	srv := t.TempDir()
	fixture.Copy(t, fixtureDir+"/dwz/gnu/common.debug", filepath.Join(srv, "common.debug"))
	s := debuginfodtest.Start(t, srv, 1)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	bins := t.TempDir()
	fixture.Copy(t, fixtureDir+"/dwz/gnu/tmpl", filepath.Join(bins, "tmpl"))
	for _, c := range debuginfodCases(sampleAddresses(t, fixtureDir+"/dwz/orig/tmpl", 40, 30)) {
		t.Run(c.name, func(t *testing.T) {
			run := func(bin string) (string, string) { return c.run(t, bin) }
			checkThroughDebuginfod(t, s.URL, "the binary without its supplementary file", run, fixtureDir+"/dwz/gnu/tmpl", filepath.Join(bins, "tmpl"))
		})
	}
}

// TestDebuginfodExecutable: a module the log names with its build-id but
// no directory holds is fetched from /buildid/ID/executable.
func TestDebuginfodExecutable(t *testing.T) {
	srv := t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(srv, "c-O2-dw5-pie"))
	s := debuginfodtest.Start(t, srv, 1)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	id, err := debuginfo.ReadBuildID(fixtureDir + "/c-O2-dw5-pie")
	if err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(local, "prog"))
	log := func(module string) string {
		return fmt.Sprintf("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x555555555139 bp 0x7ffd00000000 sp 0x7ffd00000000 T0)\n"+
			"    #0 0x555555555139  (%[1]s+0x1139) (BuildId: %[2]x)\n    #1 0x555555555390  (%[1]s+0x1390) (BuildId: %[2]x)\n\nSUMMARY: AddressSanitizer: SEGV (%[1]s+0x1139) (BuildId: %[2]x)\n", module, id)
	}
	t.Setenv("DEBUGINFOD_URLS", "")
	want, _, _ := runArgv0(t, "sanitrace", []string{"decode", "--color=never", "--debug-file-directory=/nonexistent"}, log(filepath.Join(local, "prog")))
	t.Setenv("DEBUGINFOD_URLS", s.URL)
	got, stderr, _ := runArgv0(t, "sanitrace", []string{"decode", "--color=never", "--debug-file-directory=/nonexistent"}, log("/opt/gone/prog"))
	if stderr != "" {
		t.Errorf("stderr: %q", stderr)
	}
	if strings.ReplaceAll(want, filepath.Join(local, "prog"), "/opt/gone/prog") != got {
		t.Errorf("decode with the binary from /executable:\n%s", golden.FirstDiff(want, got))
	}
	if !strings.Contains(got, " in ") {
		t.Errorf("frames not symbolized:\n%s", got)
	}
}

// TestDebuginfodCore: core names the frames of a core whose executable
// here is stripped as it does with the unstripped one, from the server.
func TestDebuginfodCore(t *testing.T) {
	strip := reftool.NeedFor(t, "strip", "cannot make the stripped modules the server stands in for")
	fix := filepath.Join(repoRoot, "testdata", "core")
	srv, full, stripped, cores := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	gunzipTo(t, filepath.Join(fix, "crash.gz"), filepath.Join(full, "crash"), 0o755)
	gunzipTo(t, filepath.Join(fix, "core.gz"), filepath.Join(cores, "core"), 0o644)
	fixture.Copy(t, filepath.Join(full, "crash"), filepath.Join(srv, "crash"))
	if out, err := exec.Command(strip, "--strip-debug", "-o", filepath.Join(stripped, "crash"), filepath.Join(full, "crash")).CombinedOutput(); err != nil {
		t.Fatalf("strip: %v\n%s", err, out)
	}
	s := debuginfodtest.Start(t, srv, 1)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	run := func(dir string) (string, string) {
		out, stderr, _ := runCLI(t, "", "core", "--format", "json", "--debug-file-directory=/nonexistent", "--prefix-map", coreFixtureRun+"="+dir, filepath.Join(cores, "core"))
		return strings.ReplaceAll(out, dir, "DIR"), stderr
	}
	checkThroughDebuginfod(t, s.URL, "core with the stripped executable", run, full, stripped)
}

// TestDebuginfodSource: --source-context shows the lines of a source file
// that is not here, from the server's /buildid/ID/source/PATH.
func TestDebuginfodSource(t *testing.T) {
	cc := reftool.NeedFor(t, "gcc", "cannot build the program whose source the server serves")
	build := t.TempDir()
	src := filepath.Join(build, "prog.c")
	code := "#include <stdlib.h>\n\nint crash(int *p)\n{\n\treturn *p + 41; /* the line of the frame */\n}\n\nint main(void)\n{\n\treturn crash(NULL);\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-g", "-O0", "-o", filepath.Join(build, "prog"), src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	s := debuginfodtest.Start(t, build, 1)
	debuginfodEnv(t, filepath.Join(t.TempDir(), "cache"), s.URL)
	f, err := elf.Open(filepath.Join(build, "prog"))
	if err != nil {
		t.Fatal(err)
	}
	var crash uint64
	syms, _ := f.Symbols()
	for _, sym := range syms {
		if sym.Name == "crash" {
			crash = sym.Value
		}
	}
	f.Close()
	if crash == 0 {
		t.Fatal("no crash symbol")
	}
	log := fmt.Sprintf("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x%[1]x bp 0x7ffd00000000 sp 0x7ffd00000000 T0)\n"+
		"    #0 0x%[1]x  (/opt/app/prog+0x%[2]x)\n\nSUMMARY: AddressSanitizer: SEGV (/opt/app/prog+0x%[2]x)\n", 0x555555554000+crash+8, crash+8)
	// The prefix map sends the source path nowhere: only the server has it.
	args := []string{"decode", "--color=never", "--source-context=1", "--binary-dir=" + build, "--prefix-map=" + build + "=/nonexistent/src"}
	t.Setenv("DEBUGINFOD_URLS", "")
	without, _, _ := runArgv0(t, "sanitrace", args, log)
	if strings.Contains(without, "the line of the frame") {
		t.Fatalf("the source was read locally: the test shows nothing\n%s", without)
	}
	t.Setenv("DEBUGINFOD_URLS", s.URL)
	got, stderr, _ := runArgv0(t, "sanitrace", args, log)
	if stderr != "" {
		t.Errorf("stderr: %q", stderr)
	}
	if !strings.Contains(got, "> 5 |") || !strings.Contains(got, "return *p + 41; /* the line of the frame */") {
		t.Errorf("no source context from the server in\n%s", got)
	}
}

// TestDebuginfodConcurrentModules: the modules one report names are
// fetched at once, not one after the other: the server holds each request
// until both are in flight (or a generous deadline passes, so a sequential
// client fails the test instead of hanging it), and the report comes out as
// with the unstripped modules.
func TestDebuginfodConcurrentModules(t *testing.T) {
	strip := reftool.NeedFor(t, "strip", "cannot make the stripped modules the server stands in for")
	served := map[string]string{} // build-id -> unstripped file
	for _, p := range []string{fixtureDir + "/c-O2-dw5-pie", fixtureDir + "/cxx-O2-dw5"} {
		id, err := debuginfo.ReadBuildID(p)
		if err != nil {
			t.Fatal(err)
		}
		served[fmt.Sprintf("%x", id)] = p
	}
	srvURL, inFlight := barrierServer(t, served, 2)

	stripped, unstripped := t.TempDir(), t.TempDir()
	fixture.Copy(t, fixtureDir+"/c-O2-stripped", filepath.Join(stripped, "prog"))
	// strip --strip-debug keeps the symbol table, so the answers must be
	// the unstripped file's to the byte.
	if out, err := exec.Command(strip, "--strip-debug", "-o", filepath.Join(stripped, "other"), fixtureDir+"/cxx-O2-dw5").CombinedOutput(); err != nil {
		t.Fatalf("strip: %v\n%s", err, out)
	}
	fixture.Copy(t, fixtureDir+"/c-O2-dw5-pie", filepath.Join(unstripped, "prog"))
	fixture.Copy(t, fixtureDir+"/cxx-O2-dw5", filepath.Join(unstripped, "other"))
	var frames strings.Builder
	n := 0
	for _, m := range []struct{ name, src string }{{"prog", fixtureDir + "/c-O2-dw5-pie"}, {"other", fixtureDir + "/cxx-O2-dw5"}} {
		for _, a := range sampleAddresses(t, m.src, 4, 2) {
			if a != 0 {
				fmt.Fprintf(&frames, "    #%d 0x%x  (/opt/app/%s+0x%x)\n", n, 0x555555554000+a, m.name, a)
				n++
			}
		}
	}
	log := "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x555555555139 bp 0x7ffd00000000 sp 0x7ffd00000000 T0)\n" +
		frames.String() + "\nSUMMARY: AddressSanitizer: SEGV (/opt/app/prog+0x1139)\n"
	run := func(dir string) (string, string) {
		out, stderr, _ := runArgv0(t, "sanitrace", []string{"decode", "--color=never", "--binary-dir=" + dir, "--debug-file-directory=/nonexistent"}, log)
		return out, stderr
	}
	t.Setenv("DEBUGINFOD_URLS", "")
	t.Setenv("DEBUGINFOD_CACHE_PATH", filepath.Join(t.TempDir(), "cache"))
	want, _ := run(unstripped)
	t.Setenv("DEBUGINFOD_URLS", srvURL)
	got, stderr := run(stripped)
	if stderr != "" {
		t.Errorf("stderr: %q", stderr)
	}
	if got != want {
		t.Errorf("through debuginfod:\n%s", golden.FirstDiff(want, got))
	}
	if most := inFlight(); most != 2 {
		t.Errorf("at most %d downloads in flight at once; want the report's 2 modules fetched together", most)
	}
}

// barrierServer serves /buildid/ID/debuginfo from served (build-id ->
// file) and holds each request until n are in flight, or until a generous
// deadline passes, so that a client asking one after the other fails a
// test instead of hanging it. inFlight reports the most requests seen in
// flight at once.
func barrierServer(t *testing.T, served map[string]string, n int) (url string, inFlight func() int) {
	t.Helper()
	var mu sync.Mutex
	now, most := 0, 0
	all := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(r.URL.Path, "/") // "", buildid, ID, debuginfo
		if len(parts) != 4 || parts[3] != "debuginfo" || served[parts[2]] == "" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		now++
		most = max(most, now)
		if now == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(20 * time.Second): // a hang guard, not a performance bound
		}
		http.ServeFile(w, r, served[parts[2]])
		mu.Lock()
		now--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() int {
		mu.Lock()
		defer mu.Unlock()
		return most
	}
}

// TestDebuginfodCoreConcurrent: core asks for the debug files of a core's
// libraries at once, and answers through the server as with the debug
// files found locally (a core of the shared corpus, its sysroot's
// .build-id tree served instead of read).
func TestDebuginfodCoreConcurrent(t *testing.T) {
	root := sharedtest.Dir(t, "corpus", "cores")
	sysroot := filepath.Join(root, "sysroot")
	dir := filepath.Join(root, "segv-chain-O2")
	served := map[string]string{}
	debugs, _ := filepath.Glob(filepath.Join(sysroot, "usr/lib/debug/.build-id/*/*.debug"))
	for _, p := range debugs {
		served[filepath.Base(filepath.Dir(p))+strings.TrimSuffix(filepath.Base(p), ".debug")] = p
	}
	if len(served) < 2 {
		t.Skipf("fewer than two debug files under %s", sysroot)
	}
	srvURL, inFlight := barrierServer(t, served, len(served))
	run := func(extra ...string) (string, string) {
		args := append([]string{"core", "--format", "json", "--prefix-map", "/build/ci/cores/segv-chain-O2=" + dir, "--sysroot", sysroot}, extra...)
		out, stderr, _ := runCLI(t, "", append(args, filepath.Join(dir, "core"))...)
		return out, stderr
	}
	t.Setenv("DEBUGINFOD_URLS", "")
	t.Setenv("DEBUGINFOD_CACHE_PATH", filepath.Join(t.TempDir(), "cache"))
	want, _ := run()
	plain, _ := run("--debug-file-directory=/nonexistent")
	if plain == want {
		t.Fatal("the libraries answer alike without their debug files: the test shows nothing")
	}
	t.Setenv("DEBUGINFOD_URLS", srvURL)
	got, stderr := run("--debug-file-directory=/nonexistent")
	if stderr != "" {
		t.Errorf("stderr: %q", stderr)
	}
	if got != want {
		t.Errorf("core through debuginfod:\n%s", golden.FirstDiff(want, got))
	}
	if most := inFlight(); most != len(served) {
		t.Errorf("at most %d downloads in flight at once; want the %d libraries' debug files fetched together", most, len(served))
	}
}

// TestDebuginfodLWS: lws decode completes the pcs of a stripped --obj from
// a real debuginfod, as with the unstripped binary.
func TestDebuginfodLWS(t *testing.T) {
	s, stripped, unstripped := strippedProg(t)
	// lws takes the pcs for return addresses and looks up pc-1: a+1 asks
	// for a itself, inside the functions the DWARF describes. (Code without
	// DWARF, such as crtstuff's, is named with its STT_FILE only from the
	// unstripped binary, as llvm-symbolizer does: not what this compares.)
	var log strings.Builder
	for _, a := range sampleAddresses(t, fixtureDir+"/c-O2-dw5-pie", 12, 6) {
		if a != 0 {
			fmt.Fprintf(&log, "~b#size: 64, 0x%x 0x%x\n", 0x555555554000+a+1, 0x555555554000+a+2)
		}
	}
	run := func(dir string) (string, string) {
		out, stderr, _ := runCLI(t, log.String(), "lws", "decode", "--obj", filepath.Join(dir, "prog"), "--base", "0x555555554000")
		return strings.ReplaceAll(out, dir, "DIR"), stderr
	}
	checkThroughDebuginfod(t, s.URL, "lws decode of the stripped binary", run, unstripped, stripped)
}
