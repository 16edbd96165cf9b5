package resolve

import (
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// Shipped is a module that came with the inputs (a binary inside a CI
// artifact) rather than one found by the search on disk.
type Shipped struct {
	Key string // handed to Options.Cache; names the module in warnings
	debuginfo.Traits
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
		info := s.Traits
		info.BuildID = strings.ToLower(info.BuildID)
		return located{path: s.Key, logPath: logPath, info: info}, true
	}
	return located{}, false
}
