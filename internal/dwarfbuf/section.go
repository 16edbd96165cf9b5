package dwarfbuf

import (
	"bytes"
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/sanitrace/sanitrace/internal/inflate"
)

// maxSectionSize bounds a decompressed section.
const maxSectionSize = 1 << 32

// Section returns the contents of the named section of f, whose bytes are
// file, decompressed; nil when absent or SHT_NOBITS. A DWARF section may
// also be found under its legacy ".zdebug_" name. An uncompressed section
// is a slice of file, not a copy.
func Section(f *elf.File, file []byte, name string) ([]byte, error) {
	s := find(f, name)
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
	defer r.Close()
	// The header's size is only trusted for the allocation when the
	// compression ratio it implies is plausible: a corrupt header must not
	// make a small file allocate gigabytes.
	plausible := s.Size <= 256*s.FileSize+1<<16
	if s.Flags&elf.SHF_COMPRESSED != 0 && s.Size > 0 && s.Size < maxSectionSize && plausible {
		data := make([]byte, s.Size)
		n, err := io.ReadFull(r, data)
		if err == nil {
			err = streamEnd(r)
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

// find returns the named section of f, or a DWARF section under its
// legacy ".zdebug_" name; nil when there is neither.
func find(f *elf.File, name string) *elf.Section {
	s := f.Section(name)
	if s == nil && strings.HasPrefix(name, ".debug_") {
		s = f.Section(".zdebug_" + strings.TrimPrefix(name, ".debug_"))
	}
	return s
}

// streamEnd reads once more after a section's last byte: that reaches the
// end of the stream, where zlib checks its Adler-32 and zstd its frame,
// and a stream that fails there is as damaged as one that fails earlier.
func streamEnd(r io.Reader) error {
	var one [1]byte
	if _, err := r.Read(one[:]); err != io.EOF {
		return err
	}
	return nil
}

// openSection returns a reader of s's decompressed bytes, to be closed
// when done. A zlib stream behind an ELF compression header (Go binaries,
// --compress-debug-sections, distributions' debug files) is inflated by
// package inflate, which reads it from the mapped file and, read into a
// buffer of the section's size, inflates straight into it (on the
// bench's go-large, whose first lookup waits for its sections, about 1.5
// times as fast as klauspost/compress, which did it before); a zstd one
// (--compress-debug-sections=zstd) by klauspost/compress/zstd, five times
// as fast as debug/elf's on the same sections. Anything else, or a stream
// whose header does not parse, goes through debug/elf (and fails there
// with its error).
func openSection(f *elf.File, file []byte, s *elf.Section) io.ReadCloser {
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		hdr := uint64(12) // Elf32_Chdr
		if f.Class == elf.ELFCLASS64 {
			hdr = 24 // Elf64_Chdr
		}
		end := s.Offset + s.FileSize
		if end >= s.Offset && end <= uint64(len(file)) && s.FileSize > hdr {
			payload := file[s.Offset+hdr : end]
			switch elf.CompressionType(f.ByteOrder.Uint32(file[s.Offset:])) {
			case elf.COMPRESS_ZLIB:
				if zr, err := inflate.NewZlib(payload); err == nil {
					return io.NopCloser(zr)
				}
			case elf.COMPRESS_ZSTD:
				// One goroutine (the decoding is this one's), and a
				// window no larger than the section.
				zr, err := zstd.NewReader(bytes.NewReader(payload), zstd.WithDecoderConcurrency(1),
					zstd.WithDecoderMaxWindow(zstdWindow(s.Size)), zstd.WithDecoderMaxMemory(maxSectionSize))
				if err == nil {
					return zstdCloser{zr}
				}
			}
		}
	}
	return io.NopCloser(s.Open())
}

// zstdMaxWindow bounds the window a zstd frame may ask for: objcopy's
// frames ask a few MB, a hostile one up to zstd's 3.75 TB.
const zstdMaxWindow = 1 << 27

// zstdWindow is the largest window a section of size bytes (inflated) is
// let ask for: the power of two at or above its size, within zstd's
// least and zstdMaxWindow. A zstd encoder given its input's size (as
// objcopy's is) sizes the window so; the decoder allocates the window
// when the first block comes, and a hostile header must not make a
// section of a few bytes allocate 128 MiB.
func zstdWindow(size uint64) uint64 {
	w := uint64(zstd.MinWindowSize)
	for w < size && w < zstdMaxWindow {
		w <<= 1
	}
	return w
}

// zstdCloser closes a zstd decoder, whose Close returns nothing.
type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// Uncompressed returns where the named section's bytes lie in the file
// when they are stored as they are (not compressed, not SHT_NOBITS), so
// that a decoder can Release the pages of what it has decoded.
func Uncompressed(f *elf.File, name string) (off uint64, ok bool) {
	off, _, compressed, ok := Stored(f, name)
	return off, ok && !compressed
}

// Stored returns where the named section's bytes lie in the file, as
// they are stored, and whether they are compressed (SHF_COMPRESSED, or
// under a legacy ".zdebug_" name, as in Section); not ok when absent or
// SHT_NOBITS. A loader that has inflated or copied a section can Release
// these pages.
func Stored(f *elf.File, name string) (off, end uint64, compressed, ok bool) {
	s := find(f, name)
	if s == nil || s.Type == elf.SHT_NOBITS || s.Offset+s.FileSize < s.Offset {
		return 0, 0, false, false
	}
	compressed = s.Flags&elf.SHF_COMPRESSED != 0 || strings.HasPrefix(s.Name, ".zdebug_")
	return s.Offset, s.Offset + s.FileSize, compressed, true
}

// A Want names a section to load and where its contents go.
type Want struct {
	Name string
	Dst  *[]byte
	// Units, when set, takes a compressed (SHF_COMPRESSED) section
	// instead of Dst, inflated one DWARF unit per buffer (see Units).
	Units *Units
}

// Units is a compressed section inflated in parts that hold whole DWARF
// units: part i starts at section offset Offs[i] and holds Bufs[i] (small
// units share a part, up to minPart bytes); Starts are the section
// offsets of every unit. Once a decoder has read every unit of a part it
// can drop the buffer, as it hands back the pages of a section stored
// uncompressed; one big buffer would stay whole while any of it is used.
type Units struct {
	Offs   []uint64
	Bufs   [][]byte
	Starts []uint64
	Size   uint64 // of the inflated section
}

// minPart is the size up to which consecutive units share a part: a Go
// binary's line programs are a few hundred bytes each, and a section of
// padding would otherwise cost a part per four bytes.
const minPart = 2048

// sectionUnits inflates the named section into u when it is compressed
// with an ELF compression header whose size is plausible (the only case
// where the inflated size is known beforehand); done is false otherwise,
// and the section is to be read whole. A stream that ends early keeps the
// units read so far (the last one cut short), as Section keeps the bytes.
func sectionUnits(f *elf.File, file []byte, name string, u *Units) (done bool, err error) {
	s := find(f, name)
	if s == nil || s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_COMPRESSED == 0 ||
		s.Size == 0 || s.Size >= maxSectionSize || s.Size > 256*s.FileSize+1<<16 {
		return false, nil
	}
	r := openSection(f, file, s)
	defer r.Close()
	var off uint64
	for off < s.Size && err == nil {
		// The initial length: 4 bytes, or 0xffffffff and 8 more (DWARF64).
		var hdr [12]byte
		hlen := min(4, s.Size-off)
		size := hlen
		if _, err = io.ReadFull(r, hdr[:hlen]); err == nil && hlen == 4 {
			l := uint64(f.ByteOrder.Uint32(hdr[:4]))
			if l == 0xffffffff && s.Size-off >= 12 {
				if _, err = io.ReadFull(r, hdr[4:12]); err == nil {
					l, hlen = f.ByteOrder.Uint64(hdr[4:12]), 12
				}
			}
			// A length past the section's end takes the rest: the
			// decoder reports the unit as truncated.
			size = hlen + min(l, s.Size-off-hlen)
		}
		if err != nil {
			break
		}
		last := len(u.Bufs) - 1
		if last < 0 || uint64(cap(u.Bufs[last])-len(u.Bufs[last])) < size {
			u.Offs = append(u.Offs, off)
			u.Bufs = append(u.Bufs, make([]byte, 0, max(size, minPart)))
			last++
		}
		buf := u.Bufs[last]
		at := len(buf)
		buf = buf[:at+int(size)]
		k := copy(buf[at:], hdr[:hlen])
		var got int
		got, err = io.ReadFull(r, buf[at+k:])
		u.Bufs[last] = buf[:at+k+got]
		u.Starts = append(u.Starts, off)
		off += uint64(k + got)
	}
	if err == nil {
		err = streamEnd(r)
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	u.Size = off
	if err != nil && err != io.ErrUnexpectedEOF {
		*u = Units{}
		return true, inflateError(f, file, s, err)
	}
	return true, nil
}

// Sections loads the wanted sections of f, whose bytes are file, as
// Section does, and returns each one's error in the order of want. A
// section that fails is left empty rather than failing the whole load: a
// damaged section costs only what needs it. Compressed sections (Go
// binaries, --compress-debug-sections) are inflated concurrently, by one
// worker per CPU taking the biggest first: the biggest (.debug_info,
// one stream) bounds the load, and a goroutine per section would share
// its core with the others (go-large's 9.9 MB .debug_info is 36 ms of
// one core, its .debug_line and .debug_rnglists 29 ms together).
func Sections(f *elf.File, file []byte, want []Want) []error {
	errs := make([]error, len(want))
	load := func(i int) {
		w := want[i]
		if w.Units != nil {
			if done, err := sectionUnits(f, file, w.Name, w.Units); done {
				errs[i] = err
				return
			}
		}
		*w.Dst, errs[i] = Section(f, file, w.Name)
	}
	// The work of a section is about its stored size when compressed,
	// nothing when it is used as it is stored.
	cost := make([]uint64, len(want))
	order := make([]int, len(want))
	for i, w := range want {
		order[i] = i
		if off, end, compressed, ok := Stored(f, w.Name); ok && compressed {
			cost[i] = end - off
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	jobs := make(chan int, len(order))
	for _, i := range order {
		jobs <- i
	}
	close(jobs)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(want)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				load(i)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			*want[i].Dst = nil
			if want[i].Units != nil {
				*want[i].Units = Units{}
			}
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
