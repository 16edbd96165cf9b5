package symbolize

import (
	"encoding/binary"
	"fmt"
)

// buf is a sticky-error little-endian decoder in the style of debug/dwarf's:
// the first error freezes it and every later read returns zero.
type buf struct {
	name string
	data []byte
	off  int // offset of data[0] within the section, for messages
	pos  int
	err  error
	bo   binary.ByteOrder
}

func (b *buf) fail(what string) {
	if b.err == nil {
		b.err = fmt.Errorf("truncated or corrupt %s at 0x%x: %s", b.name, b.off+b.pos, what)
	}
	b.pos = len(b.data)
}

func (b *buf) left() int { return len(b.data) - b.pos }

func (b *buf) bytes(n int) []byte {
	if b.err != nil || n < 0 || n > b.left() {
		b.fail("unexpected end")
		return nil
	}
	p := b.data[b.pos : b.pos+n]
	b.pos += n
	return p
}

func (b *buf) u8() uint8 {
	// fail leaves pos at the end, so pos < len also means no error.
	if b.pos < len(b.data) {
		c := b.data[b.pos]
		b.pos++
		return c
	}
	b.fail("unexpected end")
	return 0
}

func (b *buf) u16() uint16 {
	p := b.bytes(2)
	if p == nil {
		return 0
	}
	return b.bo.Uint16(p)
}

func (b *buf) u24() uint64 {
	p := b.bytes(3)
	if p == nil {
		return 0
	}
	if b.bo == binary.BigEndian {
		return uint64(p[0])<<16 | uint64(p[1])<<8 | uint64(p[2])
	}
	return uint64(p[2])<<16 | uint64(p[1])<<8 | uint64(p[0])
}

func (b *buf) u32() uint32 {
	p := b.bytes(4)
	if p == nil {
		return 0
	}
	return b.bo.Uint32(p)
}

func (b *buf) u64() uint64 {
	p := b.bytes(8)
	if p == nil {
		return 0
	}
	return b.bo.Uint64(p)
}

func (b *buf) uintN(n int) uint64 {
	switch n {
	case 1:
		return uint64(b.u8())
	case 2:
		return uint64(b.u16())
	case 4:
		return uint64(b.u32())
	case 8:
		return b.u64()
	}
	b.fail(fmt.Sprintf("unsupported size %d", n))
	return 0
}

func (b *buf) uleb() uint64 {
	var v uint64
	var shift uint
	for i := b.pos; i < len(b.data); i++ {
		c := b.data[i]
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			b.pos = i + 1
			return v
		}
	}
	b.fail("unexpected end")
	return 0
}

func (b *buf) sleb() int64 {
	var v int64
	var shift uint
	var c uint8
	for {
		c = b.u8()
		if b.err != nil {
			return 0
		}
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			break
		}
	}
	if shift < 64 && c&0x40 != 0 {
		v |= -1 << shift
	}
	return v
}

// cstring reads a NUL-terminated string.
func (b *buf) cstring() string {
	if b.err != nil {
		return ""
	}
	for i := b.pos; i < len(b.data); i++ {
		if b.data[i] == 0 {
			s := string(b.data[b.pos:i])
			b.pos = i + 1
			return s
		}
	}
	b.fail("unterminated string")
	return ""
}

// cstringAt returns the NUL-terminated string at off in sec.
func cstringAt(sec []byte, off uint64) (string, bool) {
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

var littleEndian = binary.LittleEndian
