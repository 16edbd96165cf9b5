package debuginfod

import (
	"os"
	"syscall"
	"time"
)

// accessTime is the file's last access, the age elfutils cleans by.
func accessTime(fi os.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Atim.Sec, st.Atim.Nsec)
	}
	return fi.ModTime()
}
