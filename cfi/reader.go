package cfi

import (
	"encoding/binary"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// reader is the project's sticky-error DWARF byte reader.
type reader = dwarfbuf.Reader

// newReader reads data from position pos on; data is (a prefix of) the
// section called name, so offsets in errors are section offsets.
func newReader(name string, data []byte, pos int, bo binary.ByteOrder) *reader {
	r := dwarfbuf.NewReader(name, 0, data, bo)
	r.Seek(pos)
	return &r
}

// sint reads an n-byte signed integer, sign-extended.
func sint(r *reader, n int) int64 {
	v := r.UintN(n)
	if n > 0 && n < 8 {
		shift := uint(64 - 8*n)
		return int64(v<<shift) >> shift
	}
	return int64(v)
}

// stop moves r to the end of its data: the rest cannot be decoded.
func stop(r *reader) { r.Skip(r.Left()) }
