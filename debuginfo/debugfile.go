package debuginfo

import (
	"bytes"
	"fmt"
	"path/filepath"
)

// DebugFile finds the separate debug file of bin, searched as the
// toolchain does: first by build-id (<dir>/.build-id/xx/rest.debug under
// each debug-file directory, its build-id verified), then through
// .gnu_debuglink (CRC checked) in the binary's directory, its .debug/
// subdirectory, <FallbackDebugPath>/<abs bindir>/ and <dir>/<abs bindir>/
// under each debug-file directory, then through the Fetcher by build-id.
// The caller owns the File; the error wraps ErrNotFound when nothing fits.
func (f *Finder) DebugFile(bin *File) (*File, error) {
	if file, ok := f.debugFileByID(bin.BuildID); ok {
		return file, nil
	}
	if link, crc, ok := bin.debugLink(); ok {
		abs, err := filepath.Abs(bin.Path)
		if err != nil {
			abs = bin.Path
		}
		binDir := filepath.Dir(abs)
		cands := []string{filepath.Join(binDir, link), filepath.Join(binDir, ".debug", link)}
		if f.FallbackDebugPath != "" {
			cands = append(cands, filepath.Join(f.FallbackDebugPath, binDir, link))
		}
		for _, d := range f.debugDirs() {
			cands = append(cands, filepath.Join(d, binDir, link))
		}
		for _, cand := range cands {
			if cand == abs {
				continue
			}
			if file, err := f.Open(cand); err == nil {
				if file.crc() == crc {
					return file, nil
				}
				file.Close()
			}
		}
	}
	if file, err := f.fetch(bin.BuildID, false); err == nil {
		return file, nil
	}
	return nil, fmt.Errorf("find debug file for %s: %w", bin.Path, ErrNotFound)
}

// debugFileByID returns the debug file with build-id id under the
// debug-file directories' .build-id trees.
func (f *Finder) debugFileByID(id []byte) (*File, bool) {
	if len(id) < 2 {
		return nil, false
	}
	for _, d := range f.debugDirs() {
		if file, err := f.Open(BuildIDPath(d, id)); err == nil {
			if bytes.Equal(file.BuildID, id) {
				return file, true
			}
			file.Close()
		}
	}
	return nil, false
}

// DebugFileByID finds the debug file with build-id id (llvm-symbolizer's
// BUILDID: queries): .build-id/xx/rest.debug under the debug-file
// directories, its build-id verified, then the Fetcher. The next Open of
// the path returned hands over the File the search opened.
func (f *Finder) DebugFileByID(id []byte) (string, bool) {
	file, ok := f.debugFileByID(id)
	if !ok {
		var err error
		if file, err = f.fetch(id, false); err != nil {
			return "", false
		}
	}
	f.Keep(file)
	return file.Path, true
}

// DWP returns the path of the DWARF package (.dwp) for the debug file at
// debugPath: DWPPath when set, else debugPath + ".dwp", where
// llvm-symbolizer looks.
func (f *Finder) DWP(debugPath string) string {
	if f.DWPPath != "" {
		return f.DWPPath
	}
	return debugPath + ".dwp"
}

// DWOCandidates lists where the .dwo named name (DW_AT_dwo_name) of a
// unit compiled in compDir may be: where llvm looks (name, relative to
// compDir) first, then, for artifacts moved away from their build
// directory, next to the binary at binPath and next to its debug file.
func (f *Finder) DWOCandidates(name, compDir, binPath, debugPath string) []string {
	var c []string
	if filepath.IsAbs(name) {
		c = append(c, name)
	} else {
		c = append(c, filepath.Join(compDir, name))
	}
	for _, dir := range []string{filepath.Dir(binPath), filepath.Dir(debugPath)} {
		if !filepath.IsAbs(name) {
			c = append(c, filepath.Join(dir, name))
		}
		c = append(c, filepath.Join(dir, filepath.Base(name)))
	}
	return appendUnique(nil, c...)
}
