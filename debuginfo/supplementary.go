package debuginfo

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A SupLink is what a debug file says about its dwz supplementary file:
// `dwz -m` moves the DIEs and strings several files share into one file,
// which each names in .gnu_debugaltlink (its path and build-id) or, with
// `dwz --dwarf-5`, in .debug_sup (its path and a checksum).
type SupLink struct {
	Name string
	ID   []byte // build-id (.gnu_debugaltlink) or checksum (.debug_sup); may be empty
}

// SupLink reads .gnu_debugaltlink (file name, NUL, build-id) or .debug_sup
// (version 5, is_supplementary 0, file name, ULEB length, checksum); ok is
// false when the file names no supplementary file.
func (f *File) SupLink() (link SupLink, ok bool) {
	if s := f.ELF.Section(".gnu_debugaltlink"); s != nil && s.Size <= 4096 {
		data, err := s.Data()
		if err != nil {
			return SupLink{}, false
		}
		i := bytes.IndexByte(data, 0)
		if i <= 0 {
			return SupLink{}, false
		}
		return SupLink{Name: string(data[:i]), ID: append([]byte(nil), data[i+1:]...)}, true
	}
	name, id, isSup, ok := f.debugSup()
	if !ok || isSup || name == "" {
		return SupLink{}, false
	}
	return SupLink{Name: name, ID: id}, true
}

// debugSup reads a .debug_sup section: the file it names, the checksum,
// and whether this file is itself the supplementary one.
func (f *File) debugSup() (name string, id []byte, isSup, ok bool) {
	s := f.ELF.Section(".debug_sup")
	if s == nil || s.Size > 4096 {
		return "", nil, false, false
	}
	data, err := s.Data()
	if err != nil {
		return "", nil, false, false
	}
	b := dwarfbuf.NewReader(".debug_sup", 0, data, f.ELF.ByteOrder)
	version := b.U16()
	flag := b.U8()
	name = b.CString()
	n := b.Uleb()
	if b.Err() != nil || version != 5 || flag > 1 || n > uint64(b.Left()) {
		return "", nil, false, false
	}
	id = append([]byte(nil), b.Bytes(int(n))...)
	return name, id, flag == 1, b.Err() == nil
}

// supIdentity is what a link to f as a supplementary file must carry: the
// checksum of its own .debug_sup (is_supplementary set; dwz --dwarf-5
// writes no build-id note), else its GNU build-id.
func (f *File) supIdentity() []byte {
	if _, id, isSup, ok := f.debugSup(); ok && isSup {
		return id
	}
	return f.BuildID
}

// SupCandidates lists where the supplementary file named by link, for the
// debug file at debugPath, may be, best first: the name itself when
// absolute, else next to the debug file; under each debug-file
// directory's .dwz/ (the part of the name after "/.dwz/", Debian's and
// Fedora's layout) or, for a name under DefaultDebugDir, the same path
// under each directory; then by build-id.
func (f *Finder) SupCandidates(debugPath string, link SupLink) []string {
	var c []string
	if filepath.IsAbs(link.Name) {
		c = append(c, link.Name)
	} else {
		c = append(c, filepath.Join(filepath.Dir(debugPath), link.Name))
	}
	dirs := f.debugDirs()
	for _, d := range dirs {
		if i := strings.Index(link.Name, "/.dwz/"); i >= 0 {
			c = append(c, filepath.Join(d, link.Name[i+1:]))
		} else if rest, ok := strings.CutPrefix(link.Name, DefaultDebugDir+"/"); ok {
			c = append(c, filepath.Join(d, rest))
		}
		c = append(c, filepath.Join(d, ".dwz", filepath.Base(link.Name)))
	}
	for _, d := range dirs {
		if p := BuildIDPath(d, link.ID); p != "" {
			c = append(c, p)
		}
	}
	return c
}

// Supplementary finds the dwz supplementary file that debug names:
// the SupCandidates in order, then the Fetcher by the link's id; a file
// must carry the link's id when it has one. ok is false when debug names
// none. The error says what was looked for and where. The caller owns the
// File.
func (f *Finder) Supplementary(debug *File) (sup *File, ok bool, err error) {
	link, ok := debug.SupLink()
	if !ok {
		return nil, false, nil
	}
	var tried []string
	// try opens candidate c. A file named without an id is taken as it is
	// once it exists: an error opening it is the answer.
	try := func(c string) (*File, error) {
		if c == debug.Path || containsString(tried, c) {
			return nil, nil
		}
		tried = append(tried, c)
		if len(link.ID) == 0 {
			if _, err := os.Stat(c); err != nil {
				return nil, nil
			}
			file, err := f.Open(c)
			if err != nil {
				return nil, fmt.Errorf("dwz supplementary file %s: %w", c, err)
			}
			return file, nil
		}
		file, err := f.Open(c)
		if err != nil {
			return nil, nil
		}
		if !bytes.Equal(file.supIdentity(), link.ID) {
			file.Close()
			return nil, nil
		}
		return file, nil
	}
	for _, c := range f.SupCandidates(debug.Path, link) {
		if file, err := try(c); file != nil || err != nil {
			return file, true, err
		}
	}
	if f.Fetch != nil && len(link.ID) > 0 {
		if p, err := f.Fetch.Debuginfo(fetchContext(), link.ID); err == nil {
			if file, err := try(p); file != nil || err != nil {
				return file, true, err
			}
		}
	}
	id := "no build-id"
	if len(link.ID) > 0 {
		id = "build-id " + hex.EncodeToString(link.ID)
	}
	return nil, true, fmt.Errorf("dwz supplementary file %s (%s) not found (looked in %s)", link.Name, id, strings.Join(tried, ", "))
}

func containsString(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
