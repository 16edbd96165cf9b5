package dwarfbuf

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// A File is an ELF file's bytes: mapped read-only when the system allows
// it, so opening costs no copy and only the pages a lookup touches become
// resident; read into memory otherwise.
type File struct {
	data   []byte
	mapped bool
	// fd is the file, open for the reads of ReadAt when it is mapped; -1
	// when it is not.
	fd int
}

// maxFileSize bounds what is read into memory when mapping fails.
const maxFileSize = 1 << 32

// Map maps f, or reads it when it cannot be mapped (not a regular file,
// empty, or mmap refused). f may be closed afterwards.
func Map(f *os.File) (*File, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", f.Name(), err)
	}
	size := fi.Size()
	if fi.Mode().IsRegular() && size > 0 && size == int64(int(size)) {
		if b, fd, ok := mapFile(f, int(size)); ok {
			return &File{data: b, mapped: true, fd: fd}, nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return &File{data: b, fd: -1}, nil
}

// Memory wraps bytes already in memory (a binary read out of an archive)
// as a File; Close and Release leave them alone.
func Memory(data []byte) *File { return &File{data: data, fd: -1} }

// Bytes returns the file's contents. They are read-only, and invalid
// after Close.
func (m *File) Bytes() []byte { return m.data }

// Close unmaps the file. No slice of it may be used afterwards: a decoder
// copies every string it hands out, so only in-flight reads could.
func (m *File) Close() error {
	if m == nil || !m.mapped {
		return nil
	}
	m.mapped = false
	b := m.data
	m.data = nil
	fd := m.fd
	m.fd = -1
	return unmapFile(b, fd)
}

// Release tells the kernel that the mapped bytes [off, end) are not needed
// for now: their pages leave the process's resident set and are read back
// from the page cache if touched again. Only whole pages inside the range
// are released; a file read into memory keeps its bytes.
func (m *File) Release(off, end uint64) {
	if m == nil || !m.mapped || end > uint64(len(m.data)) {
		return
	}
	page := uint64(os.Getpagesize())
	lo := (off + page - 1) / page * page
	hi := end / page * page
	if lo >= hi {
		return
	}
	releasePages(m.data[lo:hi])
}

// CStringAt returns the NUL-terminated string at off of the file, which
// must end before end; false when it does not. A mapped file is read with
// pread rather than through the mapping: reading a name at random would
// otherwise make the 64 KB around it resident (the kernel's fault-around),
// and a big C++ binary's lookups touch all of its tens of MB of .debug_str.
func (m *File) CStringAt(off, end uint64) (string, bool) {
	if end > uint64(len(m.data)) || off >= end {
		return "", false
	}
	if m.fd < 0 {
		return CStringAt(m.data[:end], off)
	}
	var buf [256]byte
	var long []byte // the bytes before buf's when the string is longer
	for off < end {
		n, err := pread(m.fd, buf[:min(uint64(len(buf)), end-off)], int64(off))
		if err != nil || n <= 0 {
			// The mapping still reads what pread cannot.
			return CStringAt(m.data[:end], off)
		}
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			if long == nil {
				return string(buf[:i]), true
			}
			return string(append(long, buf[:i]...)), true
		}
		long = append(long, buf[:n]...)
		off += uint64(n)
	}
	return "", false
}

// NonEmptyAt reports whether the string at off of the file (see
// CStringAt) has a first byte before end that is not NUL.
func (m *File) NonEmptyAt(off, end uint64) bool {
	if end > uint64(len(m.data)) || off >= end {
		return false
	}
	if m.fd < 0 {
		return m.data[off] != 0
	}
	var b [1]byte
	if n, err := pread(m.fd, b[:], int64(off)); err != nil || n != 1 {
		return m.data[off] != 0
	}
	return b[0] != 0
}
