package dwarf

import "sync"

// pathCache interns the file names line tables join (joinFileNames): the
// units of a Go binary name the same files over and over (go-large's 650
// tables name 44,000 files, 2,450 of them distinct: the runtime's and the
// standard library's, inlined everywhere), and each table kept its own
// copy of every path for the whole session. One per object; the zero
// value is ready.
type pathCache struct {
	mu    sync.Mutex
	paths map[string][2]string // pathKey → full path, --relativenames form
	key   []byte               // pathKey's buffer, under mu
}

// joinAll sets files[i] and rel[i] to joinFileNames of each valid raw[i],
// each a string shared with every table that names the same file.
func (c *pathCache) joinAll(version int, compDir string, dirs []string, raw []rawFile, files, rel []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paths == nil {
		c.paths = map[string][2]string{}
	}
	for i, f := range raw {
		if !f.valid {
			continue
		}
		// What joinFileNames reads of its arguments: the compilation
		// directory, the directory before the name with and without
		// directory 0, and the name. NUL ends each: no C string holds one.
		dir, relDir := includeDirOf(version, dirs, f, false), includeDirOf(version, dirs, f, true)
		k := append(c.key[:0], compDir...)
		k = append(append(k, 0), dir...)
		k = append(append(k, 0), relDir...)
		k = append(append(k, 0), f.name...)
		c.key = k
		p, ok := c.paths[string(k)]
		if !ok {
			p[0], p[1] = joinFileNames(version, compDir, dirs, f)
			c.paths[string(k)] = p
		}
		files[i], rel[i] = p[0], p[1]
	}
}
