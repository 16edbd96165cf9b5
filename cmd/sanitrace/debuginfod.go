package main

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/debuginfo/debuginfod"
)

// debuginfodFetcher returns the debuginfod client DEBUGINFOD_URLS asks for
// (read through getenv), nil when no server is set. Its warnings (a server
// that cannot be reached, a file that fails verification) go to warn.
func debuginfodFetcher(getenv func(string) string, warn *warner) debuginfo.Fetcher {
	cfg := debuginfod.ConfigFromEnv(getenv)
	c := debuginfod.New(cfg, debuginfo.ReadBuildID, warn.warn)
	if !c.Enabled() {
		return nil
	}
	return c
}

// sourcePath maps a source path as a report names it to a file to read
// (--source-context, debuginfo.Finder.SourcePath). A file found nowhere
// gets one note on stderr (once per path), so a user who asked for source
// context learns why there is none and what to pass.
func sourcePath(finder *debuginfo.Finder, warn *warner) func(string) string {
	_, servers := finder.Fetch.(debuginfo.SourceFetcher)
	var mu sync.Mutex
	noted := map[string]bool{}
	return func(p string) string {
		q, found := finder.SourcePath(p)
		if found {
			return q
		}
		mu.Lock()
		defer mu.Unlock()
		if !noted[p] {
			noted[p] = true
			where := "not found"
			if q != p {
				where = "not found (looked at " + q + ")"
			}
			if servers {
				where += " nor on the debuginfod servers"
			}
			warn.warn(fmt.Sprintf("source %s %s; try --prefix-map %s=DIR", p, where, filepath.Dir(p)))
		}
		return q
	}
}
