package debuginfo

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// ErrNotFound is wrapped by the errors of searches that found nothing.
var ErrNotFound = errors.New("not found")

// A Fetcher gets files by GNU build-id from elsewhere (a debuginfod
// server) once the local rules have found nothing; it returns the path of
// a local copy. *debuginfod.Client is one.
type Fetcher interface {
	Debuginfo(ctx context.Context, id []byte) (string, error)
	Executable(ctx context.Context, id []byte) (string, error)
}

// A Finder finds modules and their debug files. Set its fields before the
// first search; its methods are then safe for concurrent use. Close it to
// release the files it opened that nobody took.
type Finder struct {
	BinaryDirs []string    // searched by base name, then by build-id
	PrefixMaps []PrefixMap // applied to module paths
	Sysroot    string      // prefix for absolute system-library paths
	// DebugDirs are the debug-file directories, searched for
	// .build-id/xx/rest(.debug) files and .gnu_debuglink targets. nil
	// means DefaultDebugDir (under Sysroot when one is set, as gdb does);
	// an empty non-nil list means none.
	DebugDirs []string
	// FallbackDebugPath, when set, is searched for .gnu_debuglink targets
	// as <FallbackDebugPath>/<absolute dir of the binary>/<name>, after the
	// binary's own directories (llvm-symbolizer's --fallback-debug-path).
	FallbackDebugPath string
	// DWPPath is the DWARF package holding split units (llvm-symbolizer's
	// --dwp); "" means <debug file>.dwp.
	DWPPath string
	// Fetch, when set, is asked by build-id after the local rules.
	Fetch Fetcher

	mu        sync.Mutex
	probes    map[string]*probe // per path: headers read once
	byFile    map[string]*probe // per file identity (identityOf): one probe for every path of a file
	indexOnce sync.Once         // of byID, on the first search by build-id
	byID      map[string]string // build-id -> file in the binary dirs
}

// probe is what a search learnt about one path.
type probe struct {
	Traits
	err    error
	opened bool   // a regular file was there; err is then why it cannot be read
	id     string // the file's identity (identityOf); "" when unknown
	// file is the File opened for the probe when a search chose it,
	// waiting for the next Open of the path.
	file *File
}

// debugDirs returns the debug-file directories in effect.
func (f *Finder) debugDirs() []string {
	if f.DebugDirs != nil {
		return f.DebugDirs
	}
	if f.Sysroot != "" {
		return []string{f.Sysroot + DefaultDebugDir}
	}
	return []string{DefaultDebugDir}
}

// Open opens the ELF file at path: the File a search opened when it chose
// that path, or a fresh one. The caller owns it.
func (f *Finder) Open(path string) (*File, error) {
	f.mu.Lock()
	// A probe shared by two paths of one file holds the File opened under
	// the first: the other path opens its own.
	if p := f.probes[path]; p != nil && p.file != nil && p.file.Path == path {
		file := p.file
		p.file = nil
		f.mu.Unlock()
		return file, nil
	}
	f.mu.Unlock()
	return Open(path)
}

// Close closes the files searches chose that nobody opened and returns
// their errors joined.
func (f *Finder) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for _, p := range f.probes {
		if p.file != nil {
			errs = append(errs, p.file.Close())
			p.file = nil
		}
	}
	return errors.Join(errs...)
}

// look reads (once) the headers of the file at path and reports whether
// it is usable and has build-id want (hex; "" accepts any). When keep and
// it is, its File stays open for the next Open.
func (f *Finder) look(path, want string, keep bool) (*probe, bool) {
	f.mu.Lock()
	p, ok := f.probes[path]
	f.mu.Unlock()
	if !ok {
		p = &probe{}
		var file *File
		st, err := os.Stat(path)
		if err == nil && st.Mode().IsRegular() {
			p.id, _ = identityOf(st)
			// Another path of a file already probed: its probe (and
			// the File it may hold) is this path's too, so the file
			// is read once per run.
			f.mu.Lock()
			q := f.byFile[p.id]
			if q != nil && p.id != "" {
				f.addProbe(path, q)
				f.mu.Unlock()
				return q, q.err == nil && (want == "" || q.BuildID == want)
			}
			f.mu.Unlock()
		}
		switch {
		case err != nil:
			p.err = err
		case !st.Mode().IsRegular():
			p.err = fmt.Errorf("%s: not a regular file", path)
		default:
			p.opened = true
			file, p.err = Open(path)
		}
		if file != nil {
			p.Traits = TraitsOf(file)
		}
		match := p.err == nil && (want == "" || p.BuildID == want)
		if keep && match {
			p.file = file
		} else {
			file.Close()
		}
		f.mu.Lock()
		if q, raced := f.probes[path]; raced {
			p.file.Close()
			p = q
		} else if q := f.byFile[p.id]; q != nil && p.id != "" {
			p.file.Close()
			p = q
			f.addProbe(path, p)
		} else {
			f.addProbe(path, p)
		}
		f.mu.Unlock()
	}
	return p, p.err == nil && (want == "" || p.BuildID == want)
}

// addProbe records p as path's probe, and as its file's; f.mu is held.
func (f *Finder) addProbe(path string, p *probe) {
	if f.probes == nil {
		f.probes = make(map[string]*probe)
	}
	f.probes[path] = p
	if p.id != "" && f.byFile[p.id] == nil {
		if f.byFile == nil {
			f.byFile = make(map[string]*probe)
		}
		f.byFile[p.id] = p
	}
}

// FileKey names the file at path: the same for every path of one file
// (its device and inode, as a search learnt it or from the file itself),
// so a caller keeping one object per file opens it once; path itself when
// there is no file there or no identity on this system (a label of a
// file held in memory).
func (f *Finder) FileKey(path string) string {
	f.mu.Lock()
	p := f.probes[path]
	f.mu.Unlock()
	if p != nil && p.id != "" {
		return fileKey(p.id)
	}
	if st, err := os.Stat(path); err == nil {
		if id, ok := identityOf(st); ok {
			return fileKey(id)
		}
	}
	return path
}

func fileKey(id string) string { return "\x00file:" + id }

// BuildIDs returns the distinct GNU build-ids of the files the searches so
// far have read, sorted: the modules of a run, for asking a debuginfod
// server for their sources.
func (f *Finder) BuildIDs() [][]byte {
	f.mu.Lock()
	seen := make(map[string]bool)
	for _, p := range f.probes {
		if p.err == nil && p.BuildID != "" {
			seen[p.BuildID] = true
		}
	}
	f.mu.Unlock()
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([][]byte, 0, len(ids))
	for _, id := range ids {
		if raw, err := hex.DecodeString(id); err == nil {
			out = append(out, raw)
		}
	}
	return out
}

// A SourceFetcher is a Fetcher that also serves sources by build-id
// (debuginfod's /buildid/ID/source/PATH).
type SourceFetcher interface {
	Source(ctx context.Context, id []byte, path string) (string, error)
}

// SourcePath maps a source path as a report names it to a file to read
// (--source-context): through the prefix maps when that file exists here,
// else the copy the Fetcher (a SourceFetcher) has for one of the modules
// the run has read. found is false when neither has it; path is then the
// mapped path.
func (f *Finder) SourcePath(p string) (path string, found bool) {
	q, _ := Apply(f.PrefixMaps, p)
	if _, err := os.Stat(q); err == nil {
		return q, true
	}
	if src, ok := f.Fetch.(SourceFetcher); ok && filepath.IsAbs(p) {
		for _, id := range f.BuildIDs() {
			if got, err := src.Source(context.Background(), id, p); err == nil {
				return got, true
			}
		}
	}
	return q, false
}

// fetch asks the Fetcher for the file with build-id id.
func (f *Finder) fetch(id []byte, executable bool) (*File, error) {
	if f.Fetch == nil || len(id) == 0 {
		return nil, ErrNotFound
	}
	get := f.Fetch.Debuginfo
	if executable {
		get = f.Fetch.Executable
	}
	path, err := get(fetchContext(), id)
	if err != nil {
		return nil, err
	}
	return Open(path)
}

// fetchContext is the context of a fetch: the Fetcher bounds its own
// time (debuginfod's DEBUGINFOD_TIMEOUT and MAXTIME).
func fetchContext() context.Context { return context.Background() }

func appendUnique(dst []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(dst, a) {
			dst = append(dst, a)
		}
	}
	return dst
}
