package dropin

import (
	hexenc "encoding/hex"
	"errors"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Opener opens the module at path, its debug files found by finder
// (OpenEngine). Tests substitute fakes.
type Opener func(path string, finder *debuginfo.Finder) (modcache.Object, error)

// OpenEngine opens path with the symbolize engine; it is the Opener the
// commands use.
func OpenEngine(path string, finder *debuginfo.Finder) (modcache.Object, error) {
	return modcache.Engine(finder)(path)
}

// modules are the modules a session's queries name, as llvm-symbolizer
// keeps them: each opened once (the objects are modcache's, their
// footprints bounded by --cache-size: maxBytes), a module that failed to
// open reported once per name.
type modules struct {
	cache    *modcache.Cache
	finder   *debuginfo.Finder // closed with the modules
	byID     map[string]idPath // BUILDID: queries, looked up once
	reported map[string]bool   // names whose open error was reported
	// quietOpen: no garbage collection while a module is opened (the
	// face sets it unless GOGC is set in the environment).
	quietOpen bool
}

// idPath is where a BUILDID: query's file is, or why it is nowhere.
type idPath struct {
	path string
	err  error
}

func newModules(open Opener, finder *debuginfo.Finder, maxBytes int64) *modules {
	m := &modules{finder: finder, byID: map[string]idPath{}, reported: map[string]bool{}}
	m.cache = modcache.New(modcache.Options{Finder: finder, MaxBytes: maxBytes, Open: func(path string) (modcache.Object, error) {
		return m.open(open, path)
	}})
	return m
}

// get returns the module a query names (a path, or "BUILDID:<hex>") to
// use until the lease is released; its Obj is nil when it cannot be
// opened. err is why, on the first query for that name only.
func (m *modules) get(name string) (modcache.Lease, error) {
	path, err := m.path(name)
	var l modcache.Lease
	if err == nil {
		l = m.cache.Get(path)
		err = l.Err
	}
	if l.Obj != nil || m.reported[name] {
		return l, nil
	}
	if bare(err) {
		return l, nil
	}
	m.reported[name] = true
	return l, err
}

// resident is get for a module that is open already; ok is false (and
// nothing is opened or looked up) otherwise.
func (m *modules) resident(name string) (modcache.Lease, bool) {
	path := name
	if id, ok := strings.CutPrefix(name, buildIDPrefix); ok {
		p, found := m.byID[id]
		if !found || p.err != nil {
			return modcache.Lease{}, false
		}
		path = p.path
	}
	return m.cache.Resident(path)
}

// path is the file a query's module name stands for.
func (m *modules) path(name string) (string, error) {
	id, ok := strings.CutPrefix(name, buildIDPrefix)
	if !ok {
		return name, nil
	}
	p, found := m.byID[id]
	if !found {
		p.path, p.err = m.findBuildID(id)
		m.byID[id] = p
	}
	return p.path, p.err
}

// open opens the module file at path with open, refusing what is no
// regular file with the error llvm-symbolizer names.
func (m *modules) open(open Opener, path string) (modcache.Object, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
	}
	if m.quietOpen {
		// Opening builds data that stays (inflated sections, the symbol
		// table, the unit index) on every CPU: a collection finds little
		// garbage, and its stop-the-world phases wait for the inflating
		// goroutines (2-3 ms each, three times, on go-large).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	return open(path, m.finder)
}

// releaseResident asks every open module to hand back the pages its
// lookups read at random (symbolize.Object.ReleaseResident).
func (m *modules) releaseResident() { m.cache.ReleaseResident() }

// findBuildID looks a build-id up as .build-id/xx/rest.debug under the
// debug-file directories, the file's own build-id verified.
func (m *modules) findBuildID(hexID string) (string, error) {
	id, err := hexenc.DecodeString(hexID)
	if err != nil || len(id) < 2 {
		return "", &buildIDNotFound{hexID}
	}
	if p, ok := m.finder.DebugFileByID(id); ok {
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

func (m *modules) close() {
	m.cache.Close()
	m.finder.Close()
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

// bare reports whether err says only that a file holds nothing to answer
// from (neither DWARF nor symbols, nothing damaged): llvm-symbolizer,
// addr2line and eu-addr2line answer ?? for such a file and say nothing on
// stderr. A file whose tables are damaged is still named, with why.
func bare(err error) bool {
	var d *symbolize.DamageError
	return errors.Is(err, symbolize.ErrNoDebugInfo) && !errors.As(err, &d)
}
