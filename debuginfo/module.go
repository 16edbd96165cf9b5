package debuginfo

import (
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// systemLibDirs are searched (under the sysroot) for shared libraries that
// a log names by base name only, as ThreadSanitizer does.
var systemLibDirs = []string{
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
}

// hostLibDirs hold this machine's own shared libraries: a module found
// there without a sysroot is the host's copy, not necessarily the crashed
// machine's.
var hostLibDirs = []string{
	"/lib/", "/lib32/", "/lib64/", "/libx32/",
	"/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libx32/", "/usr/local/lib/",
}

// HostLibrary reports whether path, a module file the Finder chose, is
// this machine's copy of a system library: no --sysroot stands in for the
// crashed machine's root and the file lies in a system library directory.
// Without a build-id from the log nothing says it is the build that ran.
func (f *Finder) HostLibrary(path string) bool {
	if f.Sysroot != "" || !filepath.IsAbs(path) {
		return false
	}
	path = filepath.Clean(path)
	for _, d := range hostLibDirs {
		if strings.HasPrefix(path, d) {
			return true
		}
	}
	return false
}

// maxIndexedFiles bounds the build-id scan of the binary directories.
const maxIndexedFiles = 20000

// A Query names a module the way a log or a core does.
type Query struct {
	// Name is the module as printed: an absolute path, a path relative to
	// where the process ran, or a base name.
	Name string
	// Also, when set, is another name of it tried first: the absolute
	// path a log printed for a module it names elsewhere by base name.
	Also string
	// BuildID (hex, any case), when given, must be the file's.
	BuildID string
	// LogDir is the directory of the log; "" for stdin.
	LogDir string
}

// A Module is a module file found for a Query.
type Module struct {
	Path string // the local file; Open hands over the File the search opened
	Traits
}

// Traits is what placing a module's addresses needs to know of its file,
// wherever it was found (a search on disk, a CI artifact).
type Traits struct {
	BuildID string // lower-case hex; "" when the file has none
	Exec    bool   // ET_EXEC: addresses are absolute, the module offset is the pc
	PIE     bool   // a position-independent executable (File.PIE)
}

// TraitsOf returns f's Traits.
func TraitsOf(f *File) Traits {
	return Traits{BuildID: hex.EncodeToString(f.BuildID), Exec: f.Exec(), PIE: f.PIE()}
}

// Module finds the local file for q: its candidates in order (Candidates),
// then by build-id in the binary directories and the debug-file
// directories' .build-id trees, then through the Fetcher. The error says
// why nothing usable was found.
func (f *Finder) Module(q Query) (Module, error) {
	buildID := strings.ToLower(q.BuildID)
	var cands []string
	if q.Also != "" {
		// The other name may not exist here; the printed one still can.
		cands = f.Candidates(q.Also, q.LogDir)
	}
	cands = appendUnique(cands, f.Candidates(q.Name, q.LogDir)...)
	var mismatch, unreadable error
	for _, c := range cands {
		p, ok := f.look(c, buildID, true)
		if ok {
			return Module{Path: c, Traits: p.Traits}, nil
		}
		switch {
		case p.err == nil && mismatch == nil:
			mismatch = fmt.Errorf("build-id mismatch: log says %s, file has %s (%s)", buildID, orNone(p.BuildID), c)
		case p.err != nil && unreadable == nil && p.opened:
			// There, but not an ELF file that can be read: say so
			// rather than "not found".
			unreadable = fmt.Errorf("found %s but unreadable: %v", c, p.err)
		}
	}
	if buildID != "" {
		if m, ok := f.moduleByID(buildID); ok {
			return m, nil
		}
	}
	if mismatch != nil {
		return Module{}, mismatch
	}
	if unreadable != nil {
		return Module{}, unreadable
	}
	if len(cands) == 0 {
		return Module{}, fmt.Errorf("not found (nothing to search: no --binary-dir)")
	}
	return Module{}, fmt.Errorf("not found (searched %s)", strings.Join(cands, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Candidates lists the local paths where the module printed as name may
// be, best first: for an absolute path, the prefix-mapped path, each
// binary directory's file of that base name, the path under the sysroot
// (as printed without one), the log's directory; for a relative path, the
// prefix-mapped path, the binary directories, the path under the log's
// directory and as given; for a base name, the binary directories, the
// log's directory and, for a shared library, the system library
// directories under the sysroot.
func (f *Finder) Candidates(name, logDir string) []string {
	var c []string
	base := filepath.Base(name)
	switch {
	case filepath.IsAbs(name):
		if p, ok := Apply(f.PrefixMaps, name); ok {
			c = append(c, p)
		}
		for _, d := range f.BinaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if f.Sysroot != "" {
			// With a sysroot, the host's own copy of a system library is
			// the wrong one, so the printed path is not tried as is.
			c = append(c, filepath.Join(f.Sysroot, name))
		} else {
			c = append(c, name)
		}
		if logDir != "" {
			c = append(c, filepath.Join(logDir, base))
		}
	case strings.Contains(name, "/"): // relative to where the process ran
		if p, ok := Apply(f.PrefixMaps, name); ok {
			c = append(c, p)
		}
		for _, d := range f.BinaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if logDir != "" {
			c = append(c, filepath.Join(logDir, name))
		}
		c = append(c, name)
	default: // a base name only
		for _, d := range f.BinaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if logDir != "" {
			c = append(c, filepath.Join(logDir, base))
		}
		if strings.Contains(base, ".so") {
			for _, d := range systemLibDirs {
				c = append(c, filepath.Join(f.Sysroot, d, base))
			}
		}
	}
	return appendUnique(nil, c...)
}

// moduleByID looks a build-id (lower-case hex) up in the binary
// directories (indexed once, lazily), in the debug-file directories'
// .build-id trees, where distributions link the binary itself next to its
// .debug file, and through the Fetcher.
func (f *Finder) moduleByID(id string) (Module, bool) {
	f.indexOnce.Do(func() { f.index(id) })
	f.mu.Lock()
	p, ok := f.byID[id]
	f.mu.Unlock()
	if ok {
		pr, _ := f.look(p, id, true)
		if pr.file == nil {
			// Read by the index for another build-id: open it again.
			if file, err := Open(p); err == nil {
				f.Keep(file)
			}
		}
		return Module{Path: p, Traits: pr.Traits}, true
	}
	if len(id) > 2 {
		// The binary where distributions link it next to its debug
		// file, else the debug file alone: its symbol table and DWARF
		// answer for the module, as llvm-symbolizer's lookup by build-id
		// does (a symbolizer-markup log names modules by build-id only).
		for _, suffix := range []string{"", ".debug"} {
			for _, d := range f.debugDirs() {
				p := filepath.Join(d, ".build-id", id[:2], id[2:]+suffix)
				if pr, ok := f.look(p, id, true); ok {
					return Module{Path: p, Traits: pr.Traits}, true
				}
			}
		}
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return Module{}, false
	}
	file, err := f.fetch(raw, true)
	if err != nil {
		if file, err = f.fetch(raw, false); err != nil {
			return Module{}, false
		}
	}
	f.Keep(file)
	return Module{Path: file.Path, Traits: Traits{BuildID: id, Exec: file.Exec(), PIE: file.PIE()}}, true
}

// Keep hands file, opened outside a search, to the next Open of its path,
// as if a search had chosen it.
func (f *Finder) Keep(file *File) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.probes == nil {
		f.probes = make(map[string]*probe)
	}
	p := f.probes[file.Path]
	if p == nil {
		p = &probe{Traits: TraitsOf(file)}
		f.probes[file.Path] = p
	}
	if p.file != nil {
		p.file.Close()
	}
	p.file = file
}

// index reads the build-ids of the files under the binary directories (at
// most maxIndexedFiles). The first file with build-id want stays open for
// the next Open; the others are closed once read.
func (f *Finder) index(want string) {
	byID := make(map[string]string)
	n := 0
	for _, d := range f.BinaryDirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || n >= maxIndexedFiles {
				return nil
			}
			if e.Type().IsRegular() {
				n++
				_, seen := byID[want]
				if pr, _ := f.look(p, want, !seen); pr.err == nil && pr.BuildID != "" {
					if _, dup := byID[pr.BuildID]; !dup {
						byID[pr.BuildID] = p
					}
				}
			}
			return nil
		})
	}
	f.mu.Lock()
	f.byID = byID
	f.mu.Unlock()
}

// KernelModule finds the kernel module printed as name (NAME.ko) under
// dir; the kernel prints module names with '_' where the file may have '-'.
func KernelModule(dir, name string) (string, error) {
	want := strings.ReplaceAll(name, "-", "_")
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" {
			return nil
		}
		stem, ok := strings.CutSuffix(d.Name(), ".ko")
		if !ok {
			return nil
		}
		if strings.ReplaceAll(stem, "-", "_") == want {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if found == "" {
		return "", fmt.Errorf("no %s.ko under %s", name, dir)
	}
	if _, err := os.Stat(found); err != nil {
		return "", err
	}
	return found, nil
}
