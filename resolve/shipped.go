package resolve

import "strings"

// Shipped is a module that came with the inputs (a binary inside a CI
// artifact) rather than one found by the search on disk.
type Shipped struct {
	Key     string // handed to Options.Cache; names the module in warnings
	BuildID string // lower-case hex; "" when the binary has none
	Exec    bool   // ET_EXEC: the module offset is the pc
	PIE     bool   // a position-independent executable (debuginfo.File.PIE)
}

// fromShipped asks Options.Shipped for module (and for its sibling path
// name when the log printed a base name only). A build-id the log printed
// must match the shipped binary's.
func (l *locator) fromShipped(module, name, buildID, logPath string, ctx context) (located, bool) {
	if l.shipped == nil {
		return located{}, false
	}
	names := []string{name}
	if module != name {
		names = append(names, module)
	}
	for _, m := range names {
		s, ok := l.shipped(m, buildID, ctx.logName)
		if !ok || (buildID != "" && strings.ToLower(s.BuildID) != buildID) {
			continue
		}
		return located{path: s.Key, logPath: logPath, info: elfInfo{buildID: strings.ToLower(s.BuildID), exec: s.Exec, pie: s.PIE}}, true
	}
	return located{}, false
}
