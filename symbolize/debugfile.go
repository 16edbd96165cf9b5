package symbolize

import (
	"bytes"
	"debug/elf"
	"fmt"
	"hash"
	"hash/crc32"
	"os"
	"path/filepath"
)

func newCRC32() hash.Hash32 { return crc32.NewIEEE() }

// FindDebugFile returns the separate debug file for the ELF binary at path,
// searched as the toolchain does: first by build-id
// (<dir>/.build-id/xx/rest.debug under each debug-file directory, its
// build-id verified), then through .gnu_debuglink (CRC checked) in the
// binary's directory, its .debug/ subdirectory, <FallbackDebugPath>/<abs
// bindir>/ and <dir>/<abs bindir>/ under each debug-file directory. The error wraps ErrNotFound when nothing fits.
func FindDebugFile(path string, opts *Options) (string, error) {
	if opts == nil {
		opts = &Options{}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("find debug file for %s: %w", path, err)
	}
	defer f.Close()
	ef, err := elf.NewFile(f)
	if err != nil {
		return "", fmt.Errorf("find debug file for %s: %w", path, err)
	}
	return findDebugFile(path, ef, BuildIDOf(ef), opts)
}

func findDebugFile(path string, ef *elf.File, id []byte, opts *Options) (found string, err error) {
	dirs := opts.debugDirs()
	defer func() {
		if p := recover(); p != nil {
			found, err = "", fmt.Errorf("find debug file for %s: corrupt ELF (%v)", path, p)
		}
	}()
	if len(id) >= 2 {
		for _, d := range dirs {
			cand := BuildIDPath(d, id)
			if got, err := ReadBuildID(cand); err == nil && bytes.Equal(got, id) {
				return cand, nil
			}
		}
	}
	link, crc, ok := debugLink(ef)
	if ok {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		binDir := filepath.Dir(abs)
		cands := []string{filepath.Join(binDir, link), filepath.Join(binDir, ".debug", link)}
		if opts.FallbackDebugPath != "" {
			cands = append(cands, filepath.Join(opts.FallbackDebugPath, binDir, link))
		}
		for _, d := range dirs {
			cands = append(cands, filepath.Join(d, binDir, link))
		}
		for _, cand := range cands {
			if cand == abs {
				continue
			}
			if c, err := crc32File(cand); err == nil && c == crc {
				return cand, nil
			}
		}
	}
	return "", fmt.Errorf("find debug file for %s: %w", path, ErrNotFound)
}

// debugLink reads the .gnu_debuglink section: a NUL-terminated file name,
// padding to 4 bytes, then the CRC-32 of the debug file.
func debugLink(ef *elf.File) (name string, crc uint32, ok bool) {
	s := ef.Section(".gnu_debuglink")
	if s == nil || s.Size > 4096 {
		return "", 0, false
	}
	data, err := s.Data()
	if err != nil {
		return "", 0, false
	}
	i := bytes.IndexByte(data, 0)
	if i <= 0 {
		return "", 0, false
	}
	off := (i + 4) &^ 3
	if off+4 > len(data) {
		return "", 0, false
	}
	return string(data[:i]), ef.ByteOrder.Uint32(data[off:]), true
}
