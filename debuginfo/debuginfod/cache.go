package debuginfod

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// control reads a control file of the cache (a decimal count of seconds),
// def when it is missing or unreadable. A missing one is created with def,
// as libdebuginfod creates each when it first needs it (the clock on first
// use, max_unused_age_s in a cleaning round, cache_miss_s when a recorded
// miss is consulted), so a user finds the knob where elfutils documents it.
func (c *Client) control(name string, def time.Duration) time.Duration {
	p := filepath.Join(c.cfg.CachePath, name)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		writeFileAtomic(p, strconv.FormatInt(int64(def/time.Second), 10))
		return def
	}
	if err != nil {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n < 0 {
		return def
	}
	return time.Duration(n) * time.Second
}

// cleanCache runs elfutils' cleaning round when it is due: the cache's
// cache_clean_interval_s file (created with the default when missing) is
// the clock, its mtime the last round. A round removes downloaded files and
// recorded misses not accessed for max_unused_age_s, then the build-id
// directories left empty, and touches the clock. Errors only mean the
// cache stays as it was.
func (c *Client) cleanCache() {
	root := c.cfg.CachePath
	if err := os.MkdirAll(root, 0o755); err != nil {
		return
	}
	clock := filepath.Join(root, cleanIntervalFile)
	fi, err := os.Stat(clock)
	if err != nil {
		// First use of this cache: start the clock, nothing to clean yet.
		writeFileAtomic(clock, strconv.FormatInt(int64(defaultCleanInterval/time.Second), 10))
		return
	}
	now := c.now()
	if now.Sub(fi.ModTime()) < c.control(cleanIntervalFile, defaultCleanInterval) {
		return
	}
	maxAge := c.control(maxUnusedAgeFile, defaultMaxUnusedAge)
	dirs, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue // control files
		}
		dir := filepath.Join(root, d.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range files {
			fi, err := f.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if now.Sub(accessTime(fi)) >= maxAge {
				os.Remove(filepath.Join(dir, f.Name()))
			}
		}
		os.Remove(dir) // fails unless empty
	}
	os.Chtimes(clock, now, now)
}

// touch marks a cache hit as used, so cleaning keeps what is still read
// (relatime mounts would otherwise leave the access time days old).
func touch(path string, fi os.FileInfo, now time.Time) {
	os.Chtimes(path, now, fi.ModTime())
}

// writeFileAtomic writes a small file through a temporary name and a rename.
func writeFileAtomic(path, content string) {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-control-*")
	if err != nil {
		return
	}
	_, werr := f.WriteString(content)
	if err := f.Close(); werr != nil || err != nil {
		os.Remove(f.Name())
		return
	}
	os.Chmod(f.Name(), 0o644)
	if os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}
