package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// ErrUnmapped is the error for an address that neither the core nor an
// attached mapped file holds.
var ErrUnmapped = errors.New("address not in the core's memory")

// AttachFile makes the bytes of the file that NT_FILE names path readable
// through ReadAt where the core itself omits them (the kernel does not
// dump file-backed read-only pages, and gcore skips such mappings).
// Close closes r when it is an io.Closer.
func (c *File) AttachFile(path string, r io.ReaderAt) {
	if old, ok := c.files[path]; ok {
		if cl, ok := old.(io.Closer); ok {
			cl.Close()
		}
	}
	c.files[path] = r
}

// ReadAt reads process memory at addr: from the core where it holds the
// bytes, else from the attached file of the mapping. It reads across
// adjacent segments; a short read returns an error, ErrUnmapped when the
// address is nowhere.
func (c *File) ReadAt(p []byte, addr uint64) (int, error) { return c.read(p, addr, true) }

// ReadCoreAt is ReadAt without the attached files: the bytes the core
// itself holds (used to check a module's build-id against the core).
func (c *File) ReadCoreAt(p []byte, addr uint64) (int, error) { return c.read(p, addr, false) }

// read fills p from addr on, place after place (files: the attached files
// too).
func (c *File) read(p []byte, addr uint64, files bool) (int, error) {
	n := 0
	for n < len(p) {
		m, err := c.readOne(p[n:], addr+uint64(n), files)
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, ErrUnmapped // callers name the address
		}
	}
	return n, nil
}

// readOne reads from the one place holding addr, as much as it holds.
func (c *File) readOne(p []byte, addr uint64, files bool) (int, error) {
	if s := c.segment(addr); s != nil {
		in := addr - s.vaddr
		if in < s.filesz {
			k := min(uint64(len(p)), s.filesz-in)
			m, err := c.r.ReadAt(p[:k], int64(s.off+in))
			if m > 0 || err == nil {
				return m, nil
			}
			return m, fmt.Errorf("0x%x: reading the core: %w", addr, err)
		}
		if !files {
			return 0, nil
		}
		// Past the dumped bytes: the mapped file has them, if any.
		return c.readFile(p[:min(uint64(len(p)), s.vaddr+s.memsz-addr)], addr)
	}
	if !files {
		return 0, nil
	}
	return c.readFile(p, addr)
}

// readFile reads addr from the attached file of the NT_FILE mapping
// holding it.
func (c *File) readFile(p []byte, addr uint64) (int, error) {
	i := sort.Search(len(c.Mappings), func(i int) bool { return c.Mappings[i].End > addr })
	if i == len(c.Mappings) || c.Mappings[i].Start > addr {
		return 0, nil
	}
	m := c.Mappings[i]
	r, ok := c.files[m.Path]
	if !ok {
		return 0, nil
	}
	k := min(uint64(len(p)), m.End-addr)
	n, err := r.ReadAt(p[:k], int64(m.Offset+(addr-m.Start)))
	if n > 0 {
		return n, nil
	}
	if err != nil && err != io.EOF {
		return 0, fmt.Errorf("0x%x: reading %s: %w", addr, m.Path, err)
	}
	return 0, nil
}

// segment returns the PT_LOAD segment holding addr, nil when none does.
func (c *File) segment(addr uint64) *segment {
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].vaddr+c.segs[i].memsz > addr })
	// Segments do not overlap in real cores; with overlapping ones the
	// first that holds addr wins.
	for ; i < len(c.segs); i++ {
		s := &c.segs[i]
		if s.vaddr > addr {
			return nil
		}
		if addr-s.vaddr < s.memsz {
			return s
		}
	}
	return nil
}

// Uint64 reads a little-endian word of process memory.
func (c *File) Uint64(addr uint64) (uint64, error) {
	var b [8]byte
	if _, err := c.ReadAt(b[:], addr); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// Executable reports whether addr lies in an executable part of the
// process: a PT_LOAD segment with PF_X.
func (c *File) Executable(addr uint64) bool {
	s := c.segment(addr)
	return s != nil && s.flags&pfX != 0
}

// MappingOf returns the NT_FILE mapping holding addr.
func (c *File) MappingOf(addr uint64) (Mapping, bool) {
	i := sort.Search(len(c.Mappings), func(i int) bool { return c.Mappings[i].End > addr })
	if i == len(c.Mappings) || c.Mappings[i].Start > addr {
		return Mapping{}, false
	}
	return c.Mappings[i], true
}

// ExecRanges returns the executable PT_LOAD segments of the core that lie
// in [lo, hi): where code was mapped, by the core's own account.
func (c *File) ExecRanges(lo, hi uint64) [][2]uint64 {
	var out [][2]uint64
	for _, s := range c.segs {
		if s.flags&pfX != 0 && s.vaddr >= lo && s.vaddr < hi {
			out = append(out, [2]uint64{s.vaddr, s.vaddr + s.memsz})
		}
	}
	return out
}
