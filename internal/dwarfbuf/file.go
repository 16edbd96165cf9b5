package dwarfbuf

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// A File is an ELF file's bytes: mapped read-only when the system allows
// it, so opening costs no copy and only the pages a lookup touches become
// resident; read into memory otherwise.
type File struct {
	data   []byte
	mapped bool
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
		if b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE); err == nil {
			return &File{data: b, mapped: true}, nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return &File{data: b}, nil
}

// Memory wraps bytes already in memory (a binary read out of an archive)
// as a File; Close and Release leave them alone.
func Memory(data []byte) *File { return &File{data: data} }

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
	return syscall.Munmap(b)
}

// Release tells the kernel that the mapped bytes [off, end) are not needed
// for now: their pages leave the process's resident set and are read back
// from the page cache if touched again. Only whole pages inside the range
// are released; a file read into memory keeps its bytes.
func (m *File) Release(off, end uint64) {
	if m == nil || !m.mapped || end > uint64(len(m.data)) {
		return
	}
	page := uint64(syscall.Getpagesize())
	lo := (off + page - 1) / page * page
	hi := end / page * page
	if lo >= hi {
		return
	}
	syscall.Madvise(m.data[lo:hi], syscall.MADV_DONTNEED)
}
