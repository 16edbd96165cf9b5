package main

import (
	"fmt"
	"io"
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
