package batch

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/sanitrace/sanitrace/batch/artifact"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/resolve"
)

// shippedBinary is an ELF file found among the inputs.
type shippedBinary struct {
	key     string   // resolve's key: the file path, or "archive!/member"
	logical []string // path components: the member path, or the file path
	archive string   // the archive holding it, "" for a file on disk
	data    []byte   // the bytes of an archive member
	debuginfo.Traits
	dwarf bool // has DWARF of its own (a separate debug file does)
	order int
}

// shippedIndex finds, for a module a log names, the binary that came with
// the inputs (docs/guide.md, "Binaries in the artifacts").
type shippedIndex struct {
	byBase map[string][]*shippedBinary
	byID   map[string][]*shippedBinary
	byKey  map[string]*shippedBinary
}

func newShippedIndex() *shippedIndex {
	return &shippedIndex{
		byBase: make(map[string][]*shippedBinary),
		byID:   make(map[string][]*shippedBinary),
		byKey:  make(map[string]*shippedBinary),
	}
}

// add indexes a binary entry; one that is not a usable ELF file is ignored.
// It is read as every module file is (debuginfo.Open): a header debug/elf
// refuses costs what depends on it, not the binary.
func (x *shippedIndex) add(e *artifact.Entry) {
	b := &shippedBinary{key: e.Source.String(), order: len(x.byKey)}
	if _, dup := x.byKey[b.key]; dup {
		return
	}
	var f *debuginfo.File
	var err error
	if e.File != "" {
		f, err = debuginfo.Open(e.File)
		b.key = e.File
		b.logical = splitPath(filepath.ToSlash(e.File))
	} else {
		f, err = debuginfo.OpenMemory(b.key, e.Data)
		b.data = e.Data
		b.archive = e.Source.Path
		b.logical = splitPath(e.Source.Member)
	}
	if err != nil {
		return
	}
	b.Traits, b.dwarf = debuginfo.TraitsOf(f), f.HasDWARF()
	f.Close()
	x.byKey[b.key] = b
	base := b.logical[len(b.logical)-1]
	x.byBase[base] = append(x.byBase[base], b)
	if b.BuildID != "" {
		x.byID[b.BuildID] = append(x.byID[b.BuildID], b)
	}
}

func splitPath(p string) []string {
	var out []string
	for _, el := range strings.Split(p, "/") {
		if el != "" && el != "." {
			out = append(out, el)
		}
	}
	if len(out) == 0 {
		out = []string{p}
	}
	return out
}

// find implements resolve.Options.Shipped. A printed build-id picks the
// binary with that id; otherwise the binaries of the module's base name
// compete on how many trailing path components they share with the module
// path ("/build/ci/cases/x/prog" matches "cases/x/prog" over "y/prog"), then
// on being in the log's own archive, then on how close they lie to the log,
// then on walk order.
func (x *shippedIndex) find(module, buildID, logName string) (resolve.Shipped, bool) {
	var cands []*shippedBinary
	if buildID != "" {
		cands = x.byID[strings.ToLower(buildID)]
	}
	if len(cands) == 0 {
		cands = x.byBase[path.Base(filepath.ToSlash(module))]
	}
	if len(cands) == 0 {
		return resolve.Shipped{}, false
	}
	mod := splitPath(filepath.ToSlash(module))
	logArchive, logDir := "", splitPath(filepath.ToSlash(filepath.Dir(logName)))
	if i := strings.Index(logName, "!/"); i >= 0 {
		logArchive = logName[:i]
		logDir = splitPath(path.Dir(logName[i+2:]))
	}
	var best *shippedBinary
	var bestScore [3]int
	for _, c := range cands {
		score := [3]int{suffixMatch(mod, c.logical), 0, prefixMatch(logDir, c.logical[:len(c.logical)-1])}
		if c.archive == logArchive {
			score[1] = 1
		}
		if best == nil || better(score, bestScore) || (score == bestScore && c.order < best.order) {
			best, bestScore = c, score
		}
	}
	if !best.dwarf && best.BuildID != "" {
		// A stripped binary shipped with its separate debug file (same
		// build-id, objcopy --only-keep-debug): the debug file answers for
		// it, addresses being the same.
		for _, d := range x.byID[best.BuildID] {
			if d.dwarf {
				return resolve.Shipped{Key: d.key, Traits: best.Traits}, true
			}
		}
	}
	return resolve.Shipped{Key: best.key, Traits: best.Traits}, true
}

func better(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

func suffixMatch(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

func prefixMatch(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// opener opens the run's modules for its module cache: an archive
// member from memory, any other file from disk.
func (x *shippedIndex) opener(finder *debuginfo.Finder) modcache.Opener {
	engine := modcache.Engine(finder)
	return func(path string) (modcache.Object, error) {
		if b := x.byKey[path]; b != nil && b.data != nil {
			return modcache.Memory(path, b.data, finder)
		}
		return engine(path)
	}
}
