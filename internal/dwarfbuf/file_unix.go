//go:build unix

package dwarfbuf

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f read-only, with a duplicate of its
// descriptor for pread (-1 if dup failed); false when mmap refuses.
func mapFile(f *os.File, size int) (data []byte, fd int, ok bool) {
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, -1, false
	}
	fd, err = unix.Dup(int(f.Fd()))
	if err != nil {
		return b, -1, true
	}
	unix.CloseOnExec(fd)
	return b, fd, true
}

// unmapFile undoes mapFile.
func unmapFile(data []byte, fd int) error {
	if fd >= 0 {
		unix.Close(fd)
	}
	return unix.Munmap(data)
}

// releasePages hands the whole pages of a mapping back to the kernel.
func releasePages(b []byte) { unix.Madvise(b, unix.MADV_DONTNEED) }

func pread(fd int, b []byte, off int64) (int, error) { return unix.Pread(fd, b, off) }
