package symbolize

import (
	"debug/elf"
	"fmt"
	"io"
	"strings"
	"sync"
)

// debugSections holds the raw (decompressed) DWARF sections the engine uses.
// Only these are read: elf.File.DWARF would also read and decompress
// .debug_loclists, .debug_frame, .debug_macro and friends.
type debugSections struct {
	info, abbrev, line, str, lineStr, ranges, rnglists, addr, strOffsets []byte

	// file, infoOff and lineOff locate .debug_info and .debug_line in the
	// mapped file when they are stored uncompressed (the flags say so), so
	// the pages of a unit or line table can be handed back once decoded.
	file                   *mappedFile
	infoOff, lineOff       uint64
	infoMapped, lineMapped bool
}

// sectionData returns the decompressed contents of the named DWARF section,
// accepting the legacy ".zdebug_" spelling; nil when absent. An
// uncompressed section is a slice of the mapped file, not a copy.
func sectionData(f *elf.File, file []byte, name string) ([]byte, error) {
	s := f.Section(name)
	if s == nil {
		s = f.Section(".zdebug_" + strings.TrimPrefix(name, ".debug_"))
	}
	if s == nil || s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	if s.Flags&elf.SHF_COMPRESSED == 0 && !strings.HasPrefix(s.Name, ".zdebug_") {
		end := s.Offset + s.FileSize
		if end < s.Offset || end > uint64(len(file)) {
			return nil, fmt.Errorf("read %s: section [0x%x, 0x%x) beyond the end of the file (0x%x)", s.Name, s.Offset, end, len(file))
		}
		return file[s.Offset:end:end], nil
	}
	// Section.Open handles SHF_COMPRESSED (zlib, zstd) and ".zdebug" (zlib
	// with a "ZLIB" header); each compressed section is inflated once, here.
	// For SHF_COMPRESSED, Size is the inflated size: read straight into a
	// buffer of that size rather than growing one.
	const limit = 1 << 32
	r := s.Open()
	// The header's size is only trusted for the allocation when the
	// compression ratio it implies is plausible: a corrupt header must not
	// make a small file allocate gigabytes.
	plausible := s.Size <= 256*s.FileSize+1<<16
	if s.Flags&elf.SHF_COMPRESSED != 0 && s.Size > 0 && s.Size < limit && plausible {
		data := make([]byte, s.Size)
		n, err := io.ReadFull(r, data)
		if err != nil && err != io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("read %s: %w", s.Name, err)
		}
		return data[:n], nil
	}
	data, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.Name, err)
	}
	return data, nil
}

func readDebugSections(f *elf.File, m *mappedFile) (*debugSections, error) {
	file := m.data
	var ds debugSections
	var g group
	ds.file = m
	if s := f.Section(".debug_info"); s != nil && s.Type != elf.SHT_NOBITS && s.Flags&elf.SHF_COMPRESSED == 0 {
		ds.infoMapped, ds.infoOff = true, s.Offset
	}
	if s := f.Section(".debug_line"); s != nil && s.Type != elf.SHT_NOBITS && s.Flags&elf.SHF_COMPRESSED == 0 {
		ds.lineMapped, ds.lineOff = true, s.Offset
	}
	for _, s := range []struct {
		name string
		dst  *[]byte
	}{
		{".debug_info", &ds.info},
		{".debug_abbrev", &ds.abbrev},
		{".debug_line", &ds.line},
		{".debug_str", &ds.str},
		{".debug_line_str", &ds.lineStr},
		{".debug_ranges", &ds.ranges},
		{".debug_rnglists", &ds.rnglists},
		{".debug_addr", &ds.addr},
		{".debug_str_offsets", &ds.strOffsets},
	} {
		// Compressed sections (Go binaries, --compress-debug-sections) are
		// inflated concurrently: opening is otherwise bound by one inflater.
		g.Go(func() error {
			b, err := sectionData(f, file, s.name)
			*s.dst = b
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return &ds, nil
}

// group runs functions concurrently and keeps the first error (in call
// order), like errgroup without the dependency.
type group struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

func (g *group) Go(f func() error) {
	g.mu.Lock()
	i := len(g.errs)
	g.errs = append(g.errs, nil)
	g.mu.Unlock()
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		var err error
		defer func() {
			// A decoder panic on a corrupt section must not take the
			// process down: Open's own recover does not see this goroutine.
			if p := recover(); p != nil {
				err = fmt.Errorf("corrupt section (decoder panic: %v)", p)
			}
			g.mu.Lock()
			g.errs[i] = err
			g.mu.Unlock()
		}()
		err = f()
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	for _, err := range g.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// releaseInfo and releaseLine hand the pages of [off, end) of .debug_info
// or .debug_line back to the kernel once decoded (see mappedFile.release).
func (ds *debugSections) releaseInfo(off, end uint64) {
	if ds.infoMapped && off < end {
		ds.file.release(ds.infoOff+off, ds.infoOff+end)
	}
}

func (ds *debugSections) releaseLine(off, end uint64) {
	if ds.lineMapped && off < end {
		ds.file.release(ds.lineOff+off, ds.lineOff+end)
	}
}
