package cfi

import (
	"encoding/binary"
	"fmt"
)

// reader is a bounds-checked little/big-endian decoder over one entry of a
// CFI section. The first failure is sticky: later reads return zero, so a
// parser can read a whole header and check err once.
type reader struct {
	data []byte
	pos  int
	base int // offset of data[0] in the section, for messages
	bo   binary.ByteOrder
	err  error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at section offset 0x%x", what, r.base+r.pos)
	}
	r.pos = len(r.data)
}

func (r *reader) left() int { return len(r.data) - r.pos }

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > r.left() {
		r.fail("unexpected end of data")
		return nil
	}
	p := r.data[r.pos : r.pos+n]
	r.pos += n
	return p
}

func (r *reader) u8() uint8 {
	if r.pos < len(r.data) {
		c := r.data[r.pos]
		r.pos++
		return c
	}
	r.fail("unexpected end of data")
	return 0
}

func (r *reader) u16() uint16 {
	if p := r.bytes(2); p != nil {
		return r.bo.Uint16(p)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if p := r.bytes(4); p != nil {
		return r.bo.Uint32(p)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if p := r.bytes(8); p != nil {
		return r.bo.Uint64(p)
	}
	return 0
}

// uint reads an n-byte unsigned value (n in 1..8).
func (r *reader) uint(n int) uint64 {
	p := r.bytes(n)
	if p == nil {
		return 0
	}
	var v uint64
	if r.bo == binary.BigEndian {
		for _, c := range p {
			v = v<<8 | uint64(c)
		}
	} else {
		for i := len(p) - 1; i >= 0; i-- {
			v = v<<8 | uint64(p[i])
		}
	}
	return v
}

// sint reads an n-byte signed value, sign-extended.
func (r *reader) sint(n int) int64 {
	v := r.uint(n)
	if n > 0 && n < 8 {
		shift := uint(64 - 8*n)
		return int64(v<<shift) >> shift
	}
	return int64(v)
}

func (r *reader) uleb() uint64 {
	var v uint64
	var shift uint
	for {
		if r.pos >= len(r.data) {
			r.fail("LEB128 runs past the end")
			return 0
		}
		c := r.data[r.pos]
		r.pos++
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			return v
		}
	}
}

func (r *reader) sleb() int64 {
	var v int64
	var shift uint
	for {
		if r.pos >= len(r.data) {
			r.fail("LEB128 runs past the end")
			return 0
		}
		c := r.data[r.pos]
		r.pos++
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

// cstring reads a NUL-terminated string.
func (r *reader) cstring() string {
	for i := r.pos; i < len(r.data); i++ {
		if r.data[i] == 0 {
			s := string(r.data[r.pos:i])
			r.pos = i + 1
			return s
		}
	}
	r.fail("unterminated string")
	return ""
}
