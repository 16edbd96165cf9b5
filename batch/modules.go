package batch

import (
	"bytes"
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/batch/artifact"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/resolve"
	"github.com/sanitrace/sanitrace/symbolize"
)

// shippedBinary is an ELF file found among the inputs.
type shippedBinary struct {
	key     string   // resolve's key: the file path, or "archive!/member"
	logical []string // path components: the member path, or the file path
	archive string   // the archive holding it, "" for a file on disk
	data    []byte   // the bytes of an archive member
	buildID string
	exec    bool
	dwarf   bool // has DWARF of its own (a separate debug file does)
	order   int
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
func (x *shippedIndex) add(e *artifact.Entry) {
	var ra io.ReaderAt
	b := &shippedBinary{key: e.Source.String(), order: len(x.byKey)}
	if _, dup := x.byKey[b.key]; dup {
		return
	}
	if e.File != "" {
		f, err := os.Open(e.File)
		if err != nil {
			return
		}
		defer f.Close()
		ra = f
		b.key = e.File
		b.logical = splitPath(filepath.ToSlash(e.File))
	} else {
		ra = bytes.NewReader(e.Data)
		b.data = e.Data
		b.archive = e.Source.Path
		b.logical = splitPath(e.Source.Member)
	}
	id, exec, dwarf, err := elfIdentity(ra)
	if err != nil {
		return
	}
	b.buildID, b.exec, b.dwarf = id, exec, dwarf
	x.byKey[b.key] = b
	base := b.logical[len(b.logical)-1]
	x.byBase[base] = append(x.byBase[base], b)
	if id != "" {
		x.byID[id] = append(x.byID[id], b)
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

// elfIdentity reads the GNU build-id, the type and whether there is DWARF;
// debug/elf may panic on adversarial headers, which makes the file
// unusable, not the run.
func elfIdentity(ra io.ReaderAt) (id string, exec, dwarf bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt ELF: %v", p)
		}
	}()
	f, err := elf.NewFile(ra)
	if err != nil {
		return "", false, false, err
	}
	for _, n := range []string{".debug_info", ".zdebug_info"} {
		if s := f.Section(n); s != nil && s.Type != elf.SHT_NOBITS && s.Size > 0 {
			dwarf = true
		}
	}
	return hex.EncodeToString(debuginfo.BuildID(f)), f.Type == elf.ET_EXEC, dwarf, nil
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
	if !best.dwarf && best.buildID != "" {
		// A stripped binary shipped with its separate debug file (same
		// build-id, objcopy --only-keep-debug): the debug file answers for
		// it, addresses being the same.
		for _, d := range x.byID[best.buildID] {
			if d.dwarf {
				return resolve.Shipped{Key: d.key, BuildID: best.buildID, Exec: best.exec}, true
			}
		}
	}
	return resolve.Shipped{Key: best.key, BuildID: best.buildID, Exec: best.exec}, true
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

// moduleCache opens each module once per run for every worker. The
// workers' resolvers get the objects themselves (with every optional method
// the resolver looks for) and are never closed: the cache closes the
// objects at the end. symbolize.Object is safe for concurrent use.
type moduleCache struct {
	open    resolve.Opener
	shipped *shippedIndex
	opts    *symbolize.Options
	opened  func(key string) // nil, or told of each open

	mu      sync.Mutex
	modules map[string]*cachedModule
}

type cachedModule struct {
	once sync.Once
	obj  resolve.Object
	err  error
}

func newModuleCache(open resolve.Opener, shipped *shippedIndex, opts *symbolize.Options) *moduleCache {
	c := &moduleCache{open: open, shipped: shipped, opts: opts, modules: make(map[string]*cachedModule)}
	if c.open == nil {
		c.open = c.engine
	}
	return c
}

// engine opens a module with sanitrace's symbolizer: an archive member from
// memory, any other key from disk.
func (c *moduleCache) engine(key string) (resolve.Object, error) {
	b := c.shipped.byKey[key]
	if b == nil || b.data == nil {
		return resolve.EngineOpener(c.opts)(key)
	}
	o, err := symbolize.OpenMemory(key, b.data, c.opts)
	if errors.Is(err, symbolize.ErrNoDebugInfo) {
		if o != nil {
			o.Close()
		}
		return nil, fmt.Errorf("no debug info (%s has neither DWARF nor a symbol table)", key)
	}
	if o == nil {
		return nil, err
	}
	if err == nil {
		err = o.Damage() // a warning: the rest of the file answers
	}
	return o, err
}

// Open is the workers' resolve.Opener.
func (c *moduleCache) Open(key string) (resolve.Object, error) {
	c.mu.Lock()
	m, ok := c.modules[key]
	if !ok {
		m = &cachedModule{}
		c.modules[key] = m
	}
	c.mu.Unlock()
	m.once.Do(func() {
		if c.opened != nil {
			c.opened(key)
		}
		m.obj, m.err = c.open(key)
	})
	return m.obj, m.err
}

// Close closes every module opened and returns their errors joined.
func (c *moduleCache) Close() error {
	var errs []error
	for _, m := range c.modules {
		if m.obj != nil {
			errs = append(errs, m.obj.Close())
		}
	}
	return errors.Join(errs...)
}
