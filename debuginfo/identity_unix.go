//go:build unix

package debuginfo

import (
	"fmt"
	"os"
	"syscall"
)

// identityOf is the file's device and inode: one file named by two paths
// (merged /usr: /lib/x86_64-linux-gnu/libc.so.6 and
// /usr/lib/x86_64-linux-gnu/libc.so.6; a hard link) has one identity.
func identityOf(st os.FileInfo) (string, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%x:%x", uint64(s.Dev), uint64(s.Ino)), true
}
