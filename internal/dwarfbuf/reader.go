package dwarfbuf

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// A DecodeError reports bytes that cannot be read: a read past the end of
// the data, or a value the caller rejected with Reader.Fail.
type DecodeError struct {
	Section string // the section's name, e.g. ".debug_info"
	Offset  uint64 // where in the section the failing read started
	Err     string // what is wrong
}

func (e DecodeError) Error() string {
	return fmt.Sprintf("truncated or corrupt %s at 0x%x: %s", e.Section, e.Offset, e.Err)
}

// A Reader decodes a run of bytes from a section. The first error freezes
// it: every later read returns zero and Err returns that error, so a
// decoder checks once after a group of reads rather than after each.
//
// The fast path of each read is small enough to be inlined; the slow,
// failing path is a call.
type Reader struct {
	section string
	data    []byte
	off     uint64 // offset of data[0] within the section, for Offset and errors
	pos     int    // next byte; len(data) once an error is set
	big     bool   // big-endian fixed-size integers
	err     error
}

// NewReader returns a reader over data, which starts at offset off of the
// named section and holds integers in the given byte order.
func NewReader(section string, off uint64, data []byte, order binary.ByteOrder) Reader {
	return Reader{section: section, data: data, off: off, big: order == binary.BigEndian}
}

// Err returns the first error met, a DecodeError, or nil.
func (r *Reader) Err() error { return r.err }

// Left returns the number of bytes not yet read.
func (r *Reader) Left() int { return len(r.data) - r.pos }

// Data returns the reader's data (as shortened by Limit); Pos is the
// position of the next byte in it. A hot loop can read simple values from
// it with a local position and Seek back for anything else.
func (r *Reader) Data() []byte { return r.data }

// Pos returns the position of the next byte within the reader's data.
func (r *Reader) Pos() int { return r.pos }

// Offset returns the section offset of the next byte.
func (r *Reader) Offset() uint64 { return r.off + uint64(r.pos) }

// Seek moves to position pos within the reader's data; a position
// outside it is an error. After an error Seek does nothing: the reader
// stays stopped.
func (r *Reader) Seek(pos int) {
	if r.err == nil && pos >= 0 && pos <= len(r.data) {
		r.pos = pos
		return
	}
	r.Fail("seek beyond the data")
}

// Limit shortens the data to the next n bytes: a unit's length bounds
// what its reads may reach. More than is left is an error.
func (r *Reader) Limit(n int) {
	if n >= 0 && n <= r.Left() {
		r.data = r.data[:r.pos+n]
		return
	}
	r.Fail("length beyond the data")
}

// Fail records a decode error at the current offset unless one is already
// set, and stops the reader.
func (r *Reader) Fail(what string) {
	if r.err == nil {
		r.err = DecodeError{Section: r.section, Offset: r.Offset(), Err: what}
	}
	r.pos = len(r.data)
}

// short fails a read that runs past the end of the data.
func (r *Reader) short() { r.Fail("unexpected end") }

// Bytes returns the next n bytes, a slice of the reader's data.
func (r *Reader) Bytes(n int) []byte {
	if p := r.pos; n >= 0 && n <= len(r.data)-p && r.err == nil {
		r.pos = p + n
		return r.data[p : p+n : p+n]
	}
	r.short()
	return nil
}

// Skip moves past the next n bytes.
func (r *Reader) Skip(n int) {
	if n >= 0 && n <= len(r.data)-r.pos {
		r.pos += n
		return
	}
	r.short()
}

// U8 reads a byte.
func (r *Reader) U8() uint8 {
	// Fail leaves pos at the end, so pos < len also means no error.
	if r.pos < len(r.data) {
		c := r.data[r.pos]
		r.pos++
		return c
	}
	r.short()
	return 0
}

// fixed returns the data from the next byte on, holding at least the n
// bytes of a fixed-size integer, and moves past those n. When fewer are
// left it fails and returns zero bytes, so that the read decodes 0 as
// every read after an error does. Small enough to be inlined into each
// caller (U16 and the like stay inlinable with it).
func (r *Reader) fixed(n int) []byte {
	b := r.data[r.pos:]
	if len(b) < n {
		r.short()
		return zeros[:]
	}
	r.pos += n
	return b
}

// zeros is what fixed returns for a failed read: enough for the widest
// integer. It is only ever read.
var zeros [8]byte

// U16 reads a 2-byte integer.
func (r *Reader) U16() uint16 { return uint16(r.UintN(2)) }

// U32 reads a 4-byte integer.
func (r *Reader) U32() uint32 { return uint32(r.UintN(4)) }

// U64 reads an 8-byte integer.
func (r *Reader) U64() uint64 { return r.UintN(8) }

// UintN reads an n-byte integer, n being 1, 2, 4 or 8 (an address or
// offset size), in the data's byte order: the one decoding of the
// fixed-size reads. It loads a whole 8-byte word where the data has one
// left (near the end, the bytes left are copied into a zeroed word) and
// keeps its first n bytes: masked in little-endian data, byte-swapped and
// shifted in big-endian. It is a call, not inlined (Go prices it above
// the inliner's budget): about 2% of decoding a unit's DIEs, too little to
// show in a W1 run (docs/performance.md).
func (r *Reader) UintN(n int) uint64 {
	if n <= 0 || n > 8 || n&(n-1) != 0 {
		r.Fail(fmt.Sprintf("unsupported size %d", n))
		return 0
	}
	b := r.fixed(n)
	var v uint64
	if len(b) >= 8 {
		v = binary.LittleEndian.Uint64(b)
	} else {
		var w [8]byte
		copy(w[:], b[:n])
		v = binary.LittleEndian.Uint64(w[:])
	}
	if r.big {
		return bits.ReverseBytes64(v) >> (64 - 8*n)
	}
	return v & (1<<(8*n) - 1)
}

// U24 reads a 3-byte integer (DW_FORM_strx3, DW_FORM_addrx3).
func (r *Reader) U24() uint64 {
	b := r.fixed(3)
	if r.big {
		return uint64(b[0])<<16 | uint64(b[1])<<8 | uint64(b[2])
	}
	return uint64(b[2])<<16 | uint64(b[1])<<8 | uint64(b[0])
}

// Uleb1 reads an unsigned LEB128 number of one byte, the common case
// (abbreviation codes, columns, most constants): ok is false, and nothing
// is read, for a longer number or at the end of the data, where the
// caller goes on with Uleb. Uleb itself is too big to be inlined; this is
// small enough, so a decoder's hot loop spares the call.
func (r *Reader) Uleb1() (v uint64, ok bool) {
	if p := r.pos; p < len(r.data) {
		if c := r.data[p]; c < 0x80 {
			r.pos = p + 1
			return uint64(c), true
		}
	}
	return 0, false
}

// Uleb reads an unsigned LEB128 number; bits beyond 64 are dropped.
func (r *Reader) Uleb() uint64 {
	var v uint64
	var shift uint // a shift of 64 or more gives 0: the dropped bits
	for i := r.pos; i < len(r.data); i++ {
		c := r.data[i]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			r.pos = i + 1
			return v
		}
		shift += 7
	}
	r.short()
	return 0
}

// Sleb reads a signed LEB128 number; bits beyond 64 are dropped.
func (r *Reader) Sleb() int64 {
	var v int64
	var shift uint
	for i := r.pos; i < len(r.data); i++ {
		c := r.data[i]
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			r.pos = i + 1
			if c&0x40 != 0 {
				v |= -1 << shift // sign extension; none once shift passes 63
			}
			return v
		}
	}
	r.pos = len(r.data) // the error is reported where the data ended
	r.short()
	return 0
}

// CString reads a NUL-terminated string.
func (r *Reader) CString() string {
	if i := r.skipCString(); i >= 0 {
		return string(r.data[i : r.pos-1])
	}
	return ""
}

// SkipCString moves past a NUL-terminated string without copying it.
func (r *Reader) SkipCString() { r.skipCString() }

// skipCString moves past a NUL-terminated string and returns where it
// started, or -1 on error.
func (r *Reader) skipCString() int {
	start := r.pos
	for i := start; i < len(r.data); i++ {
		if r.data[i] == 0 {
			r.pos = i + 1
			return start
		}
	}
	r.Fail("unterminated string")
	return -1
}

// CStringAt returns the NUL-terminated string at off in sec (a string
// section such as .debug_str); false when off is outside sec or the string
// is not terminated.
func CStringAt(sec []byte, off uint64) (string, bool) {
	if off >= uint64(len(sec)) {
		return "", false
	}
	for i := off; i < uint64(len(sec)); i++ {
		if sec[i] == 0 {
			return string(sec[off:i]), true
		}
	}
	return "", false
}
