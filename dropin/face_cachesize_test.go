package dropin

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
)

// cacheSizeModules are fixtures of every kind a module comes in: DWARF 4
// and 5, gcc and clang, C, C++, Go and Rust, compressed sections, a
// separate debug file, split DWARF (whose .dwo files lookups open), dwz.
var cacheSizeModules = []string{
	"c-O2-dw5-pie", "cxx-O2-dw5", "cxx-O2-clang-dw4", "c-O2-zlib", "c-O2-zdebug",
	"debuglink/prog", "split-dw5/prog", "split-dw4/prog", "dwz/gnu/stl",
	"go-trimpath", "rust-v0-O", "stl-O2-dw5-pie", "libfix.so",
}

// cacheSizeQueries asks each module for a few of its functions' addresses
// (CODE, and the FRAME of the first), in turns over the modules, twice:
// under a small bound, every module is closed before it is asked again.
func cacheSizeQueries(t *testing.T) string {
	var b strings.Builder
	for pass := 0; pass < 2; pass++ {
		for _, m := range cacheSizeModules {
			path := faceFixtureDir + "/" + m
			src := path
			if m == "debuglink/prog" { // stripped: its symbols are in the debug file
				src += ".debug"
			}
			addrs := faceFixtureAddresses(t, src, 3, 1)
			if len(addrs) < 4 {
				t.Fatalf("%s: %d addresses", m, len(addrs))
			}
			for i, a := range addrs[:4] {
				if i == 0 {
					fmt.Fprintf(&b, "FRAME %s 0x%x\n", path, a)
				}
				fmt.Fprintf(&b, "%s 0x%x\n", path, a)
			}
		}
	}
	return b.String()
}

// TestCacheSizeAnswersUnchanged: a session over many modules answers the
// same, byte for byte, with every module kept open (the default bound),
// with none kept but the last (--cache-size=0, llvm-symbolizer 19's
// smallest) and with a bound that holds a few: only the number of opens
// changes. Each query is its own batch, as on a sanitizer's pipe.
func TestCacheSizeAnswersUnchanged(t *testing.T) {
	faceChdir(t)
	queries := cacheSizeQueries(t)
	run := func(args ...string) (out, errs string, opens int) {
		var mu sync.Mutex
		counted := func(path string, f *debuginfo.Finder) (modcache.Object, error) {
			mu.Lock()
			opens++
			mu.Unlock()
			return OpenEngine(path, f)
		}
		var o, e bytes.Buffer
		env := Env{Stdin: strings.NewReader(queries), Stdout: &o, Stderr: &e, Getenv: os.Getenv, Open: counted, batchBytes: 1}
		if code := RunLLVMSymbolizer(append(args, "--inlines", "--demangle"), env); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, e.String())
		}
		return o.String(), e.String(), opens
	}
	wantOut, wantErr, opens := run()
	if opens != len(cacheSizeModules) {
		t.Errorf("default bound: %d opens of %d modules; want each opened once", opens, len(cacheSizeModules))
	}
	if unknown := strings.Count(wantOut, "??\n??:0:0\n"); unknown > strings.Count(queries, "\n")/4 {
		t.Fatalf("%d answers are unknown: the queries test little\n%s", unknown, wantOut)
	}
	for _, size := range []string{"0", "2097152"} {
		out, errs, n := run("--cache-size=" + size)
		if out != wantOut || errs != wantErr {
			t.Errorf("--cache-size=%s: the answers differ from the default bound's", size)
			diffLines(t, wantOut, out)
		}
		if n <= len(cacheSizeModules) {
			t.Errorf("--cache-size=%s: %d opens of %d modules; the bound closed none", size, n, len(cacheSizeModules))
		}
		t.Logf("--cache-size=%s: %d opens of %d modules", size, n, len(cacheSizeModules))
	}
}

// diffLines reports the first line where got departs from want.
func diffLines(t *testing.T, want, got string) {
	t.Helper()
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			t.Errorf("line %d: got %q, want %q", i+1, gl, wl)
			return
		}
	}
}

// TestCacheSizeBatchLeases: a batch of queries for one module holds it
// open while it is answered, and lets it go once answered: under
// --cache-size=0 the module is closed when the next module opens and
// reopened when asked again, whether the batch's jobs each took a lease
// of the cache or shared the one before's.
func TestCacheSizeBatchLeases(t *testing.T) {
	faceChdir(t)
	a, b := faceFixtureDir+"/cxx-O2-dw5", faceFixtureDir+"/c-O2-dw5-pie"
	addrs := faceFixtureAddresses(t, a, 3, 1)
	var q strings.Builder
	for i := range 4 * minParallel { // answered in parallel, as one batch
		fmt.Fprintf(&q, "%s 0x%x\n", a, addrs[i%len(addrs)])
	}
	fmt.Fprintf(&q, "%s 0x%x\n", b, faceFixtureAddresses(t, b, 3, 1)[0])
	fmt.Fprintf(&q, "%s 0x%x\n", a, addrs[0])
	opens := map[string]int{}
	var mu sync.Mutex
	counted := func(path string, f *debuginfo.Finder) (modcache.Object, error) {
		mu.Lock()
		opens[path]++
		mu.Unlock()
		return OpenEngine(path, f)
	}
	var o, e bytes.Buffer
	env := Env{Stdin: strings.NewReader(q.String()), Stdout: &o, Stderr: &e, Getenv: os.Getenv, Open: counted}
	if code := RunLLVMSymbolizer([]string{"--cache-size=0"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	if opens[a] != 2 || opens[b] != 1 {
		t.Errorf("opens %v; want %s twice (closed for %s, asked again) and %s once", opens, a, b, b)
	}
	if n := strings.Count(o.String(), "\n\n"); n != 4*minParallel+2 {
		t.Errorf("%d answers, want %d", n, 4*minParallel+2)
	}
}
