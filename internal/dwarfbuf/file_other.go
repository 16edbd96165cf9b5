//go:build !unix

package dwarfbuf

import (
	"errors"
	"os"
)

// Off Unix a file is read into memory: these are never reached with a
// mapping.

func mapFile(*os.File, int) ([]byte, int, bool) { return nil, -1, false }

func unmapFile([]byte, int) error { return nil }

func releasePages([]byte) {}

func pread(int, []byte, int64) (int, error) { return 0, errors.ErrUnsupported }
