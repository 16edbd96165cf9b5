// Package debuginfod fetches debug files, executables and sources by GNU
// build-id from debuginfod servers (elfutils' HTTP protocol:
// /buildid/ID/debuginfo, /executable, /source/PATH) into the client cache
// that elfutils' own tools, gdb and llvm-symbolizer share.
//
// A Client is configured like libdebuginfod (DEBUGINFOD_URLS,
// DEBUGINFOD_CACHE_PATH, DEBUGINFOD_TIMEOUT, DEBUGINFOD_MAXTIME,
// DEBUGINFOD_MAXSIZE), keeps the cache as elfutils does (one directory per
// build-id, negative entries for misses, cache_clean_interval_s,
// max_unused_age_s, cache_miss_s) and asks every server at once, taking the
// first answer that verifies. Downloaded ELF files must carry the requested
// build-id before they enter the cache; files are written to a temporary
// name and renamed, so a reader never sees half a file. A server that
// refuses, stalls or fails is reported once per run on the warning callback
// and not asked again in that run, so a dead server costs one line and at
// most one timeout.
package debuginfod

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrNotFound is wrapped by the errors of lookups no server could answer.
var ErrNotFound = errors.New("not found on any debuginfod server")

// Defaults documented by elfutils (debuginfod-client-config(7)).
const (
	DefaultTimeout       = 90 * time.Second
	defaultCleanInterval = 86400 * time.Second
	defaultMaxUnusedAge  = 604800 * time.Second
	defaultCacheMiss     = 600 * time.Second
	// progressBytes is what a server must deliver within the timeout
	// (elfutils: "at least 100K of data within this many seconds").
	progressBytes = 100 << 10
)

// Control files directly under the cache directory.
const (
	cleanIntervalFile = "cache_clean_interval_s"
	maxUnusedAgeFile  = "max_unused_age_s"
	cacheMissFile     = "cache_miss_s"
)

// Config says where to ask and where to cache.
type Config struct {
	URLs      []string      // server URL prefixes, tried concurrently
	CachePath string        // cache directory
	Timeout   time.Duration // a server must deliver 100 KiB (or the whole file) within this; 0: no limit
	MaxTime   time.Duration // a whole download must finish within this; 0: no limit
	MaxSize   int64         // larger files are refused; 0: no limit
}

// ConfigFromEnv reads the DEBUGINFOD_* variables through getenv (os.Getenv
// in production) the way libdebuginfod does. Unparsable numbers keep the
// defaults. The result has no URLs when DEBUGINFOD_URLS is unset or blank.
func ConfigFromEnv(getenv func(string) string) Config {
	cfg := Config{
		URLs:      strings.Fields(getenv("DEBUGINFOD_URLS")),
		CachePath: cachePath(getenv),
		Timeout:   DefaultTimeout,
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(getenv("DEBUGINFOD_TIMEOUT")), 10, 64); err == nil {
		cfg.Timeout = seconds(n)
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(getenv("DEBUGINFOD_MAXTIME")), 10, 64); err == nil {
		cfg.MaxTime = seconds(n)
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(getenv("DEBUGINFOD_MAXSIZE")), 10, 64); err == nil && n > 0 {
		cfg.MaxSize = n
	}
	return cfg
}

// seconds turns a count of seconds into a duration; zero or negative mean
// no limit, as in elfutils.
func seconds(n int64) time.Duration {
	if n <= 0 {
		return 0
	}
	if n > int64(1<<62/time.Second) {
		n = int64(1 << 62 / time.Second)
	}
	return time.Duration(n) * time.Second
}

// cachePath is $DEBUGINFOD_CACHE_PATH, else the deprecated
// ~/.debuginfod_client_cache when it exists, else
// $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client.
func cachePath(getenv func(string) string) string {
	if p := getenv("DEBUGINFOD_CACHE_PATH"); p != "" {
		return p
	}
	home := getenv("HOME")
	if home != "" {
		old := filepath.Join(home, ".debuginfod_client_cache")
		if fi, err := os.Stat(old); err == nil && fi.IsDir() {
			return old
		}
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "debuginfod_client")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "debuginfod_client")
}

// Client fetches artifacts; it is safe for concurrent use, and concurrent
// requests for the same artifact share one download.
type Client struct {
	cfg  Config
	http *http.Client
	warn func(msg string)
	// buildID reads the GNU build-id of an ELF file, nil when it has none;
	// an error means the file is not a readable ELF file.
	buildID func(path string) ([]byte, error)
	now     func() time.Time

	mu      sync.Mutex
	calls   map[string]*call
	dead    map[string]bool // servers given up on for this run
	cleaned bool
}

type call struct {
	done chan struct{}
	path string
	err  error
}

// New returns a client for cfg. warn receives one line per problem worth
// telling (a server that cannot be reached, a file that fails
// verification); it may be nil. buildID reads an ELF file's GNU build-id
// (the engine's reader, so both agree on what a build-id is).
func New(cfg Config, buildID func(path string) ([]byte, error), warn func(msg string)) *Client {
	if warn == nil {
		warn = func(string) {}
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	// file:// prefixes work as with libcurl: a local mirror of a server's tree.
	t.RegisterProtocol("file", http.NewFileTransport(http.Dir("/")))
	return &Client{
		cfg:     cfg,
		http:    &http.Client{Transport: t},
		warn:    warn,
		buildID: buildID,
		now:     time.Now,
		calls:   make(map[string]*call),
		dead:    make(map[string]bool),
	}
}

// Enabled reports whether any server is configured.
func (c *Client) Enabled() bool { return c != nil && len(c.cfg.URLs) > 0 && c.cfg.CachePath != "" }

// Debuginfo returns the path of a cached file holding the DWARF of the
// binary with build-id id (a separate debug file or the unstripped binary).
func (c *Client) Debuginfo(ctx context.Context, id []byte) (string, error) {
	return c.fetch(ctx, artifact{kind: "debuginfo", id: id})
}

// Executable returns the path of a cached copy of the binary with build-id id.
func (c *Client) Executable(ctx context.Context, id []byte) (string, error) {
	return c.fetch(ctx, artifact{kind: "executable", id: id})
}

// Source returns the path of a cached copy of source file path (absolute,
// as the DWARF names it after joining the unit's directory) of the binary
// with build-id id.
func (c *Client) Source(ctx context.Context, id []byte, path string) (string, error) {
	if !strings.HasPrefix(path, "/") {
		return "", fmt.Errorf("debuginfod: source %q: path is not absolute", path)
	}
	return c.fetch(ctx, artifact{kind: "source", id: id, path: path})
}

// artifact is one thing a server can be asked for.
type artifact struct {
	kind string // debuginfo, executable, source
	id   []byte
	path string // for source
}

func (a artifact) hexID() string { return hex.EncodeToString(a.id) }

// urlPath is the request path under a server prefix.
func (a artifact) urlPath() string {
	p := "/buildid/" + a.hexID() + "/" + a.kind
	if a.kind == "source" {
		segs := strings.Split(a.path, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		p += strings.Join(segs, "/")
	}
	return p
}

// cacheName is the file's name inside the build-id's cache directory:
// elfutils spells a source path with each "/" as "##".
func (a artifact) cacheName() string {
	if a.kind == "source" {
		return "source" + strings.ReplaceAll(a.path, "/", "##")
	}
	return a.kind
}

func (a artifact) String() string {
	if a.kind == "source" {
		return a.hexID() + " source " + a.path
	}
	return a.hexID() + " " + a.kind
}

func (c *Client) fetch(ctx context.Context, a artifact) (string, error) {
	if !c.Enabled() {
		return "", fmt.Errorf("debuginfod: %s: no server configured: %w", a, ErrNotFound)
	}
	if len(a.id) == 0 {
		return "", fmt.Errorf("debuginfod: no build-id to ask for: %w", ErrNotFound)
	}
	key := a.kind + "\x00" + a.hexID() + "\x00" + a.path
	c.mu.Lock()
	if cl, ok := c.calls[key]; ok {
		c.mu.Unlock()
		select {
		case <-cl.done:
			return cl.path, cl.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	cl := &call{done: make(chan struct{})}
	c.calls[key] = cl
	clean := !c.cleaned
	c.cleaned = true
	c.mu.Unlock()

	if clean {
		c.cleanCache()
	}
	cl.path, cl.err = c.fetchOnce(ctx, a)
	close(cl.done)
	return cl.path, cl.err
}

// fetchOnce serves a from the cache or downloads it.
func (c *Client) fetchOnce(ctx context.Context, a artifact) (string, error) {
	dir := filepath.Join(c.cfg.CachePath, a.hexID())
	target := filepath.Join(dir, a.cacheName())
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
		if fi.Size() > 0 {
			touch(target, fi, c.now())
			return target, nil
		}
		// An empty file records a miss; it holds for cache_miss_s.
		miss := c.control(cacheMissFile, defaultCacheMiss)
		if c.now().Sub(fi.ModTime()) < miss {
			return "", fmt.Errorf("debuginfod: %s: %w (cached miss)", a, ErrNotFound)
		}
		os.Remove(target)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("debuginfod: cache: %w", err)
	}

	c.mu.Lock()
	var servers []string
	for _, u := range c.cfg.URLs {
		if !c.dead[u] {
			servers = append(servers, u)
		}
	}
	c.mu.Unlock()
	if len(servers) == 0 {
		return "", fmt.Errorf("debuginfod: %s: %w (no server left to ask)", a, ErrNotFound)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		tmp      string
		notFound bool
		err      error
	}
	results := make(chan result, len(servers))
	for _, s := range servers {
		go func() {
			tmp, notFound, err := c.download(ctx, s, a, dir)
			results <- result{tmp, notFound, err}
		}()
	}
	won := ""
	allNotFound := true
	for range servers {
		r := <-results
		switch {
		case r.err == nil && won == "":
			won = r.tmp
			cancel() // the others are no longer needed
		case r.err == nil:
			os.Remove(r.tmp)
		case !r.notFound:
			allNotFound = false
		}
	}
	if won == "" {
		if allNotFound && ctx.Err() == nil {
			// Record the miss as elfutils does: an empty file.
			if f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				f.Close()
			}
		}
		return "", fmt.Errorf("debuginfod: %s: %w", a, ErrNotFound)
	}
	if err := os.Rename(won, target); err != nil {
		os.Remove(won)
		return "", fmt.Errorf("debuginfod: cache: %w", err)
	}
	return target, nil
}

// errStalled cancels a download that did not deliver progressBytes in time.
var errStalled = errors.New("stalled")

// download asks one server for a, writing the body to a temporary file in
// dir and verifying it. notFound is true for a plain "not here" answer.
// Failures other than not-found and verification are reported once and
// end the server's part in this run.
func (c *Client) download(ctx context.Context, server string, a artifact, dir string) (tmp string, notFound bool, err error) {
	u := strings.TrimRight(server, "/") + a.urlPath()
	if !strings.Contains(server, "://") {
		u = "http://" + u
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if c.cfg.MaxTime > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, c.cfg.MaxTime)
		defer stop()
	}
	var got atomic.Int64
	var finished atomic.Bool
	if c.cfg.Timeout > 0 {
		t := time.AfterFunc(c.cfg.Timeout, func() {
			if !finished.Load() && got.Load() < progressBytes {
				cancel(errStalled)
			}
		})
		defer t.Stop()
	}
	fail := func(err error) (string, bool, error) {
		if tmp != "" {
			os.Remove(tmp)
		}
		if cause := context.Cause(ctx); errors.Is(cause, errStalled) {
			err = fmt.Errorf("no answer (less than 100 KiB) within DEBUGINFOD_TIMEOUT=%d s", int(c.cfg.Timeout/time.Second))
		} else if ctx.Err() != nil && c.cfg.MaxTime > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("download not finished within DEBUGINFOD_MAXTIME=%d s", int(c.cfg.MaxTime/time.Second))
		} else if ctx.Err() != nil {
			return "", false, ctx.Err() // another server answered first, or the caller gave up
		}
		c.giveUp(server, err)
		return "", false, err
	}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fail(err)
	}
	req.Header.Set("User-Agent", "sanitrace")
	resp, err := c.http.Do(req)
	if err != nil {
		return fail(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return "", true, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return fail(fmt.Errorf("HTTP %s for %s", resp.Status, a.urlPath()))
	}
	if c.cfg.MaxSize > 0 && resp.ContentLength > c.cfg.MaxSize {
		err := fmt.Errorf("%s: %d bytes exceed DEBUGINFOD_MAXSIZE=%d", a.urlPath(), resp.ContentLength, c.cfg.MaxSize)
		c.warn("debuginfod: " + server + ": " + err.Error())
		return "", false, err
	}
	f, err := os.CreateTemp(dir, ".tmp-"+a.kind+"-*")
	if err != nil {
		return "", false, fmt.Errorf("debuginfod: cache: %w", err)
	}
	tmp = f.Name()
	var body io.Reader = resp.Body
	if c.cfg.MaxSize > 0 {
		body = io.LimitReader(body, c.cfg.MaxSize+1)
	}
	n, err := io.Copy(f, &countingReader{r: body, n: &got})
	finished.Store(true)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(fmt.Errorf("%s: %w", a.urlPath(), err))
	}
	if c.cfg.MaxSize > 0 && n > c.cfg.MaxSize {
		os.Remove(tmp)
		err := fmt.Errorf("%s: more than DEBUGINFOD_MAXSIZE=%d bytes", a.urlPath(), c.cfg.MaxSize)
		c.warn("debuginfod: " + server + ": " + err.Error())
		return "", false, err
	}
	if err := c.verify(tmp, a); err != nil {
		os.Remove(tmp)
		err = fmt.Errorf("%s: %w; ignored", a.urlPath(), err)
		c.warn("debuginfod: " + server + ": " + err.Error())
		return "", false, err
	}
	if err := os.Chmod(tmp, 0o400); err != nil {
		os.Remove(tmp)
		return "", false, fmt.Errorf("debuginfod: cache: %w", err)
	}
	return tmp, false, nil
}

// verify checks that a downloaded ELF artifact is ELF and has the build-id
// it was asked for; sources are taken as they come.
func (c *Client) verify(path string, a artifact) error {
	if a.kind == "source" {
		return nil
	}
	if c.buildID == nil {
		return errors.New("no build-id reader to verify the file with")
	}
	got, err := c.buildID(path)
	if err != nil {
		return fmt.Errorf("not an ELF file (%v)", oneLine(err))
	}
	if hex.EncodeToString(got) != a.hexID() {
		has := hex.EncodeToString(got)
		if has == "" {
			has = "none"
		}
		return fmt.Errorf("file has build-id %s, not the one asked for", has)
	}
	return nil
}

// giveUp reports a failing server once and stops asking it in this run.
func (c *Client) giveUp(server string, err error) {
	c.mu.Lock()
	already := c.dead[server]
	c.dead[server] = true
	c.mu.Unlock()
	if !already {
		c.warn("debuginfod: " + server + ": " + oneLine(err) + "; not asked again in this run")
	}
}

// oneLine keeps an error message on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (cr *countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.n.Add(int64(n))
	return n, err
}
