package dropin

import (
	"container/list"
	hexenc "encoding/hex"
	"errors"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Module is what the faces need from an opened object; *symbolize.Object
// provides it. Lookups may run concurrently (the llvm-symbolizer face
// answers buffered queries on several goroutines), so implementations must
// be safe for concurrent use.
type Module interface {
	Symbolize(addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error)
	Data(addr uint64) (symbolize.DataSymbol, bool)
	Close() error
}

// Opener opens the object at path. Tests substitute fakes.
type Opener func(path string, opts *symbolize.Options) (Module, error)

// defaultCacheSize bounds how many modules stay open at once. A sanitizer
// report names a handful; the bound only matters for long-lived pipes.
const defaultCacheSize = 64

// moduleCache opens each module once per process and keeps the most
// recently used ones open. A module that failed to open is cached too, so
// its error is reported once, as llvm-symbolizer does.
type moduleCache struct {
	open    Opener
	finder  *debuginfo.Finder  // closed with the cache
	opts    *symbolize.Options // Finder: finder
	max     int
	entries map[string]*list.Element
	lru     *list.List // of *cacheEntry, most recent first
	// quietOpen: no garbage collection while a module is opened (the
	// face sets it unless GOGC is set in the environment).
	quietOpen bool
}

type cacheEntry struct {
	path string
	mod  Module // nil when opening failed
}

func newModuleCache(open Opener, finder *debuginfo.Finder, max int) *moduleCache {
	if max <= 0 {
		max = defaultCacheSize
	}
	return &moduleCache{open: open, finder: finder, opts: &symbolize.Options{Finder: finder}, max: max, entries: map[string]*list.Element{}, lru: list.New()}
}

// get returns the module for path. err is non-nil only on the first failed
// attempt; later calls for the same path return (nil, nil).
func (c *moduleCache) get(path string) (Module, error) {
	if e, ok := c.entries[path]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*cacheEntry).mod, nil
	}
	mod, err := c.openModule(path)
	c.entries[path] = c.lru.PushFront(&cacheEntry{path: path, mod: mod})
	for c.lru.Len() > c.max {
		old := c.lru.Back()
		ent := old.Value.(*cacheEntry)
		if ent.mod != nil {
			ent.mod.Close()
		}
		delete(c.entries, ent.path)
		c.lru.Remove(old)
	}
	return mod, err
}

func (c *moduleCache) openModule(path string) (Module, error) {
	if id, ok := strings.CutPrefix(path, buildIDPrefix); ok {
		found, err := c.findBuildID(id)
		if err != nil {
			return nil, err
		}
		path = found
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
	}
	if c.quietOpen {
		// Opening builds data that stays (inflated sections, the symbol
		// table, the unit index) on every CPU: a collection finds little
		// garbage, and its stop-the-world phases wait for the inflating
		// goroutines (2-3 ms each, three times, on go-large).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	mod, err := c.open(path, c.opts)
	if err != nil {
		return nil, err
	}
	return mod, nil
}

// releaseResident asks every open module that can to hand back the pages
// its lookups read at random (symbolize.Object.ReleaseResident).
func (c *moduleCache) releaseResident() {
	for e := c.lru.Front(); e != nil; e = e.Next() {
		if r, ok := e.Value.(*cacheEntry).mod.(interface{ ReleaseResident() }); ok {
			r.ReleaseResident()
		}
	}
}

// findBuildID looks a build-id up as .build-id/xx/rest.debug under the
// debug-file directories, the file's own build-id verified.
func (c *moduleCache) findBuildID(hexID string) (string, error) {
	id, err := hexenc.DecodeString(hexID)
	if err != nil || len(id) < 2 {
		return "", &buildIDNotFound{hexID}
	}
	if p, ok := c.finder.DebugFileByID(id); ok {
		return p, nil
	}
	return "", &buildIDNotFound{hexID}
}

// buildIDNotFound is llvm-symbolizer's error for a BUILDID: query whose
// file is nowhere (LLVM prints the id in upper-case hex).
type buildIDNotFound struct{ id string }

func (e *buildIDNotFound) Error() string {
	return "could not find build ID '" + strings.ToUpper(e.id) + "'"
}

func (c *moduleCache) close() {
	for e := c.lru.Front(); e != nil; e = e.Next() {
		if m := e.Value.(*cacheEntry).mod; m != nil {
			m.Close()
		}
	}
	c.entries = map[string]*list.Element{}
	c.lru.Init()
	c.finder.Close()
}

// llvmErrorMessage renders an open error the way LLVM's error_code
// messages read: strerror text for system errors, LLVM's own text for a
// file that is not an object.
func llvmErrorMessage(path string, err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return capitalize(errno.Error())
	}
	var noID *buildIDNotFound
	if errors.As(err, &noID) {
		return noID.Error()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	if !debuginfo.IsELF(path) {
		return "The file was not recognized as a valid object file"
	}
	return err.Error()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
