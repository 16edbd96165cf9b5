package symbolize

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// mappedFile is an ELF file's bytes: mapped read-only when the system
// allows it, so opening costs no copy and only the pages a lookup touches
// become resident; read into memory otherwise.
type mappedFile struct {
	data   []byte
	mapped bool
}

// maxFileSize bounds what is read into memory when mapping fails.
const maxFileSize = 1 << 32

func mapFile(f *os.File) (*mappedFile, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", f.Name(), err)
	}
	size := fi.Size()
	if fi.Mode().IsRegular() && size > 0 && size == int64(int(size)) {
		if b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE); err == nil {
			return &mappedFile{data: b, mapped: true}, nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return &mappedFile{data: b}, nil
}

// close unmaps the file. No slice of it may be used afterwards: the engine
// copies every string it hands out, so only in-flight lookups could.
func (m *mappedFile) close() error {
	if m == nil || !m.mapped {
		return nil
	}
	m.mapped = false
	b := m.data
	m.data = nil
	return syscall.Munmap(b)
}

// release tells the kernel that the mapped bytes [off, end) are not needed
// for now: their pages leave the process's resident set and are read back
// from the page cache if touched again. Only whole pages inside the range
// are released.
func (m *mappedFile) release(off, end uint64) {
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
