package main

import (
	"context"
	"fmt"
	"io"
	"os"
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

// sourceFetcher is a Fetcher that also serves sources (debuginfod's
// /buildid/ID/source/PATH).
type sourceFetcher interface {
	Source(ctx context.Context, id []byte, path string) (string, error)
}

// sourcePath maps a source path as a report names it to a file to read
// (--source-context): through the prefix maps when that file exists here,
// else the copy a debuginfod server has for one of the run's modules. A
// file found nowhere gets one note on stderr (once per path), so a user
// who asked for source context learns why there is none and what to pass.
func sourcePath(maps []debuginfo.PrefixMap, finder *debuginfo.Finder, stderr io.Writer) func(string) string {
	src, _ := finder.Fetch.(sourceFetcher)
	var mu sync.Mutex
	noted := map[string]bool{}
	missing := func(p, q string) {
		mu.Lock()
		defer mu.Unlock()
		if noted[p] {
			return
		}
		noted[p] = true
		where := "not found"
		if q != p {
			where = "not found (looked at " + q + ")"
		}
		if src != nil {
			where += " nor on the debuginfod servers"
		}
		fmt.Fprintf(stderr, "sanitrace: source %s %s; try --prefix-map %s=DIR\n", p, where, filepath.Dir(p))
	}
	return func(p string) string {
		q, _ := debuginfo.Apply(maps, p)
		if _, err := os.Stat(q); err == nil {
			return q
		}
		if src != nil && filepath.IsAbs(p) {
			for _, id := range finder.BuildIDs() {
				if got, err := src.Source(context.Background(), id, p); err == nil {
					return got
				}
			}
		}
		missing(p, q)
		return q
	}
}
