package symbolize

import (
	"github.com/sanitrace/sanitrace/debuginfo"
)

// noDebugDirs is Options under which no debug-file directory is searched,
// so answers do not depend on what the machine has installed.
func noDebugDirs() *Options {
	return &Options{Finder: &debuginfo.Finder{DebugDirs: []string{}}}
}
