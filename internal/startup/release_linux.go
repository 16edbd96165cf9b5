package startup

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Release advises the kernel that the read-only mappings of the running
// executable (its text and read-only data) are not needed for now, and
// returns how many bytes they span. Their pages leave the resident set and
// come back from the page cache when touched again: being read-only and
// backed by the executable's file, they cannot lose anything. The
// writable mappings (data, bss) are left alone.
func Release() (int, error) {
	exe, err := os.Stat("/proc/self/exe")
	if err != nil {
		return 0, err
	}
	st := exe.Sys().(*syscall.Stat_t)
	id := fileID{dev: uint64(st.Dev), ino: st.Ino}
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	defer maps.Close()
	var ranges [][2]uint64
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		if lo, hi, ok := readOnlyMappingOf(sc.Bytes(), id); ok {
			ranges = append(ranges, [2]uint64{lo, hi})
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read /proc/self/maps: %w", err)
	}
	total := 0
	for _, r := range ranges {
		// By address, not through a slice: these are the program's own
		// text and data, not memory a Go value refers to.
		if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, uintptr(r[0]), uintptr(r[1]-r[0]), syscall.MADV_DONTNEED); e != 0 {
			return total, fmt.Errorf("madvise: %w", e)
		}
		total += int(r[1] - r[0])
	}
	return total, nil
}

// fileID is a file's device and inode, as stat gives them.
type fileID struct{ dev, ino uint64 }

// readOnlyMappingOf parses a line of /proc/self/maps ("lo-hi perms offset
// major:minor inode path") and reports the mapping's bounds when it is a
// private, read-only mapping of the file id.
func readOnlyMappingOf(line []byte, id fileID) (lo, hi uint64, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 6 {
		return 0, 0, false
	}
	if perms := string(f[1]); perms != "r-xp" && perms != "r--p" {
		return 0, 0, false
	}
	if n, err := strconv.ParseUint(string(f[4]), 10, 64); err != nil || n != id.ino {
		return 0, 0, false
	}
	maj, mnr, ok1 := hexPair(f[3], ':')
	if !ok1 || maj > 1<<32-1 || mnr > 1<<32-1 || unix.Mkdev(uint32(maj), uint32(mnr)) != id.dev {
		return 0, 0, false
	}
	lo, hi, ok2 := hexPair(f[0], '-')
	if !ok2 || hi <= lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// hexPair parses "a<sep>b", two hexadecimal numbers.
func hexPair(s []byte, sep byte) (a, b uint64, ok bool) {
	x, y, found := bytes.Cut(s, []byte{sep})
	a, err1 := strconv.ParseUint(string(x), 16, 64)
	b, err2 := strconv.ParseUint(string(y), 16, 64)
	return a, b, found && err1 == nil && err2 == nil
}
