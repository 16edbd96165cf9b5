package resolve

import (
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// locator maps module names as a log prints them onto modules: the
// inputs' own binaries (Options.Shipped) first, then files the Finder
// finds.
type locator struct {
	finder  *debuginfo.Finder
	shipped func(module, buildID, logName string) (Shipped, bool)
}

// context is what a report tells about where its modules are.
type context struct {
	logName  string            // the report's input name
	logDir   string            // directory of the log file; "" for stdin
	siblings map[string]string // base name -> absolute module path printed in the same report or log
}

// located is a module found.
type located struct {
	path    string // the local file, or a Shipped key
	logPath string // the absolute path the log itself uses for the module, when it printed only a base name
	info    debuginfo.Traits
}

// locate finds module, verifying buildID (hex, may be empty) when given.
// The error says why nothing usable was found.
func (l *locator) locate(module, buildID string, ctx context) (located, error) {
	buildID = strings.ToLower(buildID)
	q := debuginfo.Query{Name: module, BuildID: buildID, LogDir: ctx.logDir}
	name := module
	var logPath string
	if !strings.Contains(module, "/") {
		if abs, ok := ctx.siblings[module]; ok {
			name, logPath, q.Also = abs, abs, abs
		}
	}
	if loc, ok := l.fromShipped(module, name, buildID, logPath, ctx); ok {
		return loc, nil
	}
	m, err := l.finder.Module(q)
	if err != nil {
		return located{}, err
	}
	return located{path: m.Path, logPath: logPath, info: m.Traits}, nil
}
