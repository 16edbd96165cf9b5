package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// dwz supplementary files. `dwz -m` moves the DIEs several files share
// (types, declarations, abstract inline instances) and their strings into
// one supplementary file, which each file names in .gnu_debugaltlink (its
// path and build-id; DW_FORM_GNU_ref_alt and DW_FORM_GNU_strp_alt point into
// it) or, with `dwz --dwarf-5`, in .debug_sup (DW_FORM_ref_sup4/8 and
// DW_FORM_strp_sup). Shared DIEs go to partial units, imported into
// compilation units with DW_TAG_imported_unit; the engine follows the
// references themselves, so an abstract origin in the supplementary file
// names a frame as it would have before dwz, and its DW_AT_decl_file is read
// in the line table of the partial unit holding it.

// supBit marks a DIE offset in the supplementary file's .debug_info, so
// references into either file share one offset space.
const supBit = 1 << 63

// supFile is an object's supplementary file, opened with its debug file.
type supFile struct {
	path  string
	sec   *dwoSections // its sections; strings in the object's extStrings space
	units []*unit      // in section order; offsets without supBit
}

// supLink is what a debug file says about its supplementary file.
type supLink struct {
	name string
	id   []byte // build-id (.gnu_debugaltlink) or checksum (.debug_sup); may be empty
}

// readSupLink reads .gnu_debugaltlink (file name, NUL, build-id) or
// .debug_sup (version 5, is_supplementary, file name, ULEB length,
// checksum). ok is false when f names no supplementary file.
func readSupLink(f *elf.File) (supLink, bool) {
	if s := f.Section(".gnu_debugaltlink"); s != nil && s.Size <= 4096 {
		data, err := s.Data()
		if err != nil {
			return supLink{}, false
		}
		i := bytes.IndexByte(data, 0)
		if i <= 0 {
			return supLink{}, false
		}
		return supLink{name: string(data[:i]), id: append([]byte(nil), data[i+1:]...)}, true
	}
	if s := f.Section(".debug_sup"); s != nil && s.Size <= 4096 {
		data, err := s.Data()
		if err != nil {
			return supLink{}, false
		}
		b := dwarfbuf.NewReader(".debug_sup", 0, data, f.ByteOrder)
		version := b.U16()
		isSup := b.U8()
		start := b.Offset()
		b.SkipCString()
		n := b.Uleb()
		if b.Err() != nil || version != 5 || isSup != 0 || n > uint64(b.Left()) {
			return supLink{}, false
		}
		name, _ := dwarfbuf.CStringAt(data, start)
		id := b.Bytes(int(n))
		if name == "" || b.Err() != nil {
			return supLink{}, false
		}
		return supLink{name: name, id: append([]byte(nil), id...)}, true
	}
	return supLink{}, false
}

// supCandidates lists where the supplementary file named by link may be,
// best first: the name itself when absolute, else next to the debug file;
// under each debug-file directory's .dwz/ (the part of the name after
// "/.dwz/", Debian's and Fedora's layout) or, for a name under
// /usr/lib/debug, the same path under each directory; then by build-id.
func supCandidates(debugPath string, link supLink, dirs []string) []string {
	var c []string
	if filepath.IsAbs(link.name) {
		c = append(c, link.name)
	} else {
		c = append(c, filepath.Join(filepath.Dir(debugPath), link.name))
	}
	for _, d := range dirs {
		if i := strings.Index(link.name, "/.dwz/"); i >= 0 {
			c = append(c, filepath.Join(d, link.name[i+1:]))
		} else if rest, ok := strings.CutPrefix(link.name, "/usr/lib/debug/"); ok {
			c = append(c, filepath.Join(d, rest))
		}
		c = append(c, filepath.Join(d, ".dwz", filepath.Base(link.name)))
	}
	for _, d := range dirs {
		if p := BuildIDPath(d, link.id); p != "" {
			c = append(c, p)
		}
	}
	return c
}

// loadSup finds and opens the supplementary file f (the file holding the
// DWARF, at debugPath) names, if any. The error says what was looked for
// and where; the object then answers without the shared DIEs.
func (o *Object) loadSup(f *elf.File, debugPath string, opts *Options) error {
	link, ok := readSupLink(f)
	if !ok {
		return nil
	}
	cands := supCandidates(debugPath, link, opts.debugDirs())
	if opts.FetchDebuginfo != nil && len(link.id) > 0 {
		if p, err := opts.FetchDebuginfo(link.id); err == nil {
			cands = append(cands, p)
		}
	}
	var tried []string
	for _, c := range cands {
		if c == debugPath || containsStr(tried, c) {
			continue
		}
		tried = append(tried, c)
		if len(link.id) > 0 {
			if got, err := supIdentity(c); err != nil || !bytes.Equal(got, link.id) {
				continue
			}
		} else if _, err := os.Stat(c); err != nil {
			continue
		}
		sf, err := o.openSup(c)
		if err != nil {
			return fmt.Errorf("dwz supplementary file %s: %w", c, err)
		}
		o.sup = sf
		return nil
	}
	id := "no build-id"
	if len(link.id) > 0 {
		id = "build-id " + hex.EncodeToString(link.id)
	}
	return fmt.Errorf("dwz supplementary file %s (%s) not found (looked in %s)", link.name, id, strings.Join(tried, ", "))
}

// supIdentity returns what a link to the supplementary file at path must
// carry: the checksum of its own .debug_sup (is_supplementary set; dwz
// --dwarf-5 writes no build-id note), else its GNU build-id.
func supIdentity(path string) (id []byte, err error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer func() {
		if p := recover(); p != nil {
			id, err = nil, fmt.Errorf("%s: corrupt ELF (%v)", path, p)
		}
	}()
	if s := f.Section(".debug_sup"); s != nil && s.Size <= 4096 {
		data, err := s.Data()
		if err != nil {
			return nil, err
		}
		b := dwarfbuf.NewReader(".debug_sup", 0, data, f.ByteOrder)
		version, isSup := b.U16(), b.U8()
		b.SkipCString()
		n := b.Uleb()
		if b.Err() == nil && version == 5 && isSup == 1 && n <= uint64(b.Left()) {
			return append([]byte(nil), b.Bytes(int(n))...), nil
		}
	}
	return BuildIDOf(f), nil
}

func containsStr(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// openSup maps the supplementary file at path and indexes its units.
func (o *Object) openSup(path string) (*supFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	m, err := dwarfbuf.Map(fh)
	if err != nil {
		return nil, err
	}
	ef, err := elf.NewFile(bytes.NewReader(m.Bytes()))
	if err != nil {
		m.Close()
		return nil, err
	}
	ds, err := readDebugSections(ef, m)
	if err != nil {
		m.Close()
		return nil, err
	}
	o.filesMu.Lock()
	o.files = append(o.files, m)
	o.filesMu.Unlock()
	sec := &dwoSections{debugSections: *ds, path: path}
	sec.strBase = o.ext.add(sec.str)
	sec.infoBase = o.ext.add(sec.info)
	sec.lineStrBase = o.ext.add(sec.lineStr)
	sf := &supFile{path: path, sec: sec}
	for off := uint64(0); off < uint64(len(sec.info)); {
		h, err := parseUnitHeader(sec.info, off, o.byteOrder)
		if err != nil {
			return nil, err
		}
		off = h.end
		h.dwo, h.sup = sec, true
		u, _, err := o.readUnitRoot(h)
		if err != nil {
			return nil, err
		}
		if u != nil {
			sf.units = append(sf.units, u)
		}
	}
	return sf, nil
}

// supUnitAt returns the supplementary file's unit holding the DIE at off
// (without supBit).
func (s *supFile) unitAt(off uint64) *unit {
	i := sort.Search(len(s.units), func(i int) bool { return s.units[i].h.end > off })
	if i < len(s.units) && s.units[i].h.dieOff <= off {
		return s.units[i]
	}
	return nil
}

// unitOfDIE returns the unit (of the object or its supplementary file)
// holding the DIE at off.
func (o *Object) unitOfDIE(off uint64) *unit {
	if off&supBit != 0 {
		if o.sup == nil {
			return nil
		}
		return o.sup.unitAt(off &^ supBit)
	}
	return o.units.unitAt(off)
}

// supStr resolves a DW_FORM_GNU_strp_alt or DW_FORM_strp_sup offset.
func (o *Object) supStr(off uint64) strRef {
	if o.sup == nil || off >= uint64(len(o.sup.sec.str)) {
		return noStr
	}
	return strRef(strSecExt | (o.sup.sec.strBase + off))
}
