package modcache

import (
	"container/list"
	"errors"
	"math"
	"sync"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// Options configure a Cache.
type Options struct {
	// Finder names the files (debuginfo.Finder.FileKey: the paths of one
	// file share an entry) and, for the default Open, hands over the
	// files its searches opened and finds the debug files. nil means a
	// Finder with the defaults, closed by Close.
	Finder *debuginfo.Finder
	// Open opens a module; nil means Engine(Finder).
	Open Opener
	// MaxBytes bounds the open objects' summed Footprint, as
	// llvm-symbolizer's --cache-size bounds the bytes of the binaries it
	// keeps: once an open or a use ends past it, the least recently used
	// objects that nobody holds are closed until the sum is within it, and
	// opened again when asked for. The most recently used object always
	// stays, as in llvm-symbolizer, so that a module bigger than the
	// bound is not opened again at every query; objects held by leases
	// stay too, so the sum exceeds the bound by what is in use. 0 means
	// DefaultMaxBytes; Bound turns a --cache-size into MaxBytes.
	MaxBytes int64
	// Opened, when set, is told every path the cache opens (tests count
	// them).
	Opened func(path string)
}

// DefaultMaxBytes is the bound of a Cache whose Options leave MaxBytes
// zero, and so the default of every command's --cache-size: 1 GiB of
// footprint, where llvm-symbolizer's default is 4 GiB of file bytes
// (which leave its parsed DWARF uncounted). docs/guide.md says how it
// was chosen.
const DefaultMaxBytes = 1 << 30

// Bound returns the Options.MaxBytes of a --cache-size of n bytes: n, at
// most math.MaxInt64; 0 becomes 1, which keeps what a bound of 0 keeps
// (the objects in use and the most recently used one), every object's
// footprint being more than a byte.
func Bound(n uint64) int64 {
	if n == 0 {
		return 1
	}
	return int64(min(n, math.MaxInt64))
}

// A Cache opens each module file once and hands the object to every
// caller that asks for one of the file's paths. It is safe for concurrent
// use; the objects it hands out are too.
type Cache struct {
	finder    *debuginfo.Finder
	ownFinder bool
	open      Opener
	max       int64
	opened    func(string)

	mu     sync.Mutex
	byPath map[string]*entry // every path asked for
	byFile map[string]*entry // by debuginfo.Finder.FileKey
	lru    list.List         // of *entry: the open objects, most recently used first
	total  int64             // the footprints of the open objects, summed
}

// entry is one file. Its object is opened on first use and, under a
// bound, closed when least recently used and opened again on demand. A
// file that could not be opened keeps its error: it is not tried again.
type entry struct {
	path string // the path it is opened from
	obj  Object
	err  error
	// opening is closed when the open under way ends; nil when none is.
	opening chan struct{}
	refs    int           // leases not yet released
	elem    *list.Element // in lru while obj is open
	size    int64         // obj's footprint, counted in Cache.total
}

// New returns a Cache; Close it to close its objects.
func New(opts Options) *Cache {
	c := &Cache{finder: opts.Finder, open: opts.Open, max: opts.MaxBytes, opened: opts.Opened,
		byPath: make(map[string]*entry), byFile: make(map[string]*entry)}
	if c.max == 0 {
		c.max = DefaultMaxBytes
	}
	if c.finder == nil {
		c.finder, c.ownFinder = &debuginfo.Finder{}, true
	}
	if c.open == nil {
		c.open = Engine(c.finder)
	}
	return c
}

// A Lease is one use of a cached module: Obj stays open until Release.
type Lease struct {
	Obj Object // nil when the file could not be opened
	// Err is why the file could not be opened; with an Obj, what the
	// Opener warned about (the object is usable).
	Err error

	c *Cache
	e *entry
}

// Release ends the lease; the object may be closed from then on. Releasing
// a lease without an object, or twice, is harmless.
func (l *Lease) Release() {
	if l.c == nil || l.Obj == nil {
		return
	}
	size := l.Obj.Footprint() // a lookup may have opened a .dwo file
	l.c.mu.Lock()
	l.e.refs--
	if l.e.obj == l.Obj { // not closed by Cache.Close meanwhile
		l.c.total += size - l.e.size
		l.e.size = size
	}
	closing := l.c.evict()
	l.c.mu.Unlock()
	l.c = nil
	closeAll(closing)
}

// Get returns the module at path, opening it if it is not open: its
// object is shared with every other lease of the file. Release the lease
// when done with the object.
func (c *Cache) Get(path string) Lease {
	e := c.entryOf(path)
	c.mu.Lock()
	for e.opening != nil {
		wait := e.opening
		c.mu.Unlock()
		<-wait
		c.mu.Lock()
	}
	if e.obj != nil || e.err != nil {
		l := c.lease(e)
		c.mu.Unlock()
		return l
	}
	e.opening = make(chan struct{})
	c.mu.Unlock()

	if c.opened != nil {
		c.opened(e.path)
	}
	obj, err := c.open(e.path)
	var size int64
	if obj != nil {
		size = obj.Footprint()
	}

	c.mu.Lock()
	close(e.opening)
	e.opening = nil
	e.obj, e.err = obj, err
	if obj == nil && err == nil {
		e.err = errors.New("modcache: the opener returned nothing")
	}
	if obj != nil {
		e.elem = c.lru.PushFront(e)
		e.size = size
		c.total += size
	}
	l := c.lease(e)
	closing := c.evict()
	c.mu.Unlock()
	closeAll(closing)
	return l
}

// Resident is Get for a module whose object is open already; ok is false
// (and nothing is opened) otherwise.
func (c *Cache) Resident(path string) (l Lease, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byPath[path]
	if e == nil || e.obj == nil || e.opening != nil {
		return Lease{}, false
	}
	return c.lease(e), true
}

// lease hands out e as it stands, marking it used; c.mu is held.
func (c *Cache) lease(e *entry) Lease {
	if e.obj == nil {
		return Lease{Err: e.err}
	}
	e.refs++
	c.lru.MoveToFront(e.elem)
	return Lease{Obj: e.obj, Err: e.err, c: c, e: e}
}

// entryOf returns the entry of path's file, made on the first ask.
func (c *Cache) entryOf(path string) *entry {
	c.mu.Lock()
	e := c.byPath[path]
	c.mu.Unlock()
	if e != nil {
		return e
	}
	key := c.finder.FileKey(path) // a stat: outside the lock
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byPath[path]; e != nil {
		return e
	}
	e = c.byFile[key]
	if e == nil {
		e = &entry{path: path}
		c.byFile[key] = e
	}
	c.byPath[path] = e
	return e
}

// evict takes out of the cache the least recently used objects nobody
// holds, all but the most recently used one, while their footprints sum
// to more than max, and returns them for closing (outside the lock); c.mu
// is held.
func (c *Cache) evict() []Object {
	var closing []Object
	for el := c.lru.Back(); el != nil && el != c.lru.Front() && c.total > c.max; {
		prev := el.Prev()
		if e := el.Value.(*entry); e.refs == 0 {
			closing = append(closing, e.obj)
			c.lru.Remove(el)
			c.total -= e.size
			e.obj, e.err, e.elem, e.size = nil, nil, nil, 0
		}
		el = prev
	}
	return closing
}

func closeAll(objs []Object) {
	for _, o := range objs {
		o.Close()
	}
}

// ReleaseResident asks every open object to hand back the pages its
// lookups read at random (symbolize.Object.ReleaseResident). No lookup
// may be under way.
func (c *Cache) ReleaseResident() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Front(); el != nil; el = el.Next() {
		el.Value.(*entry).obj.ReleaseResident()
	}
}

// Close closes every object (leases still held lose theirs) and, when it
// is the Cache's own, the Finder; it returns their errors joined.
func (c *Cache) Close() error {
	c.mu.Lock()
	var errs []error
	for el := c.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*entry)
		errs = append(errs, e.obj.Close())
		e.obj, e.elem, e.size = nil, nil, 0
	}
	c.lru.Init()
	c.total = 0
	c.mu.Unlock()
	if c.ownFinder {
		errs = append(errs, c.finder.Close())
	}
	return errors.Join(errs...)
}
