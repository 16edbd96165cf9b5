package resolve

import (
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

// maxIndexedFiles bounds the build-id scan of the binary directories.
const maxIndexedFiles = 20000

// locator maps module names as a log prints them onto local files.
type locator struct {
	binaryDirs []string
	prefixMaps []PrefixMap
	sysroot    string
	debugDirs  []string
	shipped    func(module, buildID, logName string) (Shipped, bool)

	infos   map[string]infoResult // per candidate path: headers read once
	byID    map[string]string     // build-id -> file in the binary dirs
	indexed bool
}

type infoResult struct {
	info elfInfo
	err  error
}

// context is what a report tells about where its modules are.
type context struct {
	logName  string            // the report's input name
	logDir   string            // directory of the log file; "" for stdin
	siblings map[string]string // base name -> absolute module path printed in the same report or log
}

// located is a module found on disk.
type located struct {
	path    string // the local file
	logPath string // the absolute path the log itself uses for the module, when it printed only a base name
	info    elfInfo
}

func newLocator(o *Options) *locator {
	return &locator{
		binaryDirs: o.BinaryDirs,
		prefixMaps: o.PrefixMaps,
		sysroot:    o.Sysroot,
		debugDirs:  o.DebugFileDirectories,
		shipped:    o.Shipped,
		infos:      make(map[string]infoResult),
	}
}

// locate finds the local file for module, verifying buildID (hex, may be
// empty) when given. The error says why nothing usable was found.
func (l *locator) locate(module, buildID string, ctx context) (located, error) {
	buildID = strings.ToLower(buildID)
	name := module
	var logPath string
	if !strings.Contains(module, "/") {
		if abs, ok := ctx.siblings[module]; ok {
			name, logPath = abs, abs
		}
	}
	if loc, ok := l.fromShipped(module, name, buildID, logPath, ctx); ok {
		return loc, nil
	}
	cands := l.candidates(name, ctx)
	if name != module { // the sibling may not exist here; the base name still can
		cands = appendUnique(cands, l.candidates(module, ctx)...)
	}
	var mismatch error
	var searched []string
	for _, c := range cands {
		searched = append(searched, c)
		r := l.info(c)
		if r.err != nil {
			continue
		}
		if buildID != "" && r.info.buildID != buildID {
			if mismatch == nil {
				has := r.info.buildID
				if has == "" {
					has = "none"
				}
				mismatch = fmt.Errorf("build-id mismatch: log says %s, file has %s (%s)", buildID, has, c)
			}
			continue
		}
		return located{path: c, logPath: logPath, info: r.info}, nil
	}
	if buildID != "" {
		if p, ok := l.findBuildID(buildID); ok {
			return located{path: p, logPath: logPath, info: l.info(p).info}, nil
		}
	}
	if mismatch != nil {
		return located{}, mismatch
	}
	if len(searched) == 0 {
		return located{}, fmt.Errorf("not found (nothing to search: no --binary-dir)")
	}
	return located{}, fmt.Errorf("not found (searched %s)", strings.Join(searched, ", "))
}

// candidates lists the local paths where module may be, best first.
func (l *locator) candidates(module string, ctx context) []string {
	var c []string
	base := filepath.Base(module)
	switch {
	case filepath.IsAbs(module):
		if p, ok := Apply(l.prefixMaps, module); ok {
			c = append(c, p)
		}
		for _, d := range l.binaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if l.sysroot != "" {
			// With a sysroot, the host's own copy of a system library is
			// the wrong one, so the printed path is not tried as is.
			c = append(c, filepath.Join(l.sysroot, module))
		} else {
			c = append(c, module)
		}
		if ctx.logDir != "" {
			c = append(c, filepath.Join(ctx.logDir, base))
		}
	case strings.Contains(module, "/"): // relative to where the process ran
		if p, ok := Apply(l.prefixMaps, module); ok {
			c = append(c, p)
		}
		for _, d := range l.binaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if ctx.logDir != "" {
			c = append(c, filepath.Join(ctx.logDir, module))
		}
		c = append(c, module)
	default: // a base name only
		for _, d := range l.binaryDirs {
			c = append(c, filepath.Join(d, base))
		}
		if ctx.logDir != "" {
			c = append(c, filepath.Join(ctx.logDir, base))
		}
		if strings.Contains(base, ".so") {
			for _, d := range systemLibDirs {
				c = append(c, filepath.Join(l.sysroot, d, base))
			}
		}
	}
	return appendUnique(nil, c...)
}

func appendUnique(dst []string, add ...string) []string {
next:
	for _, a := range add {
		for _, d := range dst {
			if d == a {
				continue next
			}
		}
		dst = append(dst, a)
	}
	return dst
}

// info reads (once) the ELF headers of a candidate.
func (l *locator) info(path string) infoResult {
	if r, ok := l.infos[path]; ok {
		return r
	}
	var r infoResult
	st, err := os.Stat(path)
	switch {
	case err != nil:
		r.err = err
	case !st.Mode().IsRegular():
		r.err = fmt.Errorf("%s: not a regular file", path)
	default:
		r.info, r.err = readELFInfo(path)
	}
	l.infos[path] = r
	return r
}

// findBuildID looks a build-id up in the binary directories (indexed once,
// lazily) and in the debug-file directories' .build-id trees.
func (l *locator) findBuildID(id string) (string, bool) {
	if !l.indexed {
		l.indexed = true
		l.byID = make(map[string]string)
		n := 0
		for _, d := range l.binaryDirs {
			_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
				if err != nil || n >= maxIndexedFiles {
					return nil
				}
				if e.Type().IsRegular() {
					n++
					if r := l.info(p); r.err == nil && r.info.buildID != "" {
						if _, dup := l.byID[r.info.buildID]; !dup {
							l.byID[r.info.buildID] = p
						}
					}
				}
				return nil
			})
		}
	}
	if p, ok := l.byID[id]; ok {
		return p, true
	}
	if len(id) > 2 {
		// Distributions link the binary itself next to its .debug file.
		for _, d := range l.debugDirs {
			p := filepath.Join(d, ".build-id", id[:2], id[2:])
			if r := l.info(p); r.err == nil && r.info.buildID == id {
				return p, true
			}
		}
	}
	return "", false
}
