package dwarfbuf

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// maxSectionSize bounds a decompressed section.
const maxSectionSize = 1 << 32

// Section returns the contents of the named section of f, whose bytes are
// file, decompressed; nil when absent or SHT_NOBITS. A DWARF section may
// also be found under its legacy ".zdebug_" name. An uncompressed section
// is a slice of file, not a copy.
func Section(f *elf.File, file []byte, name string) ([]byte, error) {
	s := f.Section(name)
	if s == nil && strings.HasPrefix(name, ".debug_") {
		s = f.Section(".zdebug_" + strings.TrimPrefix(name, ".debug_"))
	}
	if s == nil || s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	if s.Flags&elf.SHF_COMPRESSED == 0 && !strings.HasPrefix(s.Name, ".zdebug_") {
		end := s.Offset + s.FileSize
		if end < s.Offset || end > uint64(len(file)) {
			return nil, fmt.Errorf("%s: section goes past the end of the file (offset 0x%x, size 0x%x, file size 0x%x)", s.Name, s.Offset, s.FileSize, len(file))
		}
		return file[s.Offset:end:end], nil
	}
	// Section.Open handles SHF_COMPRESSED (zlib, zstd) and ".zdebug" (zlib
	// with a "ZLIB" header); each compressed section is inflated once, here.
	// For SHF_COMPRESSED, Size is the inflated size: read straight into a
	// buffer of that size rather than growing one.
	r := openSection(f, file, s)
	// The header's size is only trusted for the allocation when the
	// compression ratio it implies is plausible: a corrupt header must not
	// make a small file allocate gigabytes.
	plausible := s.Size <= 256*s.FileSize+1<<16
	if s.Flags&elf.SHF_COMPRESSED != 0 && s.Size > 0 && s.Size < maxSectionSize && plausible {
		data := make([]byte, s.Size)
		n, err := io.ReadFull(r, data)
		if err == nil {
			// One more read reaches the end of the stream, where zlib
			// checks its Adler-32 and zstd its frame: a stream that fails
			// there is as damaged as one that fails earlier.
			var one [1]byte
			if _, err = r.Read(one[:]); err == io.EOF {
				err = nil
			}
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			return nil, inflateError(f, file, s, err)
		}
		return data[:n], nil
	}
	data, err := io.ReadAll(io.LimitReader(r, maxSectionSize))
	if err != nil {
		return nil, inflateError(f, file, s, err)
	}
	return data, nil
}

// openSection returns a reader of s's decompressed bytes. A zlib stream behind
// an ELF compression header (Go binaries, --compress-debug-sections) is
// inflated with klauspost/compress, a quarter faster than compress/flate on
// the bench's go-large, whose first lookup waits for its sections (and its
// Adler-32 checked by zlibReader, faster again);
// anything else, or a stream whose zlib header does not parse, goes
// through debug/elf as before (and fails there with its error).
func openSection(f *elf.File, file []byte, s *elf.Section) io.Reader {
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		hdr := uint64(12) // Elf32_Chdr
		if f.Class == elf.ELFCLASS64 {
			hdr = 24 // Elf64_Chdr
		}
		end := s.Offset + s.FileSize
		if end >= s.Offset && end <= uint64(len(file)) && s.FileSize > hdr &&
			elf.CompressionType(f.ByteOrder.Uint32(file[s.Offset:])) == elf.COMPRESS_ZLIB {
			if zr, err := newZlibReader(bytes.NewReader(file[s.Offset+hdr : end])); err == nil {
				return zr
			}
		}
	}
	return s.Open()
}

// Uncompressed returns where the named section's bytes lie in the file
// when they are stored as they are (not compressed, not SHT_NOBITS), so
// that a decoder can Release the pages of what it has decoded.
func Uncompressed(f *elf.File, name string) (off uint64, ok bool) {
	s := f.Section(name)
	if s == nil || s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_COMPRESSED != 0 {
		return 0, false
	}
	return s.Offset, true
}

// Stored returns where the named section's bytes lie in the file, as
// they are stored (compressed or not); not ok when absent or SHT_NOBITS.
// A DWARF section may be found under its legacy ".zdebug_" name, as in
// Section. A loader that has inflated or copied a section can Release
// these pages.
func Stored(f *elf.File, name string) (off, end uint64, ok bool) {
	s := f.Section(name)
	if s == nil && strings.HasPrefix(name, ".debug_") {
		s = f.Section(".zdebug_" + strings.TrimPrefix(name, ".debug_"))
	}
	if s == nil || s.Type == elf.SHT_NOBITS || s.Offset+s.FileSize < s.Offset {
		return 0, 0, false
	}
	return s.Offset, s.Offset + s.FileSize, true
}

// A Want names a section to load and where its contents go.
type Want struct {
	Name string
	Dst  *[]byte
}

// Sections loads the wanted sections of f, whose bytes are file, as
// Section does, and returns each one's error in the order of want. A
// section that fails is left empty rather than failing the whole load: a
// damaged section costs only what needs it. Compressed sections (Go
// binaries, --compress-debug-sections) are inflated concurrently: opening
// is otherwise bound by one inflater.
func Sections(f *elf.File, file []byte, want []Want) []error {
	errs := make([]error, len(want))
	var wg sync.WaitGroup
	for i, w := range want {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				// A decoder panic on a corrupt section must not take the
				// process down: a caller's recover does not see this goroutine.
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("%s: corrupt section (decoder panic: %v)", w.Name, p)
				}
			}()
			*w.Dst, errs[i] = Section(f, file, w.Name)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			*want[i].Dst = nil
		}
	}
	return errs
}

// compression names how s is compressed, for errors: the type is the
// first word of the compression header (debug/elf keeps it to itself).
func compression(f *elf.File, file []byte, s *elf.Section) string {
	if s.Flags&elf.SHF_COMPRESSED == 0 {
		return "zlib decompression (.zdebug)"
	}
	if s.Offset+4 < s.Offset || s.Offset+4 > uint64(len(file)) {
		return "decompression"
	}
	switch t := elf.CompressionType(f.ByteOrder.Uint32(file[s.Offset:])); t {
	case elf.COMPRESS_ZLIB:
		return "zlib decompression"
	case elf.COMPRESS_ZSTD:
		return "zstd decompression"
	default:
		return fmt.Sprintf("decompression (%v)", t)
	}
}

// inflateError says which section failed to inflate, how and why; a stream
// that ends early says so with the sizes rather than as a bare EOF.
func inflateError(f *elf.File, file []byte, s *elf.Section, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %s: the compressed stream ends early (offset 0x%x, size 0x%x)", s.Name, compression(f, file, s), s.Offset, s.FileSize)
	}
	return fmt.Errorf("%s: %s: %w", s.Name, compression(f, file, s), err)
}
