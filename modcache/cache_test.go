package modcache

import (
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/elfbuild"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/symbolize"
)

// fakeObject names every address after its file; it counts its closes.
// Its footprint is the file's size, which a test may grow as a lookup
// opening a .dwo file grows a real object's.
type fakeObject struct {
	path   string
	size   atomic.Int64
	closed atomic.Int32
}

func (o *fakeObject) Symbolize(uint64, symbolize.LookupOptions) ([]symbolize.Frame, error) {
	if o.closed.Load() > 0 {
		return nil, errors.New("lookup after Close")
	}
	return []symbolize.Frame{{Function: o.path}}, nil
}
func (o *fakeObject) SymbolizeMany(addrs []uint64, opts symbolize.LookupOptions) [][]symbolize.Frame {
	out := make([][]symbolize.Frame, len(addrs))
	for i, a := range addrs {
		out[i], _ = o.Symbolize(a, opts)
	}
	return out
}
func (o *fakeObject) Data(uint64) (symbolize.DataSymbol, bool) { return symbolize.DataSymbol{}, false }
func (o *fakeObject) Frame(uint64) ([]symbolize.Local, error)  { return nil, nil }
func (o *fakeObject) FuncStart(uint64) (uint64, bool)          { return 0, false }
func (o *fakeObject) CFI() *cfi.Table                          { return nil }
func (o *fakeObject) CodeAt(uint64, int) []byte                { return nil }
func (o *fakeObject) Damage() error                            { return nil }
func (o *fakeObject) SupplementaryError() error                { return nil }
func (o *fakeObject) SplitDWARFErrors() []error                { return nil }
func (o *fakeObject) SymbolAddresses(string, uint64) []uint64  { return nil }
func (o *fakeObject) ExpectManyLookups()                       {}
func (o *fakeObject) ReleaseResident()                         {}
func (o *fakeObject) Footprint() int64                         { return o.size.Load() }
func (o *fakeObject) Close() error                             { o.closed.Add(1); return nil }
func (o *fakeObject) answer() string {
	f, _ := o.Symbolize(0, symbolize.LookupOptions{})
	return f[0].Function
}
func (o *fakeObject) isClosed() bool { return o.closed.Load() > 0 }
func answerOf(l Lease) string        { return l.Obj.(*fakeObject).answer() }
func fakeOpener(opens *atomic.Int32) Opener {
	return func(path string) (Object, error) {
		opens.Add(1)
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		o := &fakeObject{path: filepath.Base(path)}
		o.size.Store(fi.Size())
		return o, nil
	}
}

// files makes files in a directory, each holding its name, and returns
// their paths.
func files(t *testing.T, names ...string) []string {
	return sizedFiles(t, names, nil)
}

// sizedFiles makes files in a directory, each of sizes[i] bytes (its
// name's when sizes is nil), and returns their paths.
func sizedFiles(t *testing.T, names []string, sizes []int) []string {
	dir := t.TempDir()
	var paths []string
	for i, n := range names {
		p := filepath.Join(dir, n)
		data := []byte(n)
		if sizes != nil {
			data = make([]byte, sizes[i])
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestOneFileManyPaths: a file asked for by several paths (a hard link, a
// symlinked directory) is opened once; another file is not taken for it.
func TestOneFileManyPaths(t *testing.T) {
	p := files(t, "prog", "other")
	link := filepath.Join(filepath.Dir(p[0]), "link")
	if err := os.Link(p[0], link); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(t.TempDir(), "d")
	if err := os.Symlink(filepath.Dir(p[0]), dirLink); err != nil {
		t.Fatal(err)
	}
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens)})
	defer c.Close()
	first := c.Get(p[0])
	if first.Obj == nil || first.Err != nil {
		t.Fatalf("Get(%s) = %+v", p[0], first)
	}
	for _, q := range []string{link, filepath.Join(dirLink, "prog"), p[0]} {
		l := c.Get(q)
		if l.Obj != first.Obj {
			t.Errorf("Get(%s): object %p; want the object of %s (%p)", q, l.Obj, p[0], first.Obj)
		}
		l.Release()
	}
	first.Release()
	other := c.Get(p[1])
	defer other.Release()
	if other.Obj == first.Obj || answerOf(other) != "other" {
		t.Errorf("another file shares the object of prog")
	}
	if n := opens.Load(); n != 2 {
		t.Errorf("%d opens, want 2", n)
	}
}

// TestFailureKept: a file that cannot be opened says why on every Get and
// is not tried again.
func TestFailureKept(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens), MaxBytes: 1})
	defer c.Close()
	for i := 0; i < 3; i++ {
		l := c.Get(missing)
		if l.Obj != nil || !errors.Is(l.Err, os.ErrNotExist) {
			t.Fatalf("Get #%d = %+v", i, l)
		}
		l.Release()
		if _, ok := c.Resident(missing); ok {
			t.Fatal("a failed file is resident")
		}
	}
	if n := opens.Load(); n != 1 {
		t.Errorf("%d opens, want 1", n)
	}
}

// TestConcurrentGets: goroutines asking for the same files at once get
// one object per file, opened once.
func TestConcurrentGets(t *testing.T) {
	p := files(t, "a", "b", "c")
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens)})
	defer c.Close()
	var wg sync.WaitGroup
	got := make([][3]Object, 16)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, path := range p {
				l := c.Get(path)
				got[g][i] = l.Obj
				l.Release()
			}
		}()
	}
	wg.Wait()
	for g := range got {
		if got[g] != got[0] {
			t.Fatalf("goroutine %d got other objects", g)
		}
	}
	if n := opens.Load(); n != 3 {
		t.Errorf("%d opens, want 3", n)
	}
}

// TestBound: past MaxBytes of footprint, the least recently used objects
// nobody holds are closed, and opened again when asked for, with the same
// answers; one still held stays open until its lease is released, and the
// most recently used one stays even alone past the bound.
func TestBound(t *testing.T) {
	p := sizedFiles(t, []string{"a", "b", "c", "big"}, []int{100, 100, 100, 500})
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens), MaxBytes: 250})
	defer c.Close()
	a := c.Get(p[0])
	aObj := a.Obj.(*fakeObject)
	b := c.Get(p[1])
	b.Release()
	// a is held: c's open evicts b, the least recently used free one.
	cl := c.Get(p[2])
	cl.Release()
	if aObj.isClosed() {
		t.Fatal("a held object was closed")
	}
	if isOpen(c, p[1]) {
		t.Error("b is still open past the bound")
	}
	checkTotal(t, c, 200)
	a.Release()
	// Asked again, b is opened again (a, now free and least recent, goes)
	// and answers as before.
	b = c.Get(p[1])
	if answerOf(b) != "b" {
		t.Errorf("b again: answer %q", answerOf(b))
	}
	b.Release()
	if !aObj.isClosed() {
		t.Error("a was not closed once released and least recently used")
	}
	if n := opens.Load(); n != 4 {
		t.Errorf("%d opens, want 4 (a, b, c, b)", n)
	}
	// Resident hands out only what is open, and counts as a use.
	if l, ok := c.Resident(p[2]); !ok || answerOf(l) != "c" {
		t.Errorf("Resident(c) = %v", ok)
	} else {
		l.Release()
	}
	if _, ok := c.Resident(p[0]); ok {
		t.Error("Resident(a) after a was closed")
	}
	// A module bigger than the bound: everything else goes, it stays
	// (llvm-symbolizer keeps its most recent binary too).
	big := c.Get(p[3])
	big.Release()
	if !isOpen(c, p[3]) {
		t.Error("the most recently used module was closed")
	}
	for _, q := range p[:3] {
		if isOpen(c, q) {
			t.Errorf("%s still open beside a module past the bound", filepath.Base(q))
		}
	}
	checkTotal(t, c, 500)
}

// TestBoundGrowth: an object whose footprint grew during a lease (a
// lookup opened a .dwo file) is counted anew when the lease ends, and the
// cache evicts for it.
func TestBoundGrowth(t *testing.T) {
	p := sizedFiles(t, []string{"a", "b"}, []int{100, 100})
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens), MaxBytes: 250})
	defer c.Close()
	a := c.Get(p[0])
	a.Release()
	b := c.Get(p[1])
	b.Obj.(*fakeObject).size.Store(200)
	if !isOpen(c, p[0]) {
		t.Fatal("a was closed before b grew")
	}
	b.Release()
	if isOpen(c, p[0]) {
		t.Error("a still open once b's growth took the sum past the bound")
	}
	checkTotal(t, c, 200)
}

// TestBoundDefault: MaxBytes 0 is DefaultMaxBytes; Bound maps a
// --cache-size onto MaxBytes.
func TestBoundDefault(t *testing.T) {
	if c := New(Options{Open: fakeOpener(new(atomic.Int32))}); c.max != DefaultMaxBytes {
		t.Errorf("default bound %d, want %d", c.max, DefaultMaxBytes)
	}
	for _, tc := range []struct {
		n    uint64
		want int64
	}{{0, 1}, {1, 1}, {4096, 4096}, {1 << 63, 1<<63 - 1}, {1<<64 - 1, 1<<63 - 1}} {
		if got := Bound(tc.n); got != tc.want {
			t.Errorf("Bound(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestBoundZero: at the smallest bound (--cache-size=0), every open
// object but the one in use and the most recent is closed, and a file
// asked for in turn with another is opened each time, answering the same.
func TestBoundZero(t *testing.T) {
	p := files(t, "a", "b")
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens), MaxBytes: Bound(0)})
	defer c.Close()
	for i := 0; i < 3; i++ {
		for j, q := range p {
			l := c.Get(q)
			if got := answerOf(l); got != filepath.Base(q) {
				t.Errorf("round %d: %s answers %q", i, filepath.Base(q), got)
			}
			l.Release()
			if isOpen(c, p[1-j]) {
				t.Errorf("round %d: %s open beside %s", i, filepath.Base(p[1-j]), filepath.Base(q))
			}
		}
	}
	if n := opens.Load(); n != 6 {
		t.Errorf("%d opens, want 6", n)
	}
}

// TestBoundConcurrent: goroutines asking for many files at once under a
// small bound get each file's own answers, nothing is used after Close,
// and once the leases end the open objects are within the bound.
func TestBoundConcurrent(t *testing.T) {
	names := make([]string, 40)
	sizes := make([]int, len(names))
	for i := range names {
		names[i] = string(rune('A'+i%26)) + string(rune('a'+i/26))
		sizes[i] = 10 + i
	}
	p := sizedFiles(t, names, sizes)
	var opens atomic.Int32
	c := New(Options{Open: fakeOpener(&opens), MaxBytes: 100})
	defer c.Close()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				q := p[(i*7+g*3)%len(p)]
				l := c.Get(q)
				if got := answerOf(l); got != filepath.Base(q) {
					t.Errorf("%s answered %q", filepath.Base(q), got)
				}
				l.Release()
			}
		}()
	}
	wg.Wait()
	c.mu.Lock()
	total, open := c.total, c.lru.Len()
	c.mu.Unlock()
	if total > 100 && open > 1 {
		t.Errorf("%d bytes in %d objects open once every lease ended; bound 100", total, open)
	}
}

// isOpen says whether the object of path is open, without using it.
func isOpen(c *Cache, path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byPath[path]
	return e != nil && e.obj != nil
}

// checkTotal says whether the cache counts want bytes of footprint, the
// sum of its open objects'.
func checkTotal(t *testing.T, c *Cache, want int64) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var sum int64
	for el := c.lru.Front(); el != nil; el = el.Next() {
		sum += el.Value.(*entry).obj.Footprint()
	}
	if c.total != want || sum != want {
		t.Errorf("the cache counts %d bytes, its objects sum to %d; want %d", c.total, sum, want)
	}
}

// TestEngine: the default Opener is the symbolizer over the Finder's
// files; a module without DWARF or symbols is an error, not an object.
func TestEngine(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog")
	fixture.Copy(t, "../testdata/elf/c-O2-dw5-pie", prog)
	bare := filepath.Join(dir, "bare")
	text := elfbuild.Build(elfbuild.Section{Name: ".text", Type: elf.SHT_PROGBITS, Flags: elf.SHF_ALLOC | elf.SHF_EXECINSTR, Data: []byte{0xc3}})
	if err := os.WriteFile(bare, text, 0o644); err != nil {
		t.Fatal(err)
	}
	c := New(Options{Finder: &debuginfo.Finder{DebugDirs: []string{}}})
	defer c.Close()
	l := c.Get(prog)
	defer l.Release()
	if _, ok := l.Obj.(*symbolize.Object); !ok || l.Err != nil {
		t.Fatalf("Get(prog) = %T, %v", l.Obj, l.Err)
	}
	want, err := symbolize.Open(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	addrs := []uint64{0x1040, 0x1139, 0x1160}
	opts := symbolize.LookupOptions{Inlines: true, Demangle: true}
	got, exp := l.Obj.SymbolizeMany(addrs, opts), want.SymbolizeMany(addrs, opts)
	for i := range addrs {
		if len(got[i]) != len(exp[i]) || got[i][0] != exp[i][0] {
			t.Errorf("0x%x: %+v, want %+v", addrs[i], got[i], exp[i])
		}
	}
	nothing := c.Get(bare)
	if nothing.Obj != nil || !errors.Is(nothing.Err, symbolize.ErrNoDebugInfo) {
		t.Errorf("Get(bare) = %v, %v; want no object and ErrNoDebugInfo", nothing.Obj, nothing.Err)
	}
}
