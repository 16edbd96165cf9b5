package artifact

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/sanitrace/sanitrace/internal/humanize"
)

// sniffLen is how much of an entry its class is decided on: past tar's
// "ustar" magic at 257, and enough text to tell a log from binary data.
const sniffLen = 8 << 10

// maxLinkHops bounds how far a symbolic link inside an archive is followed.
const maxLinkHops = 40

// errStop ends the walk of one archive after its error was reported.
var errStop = errors.New("stop")

// walk is the state of one Walk call.
type walk struct {
	w    *Walker
	lim  Limits
	root string // the path given to Walk being walked
	// binaries collects the binaries read into memory from the archive
	// being walked, for the links that lead to them.
	binaries *[]*Entry
}

// Walk walks paths in order. It returns only an error of Visit; problems
// with inputs go to Error and the walk goes on.
func (w *Walker) Walk(paths []string) error {
	st := &walk{w: w, lim: w.Limits.withDefaults()}
	for _, p := range paths {
		if err := st.input(p); err != nil {
			return err
		}
	}
	return nil
}

// visitError marks an error returned by Visit, which ends the whole walk.
type visitError struct{ err error }

func (e *visitError) Error() string { return e.err.Error() }

func (st *walk) report(src Source, err error) {
	if st.w.Error != nil {
		st.w.Error(&Error{Source: src, Err: err})
	}
}

// reportOpen reports that the file or directory at p could not be opened.
func (st *walk) reportOpen(p string, err error) {
	if st.w.Error != nil {
		st.w.Error(&Error{Source: Source{Path: p}, Err: err, Unopened: p == st.root})
	}
}

func (st *walk) visit(e *Entry) error {
	if e.open == nil {
		e.open = func() (io.ReadCloser, error) {
			return nil, fmt.Errorf("%s: content not read (a %s is not wanted by this walk)", e.Source, e.Kind)
		}
	}
	if e.Kind == Binary && e.Data != nil && st.binaries != nil {
		*st.binaries = append(*st.binaries, e)
	}
	if err := st.w.Visit(e); err != nil {
		return &visitError{err}
	}
	return nil
}

func (st *walk) input(p string) error {
	st.root = p
	if p == "-" {
		e := &Entry{Source: Source{Path: "-"}, Kind: Log, Size: -1}
		if st.w.Want[Log] && st.w.Stdin != nil {
			e.open = func() (io.ReadCloser, error) { return io.NopCloser(st.w.Stdin), nil }
		}
		return unwrapVisit(st.visit(e))
	}
	fi, err := os.Stat(p) // a symbolic link given by name is followed
	if err != nil {
		st.reportOpen(p, errors.Unwrap(err))
		return nil
	}
	if !fi.IsDir() {
		return unwrapVisit(st.file(p, fi))
	}
	root, rootErr := filepath.EvalSymlinks(p)
	if rootErr == nil {
		root, rootErr = filepath.Abs(root)
	}
	return unwrapVisit(filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			st.reportOpen(q, unwrapPath(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := os.Stat(q) // follows a link to a file; loops and dangling links fail here
		if err != nil {
			st.report(Source{Path: q}, unwrapPath(err))
			return nil
		}
		if fi.IsDir() {
			return nil // links to directories are not followed: they can make cycles
		}
		if d.Type()&fs.ModeSymlink != 0 && !inside(root, rootErr, q) {
			// An artifact is untrusted: a link in it must not make batch
			// read (and report from) a file of this machine.
			st.report(Source{Path: q}, errors.New("symbolic link out of the input directory: not followed"))
			return nil
		}
		return st.file(q, fi)
	}))
}

// inside reports whether the link q leads to a file below root (the input
// directory with its own links resolved).
func inside(root string, rootErr error, q string) bool {
	if rootErr != nil {
		return false
	}
	t, err := filepath.EvalSymlinks(q)
	if err == nil {
		t, err = filepath.Abs(t)
	}
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, t)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func unwrapVisit(err error) error {
	var ve *visitError
	if errors.As(err, &ve) {
		return ve.err
	}
	return err
}

// unwrapPath drops the path from a *PathError: the Source already names it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// file handles one file on disk: an archive, a single compressed file, a
// binary, a log, or something to skip.
func (st *walk) file(p string, fi fs.FileInfo) error {
	src := Source{Path: p}
	if !fi.Mode().IsRegular() {
		st.report(src, fmt.Errorf("not a regular file (%s)", fi.Mode().Type()))
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		st.reportOpen(p, unwrapPath(err))
		return nil
	}
	defer f.Close()
	// sniffLen is all a log or binary needs read here (its reader opens it
	// again); archives read through this buffer too, in sniffLen blocks.
	br := bufio.NewReaderSize(f, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		st.report(src, fmt.Errorf("read: %w", unwrapPath(err)))
		return nil
	}
	reopen := func() (io.ReadCloser, error) { return os.Open(p) }
	switch c := classify(head); c {
	case classZip:
		return st.zip(src, f, fi.Size(), 1, newBudget(st.lim.Archive))
	case classTar:
		return st.tar(src, br, 1, newBudget(st.lim.Archive))
	case classGzip, classZstd:
		return st.compressed(src, br, c, 1, newBudget(st.lim.Archive), func() (io.ReadCloser, error) {
			// A compressed log is re-read (and re-inflated) by whoever decodes it.
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			dec, err := decompressor(bufio.NewReader(f), c)
			if err != nil {
				f.Close()
				return nil, err
			}
			return &capped{r: dec, left: st.lim.Entry, src: src, closers: []io.Closer{dec, f}}, nil
		})
	case classELF:
		return st.visit(&Entry{Source: src, Kind: Binary, Size: fi.Size(), File: p, open: reopen, detached: true})
	case classText:
		return st.visit(&Entry{Source: src, Kind: Log, Size: fi.Size(), File: p, open: reopen, detached: true})
	}
	return nil
}

// data walks an input held in memory as file would walk it on disk (the
// fuzz target's way in; no entry is read back from disk).
func (st *walk) data(name string, data []byte) error {
	src := Source{Path: name}
	br := bufio.NewReader(bytes.NewReader(data))
	head, _ := br.Peek(sniffLen)
	switch c := classify(head); c {
	case classZip:
		return st.zip(src, bytes.NewReader(data), int64(len(data)), 1, newBudget(st.lim.Archive))
	case classTar:
		return st.tar(src, br, 1, newBudget(st.lim.Archive))
	case classGzip, classZstd:
		return st.compressed(src, br, c, 1, newBudget(st.lim.Archive), nil)
	}
	return st.content(src, br, int64(len(data)), nil)
}

// compressed handles a gzip or zstd stream: a compressed tar, or one
// compressed file. reopen, when not nil, re-reads a compressed log from disk.
func (st *walk) compressed(src Source, r io.Reader, c class, depth int, bud *budget, reopen func() (io.ReadCloser, error)) error {
	dec, err := decompressor(r, c)
	if err != nil {
		st.report(src, err)
		return nil
	}
	defer dec.Close()
	br := bufio.NewReaderSize(bud.reader(dec), 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		st.report(src, fmt.Errorf("%s: %w", c, err))
		return nil
	}
	switch inner := classify(head); inner {
	case classTar:
		return st.tar(src, br, depth, bud)
	case classZip, classGzip, classZstd:
		if depth >= st.lim.Depth {
			st.report(src, fmt.Errorf("archives nested more than %d deep: skipped", st.lim.Depth))
			return nil
		}
		if inner == classZip {
			data, ok := st.readAll(src, br, -1)
			if !ok {
				return nil
			}
			return st.zip(src, bytes.NewReader(data), int64(len(data)), depth+1, bud)
		}
		return st.compressed(src, br, inner, depth+1, bud, nil)
	}
	return st.content(src, br, -1, reopen)
}

// content handles the bytes of one member (or one decompressed file) that is
// not an archive itself: a binary, a log, or something to skip. size is -1
// when unknown. reopen, when not nil, opens the content again later.
func (st *walk) content(src Source, br *bufio.Reader, size int64, reopen func() (io.ReadCloser, error)) error {
	head, _ := br.Peek(sniffLen)
	switch classify(head) {
	case classELF:
		e := &Entry{Source: src, Kind: Binary, Size: size}
		if st.w.Want[Binary] {
			data, ok := st.readAll(src, br, size)
			if !ok {
				return nil
			}
			e.Data, e.Size = data, int64(len(data))
			e.open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
			e.detached = true
		}
		return st.visit(e)
	case classText:
		e := &Entry{Source: src, Kind: Log, Size: size}
		switch {
		case !st.w.Want[Log]:
		case reopen != nil:
			e.open, e.detached = reopen, true
		case size >= 0 && size <= st.lim.Inline:
			data, ok := st.readAll(src, br, size)
			if !ok {
				return nil
			}
			e.Data = data
			e.open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
			e.detached = true
		default:
			once := false
			e.open = func() (io.ReadCloser, error) {
				if once {
					return nil, fmt.Errorf("%s: a streamed archive member can be read once", src)
				}
				once = true
				return &capped{r: br, left: st.lim.Entry, src: src}, nil
			}
		}
		return st.visit(e)
	}
	return nil // neither a log nor a binary
}

// readAll reads a member into memory, at most Limits.Entry bytes.
func (st *walk) readAll(src Source, r io.Reader, size int64) ([]byte, bool) {
	var buf bytes.Buffer
	if size > 0 {
		buf.Grow(int(size))
	}
	n, err := io.Copy(&buf, io.LimitReader(r, st.lim.Entry+1))
	switch {
	case err != nil:
		st.report(src, fmt.Errorf("read: %w", err))
		return nil, false
	case n > st.lim.Entry:
		st.report(src, fmt.Errorf("inflates to more than %s (--max-entry-size): skipped", humanize.Bytes(uint64(st.lim.Entry))))
		return nil, false
	}
	return buf.Bytes(), true
}

// member spells the member path of a nested entry.
func member(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "!/" + name
}

// tar walks a tar stream; src names the tar itself.
func (st *walk) tar(src Source, r io.Reader, depth int, bud *budget) error {
	tr := tar.NewReader(r)
	links := make(map[string]string) // member -> the member it links to
	var binaries []*Entry
	saved := st.binaries
	st.binaries = &binaries
	defer func() { st.binaries = saved }()
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			st.report(src, readError("tar", err, bud))
			break
		}
		name, ok := localName(hdr.Name)
		if !ok {
			st.report(Source{Path: src.Path, Member: member(src.Member, hdr.Name)}, errUnsafeName)
			continue
		}
		msrc := Source{Path: src.Path, Member: member(src.Member, name)}
		switch hdr.Typeflag {
		case tar.TypeReg: // the reader reports old-style TypeRegA members as TypeReg
			if hdr.Size > st.lim.Entry {
				st.report(msrc, fmt.Errorf("member of %s inflates to more than %s (--max-entry-size): the rest of the archive is skipped",
					humanize.Bytes(uint64(hdr.Size)), humanize.Bytes(uint64(st.lim.Entry))))
				return st.links(src, links, binaries)
			}
			if err := st.entry(msrc, tr, hdr.Size, depth, bud); err != nil {
				if err == errStop {
					return st.links(src, links, binaries)
				}
				return err
			}
		case tar.TypeSymlink:
			t := hdr.Linkname
			if !path.IsAbs(t) {
				t = path.Join(path.Dir(name), t)
			}
			links[name] = path.Clean(t)
		case tar.TypeLink:
			links[name] = path.Clean(hdr.Linkname)
		}
	}
	return st.links(src, links, binaries)
}

// links offers each binary under the names of the links that lead to it
// (libfoo.so.1 -> libfoo.so.1.2.3), and reports link loops.
func (st *walk) links(src Source, links map[string]string, binaries []*Entry) error {
	if len(links) == 0 {
		return nil
	}
	byName := make(map[string]*Entry, len(binaries))
	for _, b := range binaries {
		byName[b.Source.Member] = b
	}
	names := make([]string, 0, len(links))
	for n := range links {
		names = append(names, n)
	}
	sort.Strings(names)
	looped := make(map[string]bool)
	for _, n := range names {
		seen := map[string]bool{n: true}
		chain := []string{n}
		cur := n
		loop := false
		for hop := 0; hop < maxLinkHops; hop++ {
			next, ok := links[cur]
			if !ok {
				break
			}
			if seen[next] {
				loop = true
				chain = append(chain, next)
				break
			}
			seen[next] = true
			chain = append(chain, next)
			cur = next
		}
		if _, more := links[cur]; more && !loop {
			loop = true // longer than maxLinkHops
		}
		if loop {
			if !looped[cycleKey(chain)] {
				looped[cycleKey(chain)] = true
				st.report(Source{Path: src.Path, Member: member(src.Member, n)},
					fmt.Errorf("symbolic link loop (%s): not followed", strings.Join(chain, " -> ")))
			}
			continue
		}
		if b, ok := byName[member(src.Member, cur)]; ok {
			alias := *b
			alias.Source = Source{Path: src.Path, Member: member(src.Member, n)}
			if err := st.visit(&alias); err != nil {
				return err
			}
		}
	}
	return nil
}

// cycleKey names a link cycle by its members, so that a loop is reported
// once, not once per link on it.
func cycleKey(chain []string) string {
	last := chain[len(chain)-1]
	start := 0
	for i, c := range chain {
		if c == last {
			start = i
			break
		}
	}
	cyc := append([]string(nil), chain[start:len(chain)-1]...)
	sort.Strings(cyc)
	return strings.Join(cyc, "\x00")
}

// entry handles one regular member of size bytes read from r.
func (st *walk) entry(src Source, r io.Reader, size int64, depth int, bud *budget) error {
	br := bufio.NewReaderSize(io.LimitReader(r, size), 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		st.report(src, readError("read", err, bud))
		return errStop
	}
	switch c := classify(head); c {
	case classTar, classZip, classGzip, classZstd:
		if depth >= st.lim.Depth {
			st.report(src, fmt.Errorf("archives nested more than %d deep: skipped", st.lim.Depth))
			return nil
		}
		switch c {
		case classTar:
			return st.tar(src, br, depth+1, bud)
		case classZip:
			data, ok := st.readAll(src, br, size)
			if !ok {
				return nil
			}
			return st.zip(src, bytes.NewReader(data), int64(len(data)), depth+1, bud)
		}
		return st.compressed(src, br, c, depth+1, bud, nil)
	}
	if err := st.content(src, br, size, nil); err != nil {
		return err
	}
	if bud.exceeded() {
		st.report(src, bud.err())
		return errStop
	}
	return nil
}

// zip walks a zip archive; src names the zip itself.
func (st *walk) zip(src Source, ra io.ReaderAt, size int64, depth int, bud *budget) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		st.report(src, fmt.Errorf("zip: %w", err))
		return nil
	}
	links := make(map[string]string)
	var binaries []*Entry
	saved := st.binaries
	st.binaries = &binaries
	defer func() { st.binaries = saved }()
	for _, f := range zr.File {
		name, ok := localName(f.Name)
		if !ok {
			st.report(Source{Path: src.Path, Member: member(src.Member, f.Name)}, errUnsafeName)
			continue
		}
		msrc := Source{Path: src.Path, Member: member(src.Member, name)}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			continue
		case mode&fs.ModeSymlink != 0:
			if f.UncompressedSize64 > 4096 {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				continue
			}
			t, _ := io.ReadAll(io.LimitReader(rc, 4096))
			rc.Close()
			target := string(t)
			if !path.IsAbs(target) {
				target = path.Join(path.Dir(name), target)
			}
			links[name] = path.Clean(target)
			continue
		case !mode.IsRegular():
			continue
		}
		if f.UncompressedSize64 > uint64(st.lim.Entry) {
			st.report(msrc, fmt.Errorf("member of %s inflates to more than %s (--max-entry-size): skipped",
				humanize.Bytes(f.UncompressedSize64), humanize.Bytes(uint64(st.lim.Entry))))
			continue
		}
		if !bud.take(int64(f.UncompressedSize64)) {
			st.report(msrc, bud.err())
			break
		}
		rc, err := f.Open()
		if err != nil {
			st.report(msrc, fmt.Errorf("zip: %w", err))
			continue
		}
		err = st.entry(msrc, rc, int64(f.UncompressedSize64), depth, bud)
		rc.Close()
		if err == errStop {
			break
		}
		if err != nil {
			return err
		}
	}
	return st.links(src, links, binaries)
}

var errUnsafeName = errors.New("unsafe member name (absolute, with .., or empty): skipped")

// localName is name as a clean relative path, or false when it is absolute,
// climbs out with "..", holds a NUL or a drive letter, or is empty.
// Backslashes count as separators: Windows tools write them into zips.
func localName(name string) (string, bool) {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.ContainsRune(n, 0) || path.IsAbs(n) || (len(n) >= 2 && n[1] == ':') {
		return "", false
	}
	for _, el := range strings.Split(n, "/") {
		if el == ".." {
			return "", false
		}
	}
	c := path.Clean(n)
	if c == "." {
		return "", false
	}
	return c, true
}

func readError(what string, err error, bud *budget) error {
	if errors.Is(err, errBudget) {
		return bud.err()
	}
	return fmt.Errorf("%s: %w", what, err)
}

// decompressor opens a gzip or zstd stream.
func decompressor(r io.Reader, c class) (io.ReadCloser, error) {
	switch c {
	case classGzip:
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return z, nil
	case classZstd:
		// One goroutine and a bounded window: a hostile frame header cannot
		// make the decoder allocate gigabytes.
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<27), zstd.WithDecoderMaxMemory(1<<28))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return zstdCloser{z}, nil
	}
	return nil, fmt.Errorf("not a compressed stream")
}

type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// capped reads at most left bytes of a log; past that it ends the log early
// and Close says so, so that the reports read so far are kept and the
// truncation is reported once.
type capped struct {
	r       io.Reader
	left    int64
	src     Source
	over    bool // more bytes than the entry limit
	budget  bool // the archive's budget ran out while reading
	closers []io.Closer
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := io.ReadFull(c.r, one[:]); n > 0 {
			c.over = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if errors.Is(err, errBudget) {
		c.budget = true
		return n, io.EOF
	}
	return n, err
}

func (c *capped) Close() error {
	for _, cl := range c.closers {
		cl.Close()
	}
	switch {
	case c.budget:
		return &Error{Source: c.src, Err: errors.New("the archive's inflated size limit (--max-archive-size) was reached in this log: the rest was not read")}
	case c.over:
		return &Error{Source: c.src, Err: errors.New("log longer than the inflated size limit (--max-entry-size): the rest was not read")}
	}
	return nil
}
