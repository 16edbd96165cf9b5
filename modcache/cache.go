package modcache

import (
	"container/list"
	"errors"
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
	// Max bounds the objects open at once: past it, the least recently
	// used one that nobody holds is closed, and opened again when asked
	// for. 0 means no bound.
	Max int
	// Opened, when set, is told every path the cache opens (tests count
	// them).
	Opened func(path string)
}

// A Cache opens each module file once and hands the object to every
// caller that asks for one of the file's paths. It is safe for concurrent
// use; the objects it hands out are too.
type Cache struct {
	finder    *debuginfo.Finder
	ownFinder bool
	open      Opener
	max       int
	opened    func(string)

	mu     sync.Mutex
	byPath map[string]*entry // every path asked for
	byFile map[string]*entry // by debuginfo.Finder.FileKey
	lru    list.List         // of *entry: the open objects, most recently used first
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
}

// New returns a Cache; Close it to close its objects.
func New(opts Options) *Cache {
	c := &Cache{finder: opts.Finder, open: opts.Open, max: opts.Max, opened: opts.Opened,
		byPath: make(map[string]*entry), byFile: make(map[string]*entry)}
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
	l.c.mu.Lock()
	l.e.refs--
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

	c.mu.Lock()
	close(e.opening)
	e.opening = nil
	e.obj, e.err = obj, err
	if obj == nil && err == nil {
		e.err = errors.New("modcache: the opener returned nothing")
	}
	if obj != nil {
		e.elem = c.lru.PushFront(e)
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
// holds while more than max are open, and returns them for closing
// (outside the lock); c.mu is held.
func (c *Cache) evict() []Object {
	if c.max <= 0 {
		return nil
	}
	var closing []Object
	for el := c.lru.Back(); el != nil && c.lru.Len() > c.max; {
		prev := el.Prev()
		if e := el.Value.(*entry); e.refs == 0 {
			closing = append(closing, e.obj)
			c.lru.Remove(el)
			e.obj, e.err, e.elem = nil, nil, nil
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
		e.obj, e.elem = nil, nil
	}
	c.lru.Init()
	c.mu.Unlock()
	if c.ownFinder {
		errs = append(errs, c.finder.Close())
	}
	return errors.Join(errs...)
}
