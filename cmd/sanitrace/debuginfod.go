package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/debuginfo/debuginfod"
)

// debuginfodFetcher returns the debuginfod client DEBUGINFOD_URLS asks for
// (read through getenv), nil when no server is set. Its warnings (a server
// that cannot be reached, a file that fails verification) go to stderr, one
// line each.
func debuginfodFetcher(getenv func(string) string, stderr io.Writer) debuginfo.Fetcher {
	cfg := debuginfod.ConfigFromEnv(getenv)
	c := debuginfod.New(cfg, debuginfo.ReadBuildID, warnLines(stderr))
	if !c.Enabled() {
		return nil
	}
	return c
}

// warnLines writes each message as one "sanitrace: " line; downloads run
// concurrently, so the writes are serialized.
func warnLines(w io.Writer) func(string) {
	var mu sync.Mutex
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "sanitrace: %s\n", msg)
	}
}

// sourcePath maps a source path as a report names it to a file to read
// (--source-context, debuginfo.Finder.SourcePath). A file found nowhere
// gets one note on stderr (once per path), so a user who asked for source
// context learns why there is none and what to pass.
func sourcePath(finder *debuginfo.Finder, stderr io.Writer) func(string) string {
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
			fmt.Fprintf(stderr, "sanitrace: source %s %s; try --prefix-map %s=DIR\n", p, where, filepath.Dir(p))
		}
		return q
	}
}
