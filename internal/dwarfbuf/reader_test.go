package dwarfbuf

import (
	"encoding/binary"
	"errors"
	"testing"
)

// The LEB128 examples of DWARF 5, section 7.6, figures 22 and 23.
func TestLEB128(t *testing.T) {
	for _, tc := range []struct {
		in []byte
		u  uint64
	}{
		{[]byte{0x02}, 2},
		{[]byte{0x7f}, 127},
		{[]byte{0x80, 0x01}, 128},
		{[]byte{0x81, 0x01}, 129},
		{[]byte{0x82, 0x01}, 130},
		{[]byte{0xb9, 0x64}, 12857},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1<<64 - 1},
		// Bits beyond 64 are dropped; padding still ends the number.
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0},
	} {
		r := NewReader(".test", 0, tc.in, binary.LittleEndian)
		if got := r.Uleb(); got != tc.u || r.Err() != nil || r.Left() != 0 {
			t.Errorf("Uleb(% x) = %d, err %v, %d left; want %d", tc.in, got, r.Err(), r.Left(), tc.u)
		}
	}
	for _, tc := range []struct {
		in []byte
		s  int64
	}{
		{[]byte{0x02}, 2},
		{[]byte{0x7e}, -2},
		{[]byte{0xff, 0x00}, 127},
		{[]byte{0x81, 0x7f}, -127},
		{[]byte{0x80, 0x01}, 128},
		{[]byte{0x80, 0x7f}, -128},
		{[]byte{0x81, 0x01}, 129},
		{[]byte{0xff, 0x7e}, -129},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, -1 << 63},
	} {
		r := NewReader(".test", 0, tc.in, binary.LittleEndian)
		if got := r.Sleb(); got != tc.s || r.Err() != nil || r.Left() != 0 {
			t.Errorf("Sleb(% x) = %d, err %v, %d left; want %d", tc.in, got, r.Err(), r.Left(), tc.s)
		}
	}
}

func TestFixedSize(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		r := NewReader(".test", 0, data, order)
		if got, want := r.U8(), uint8(1); got != want {
			t.Errorf("%v U8 = %#x, want %#x", order, got, want)
		}
		if got, want := r.U16(), order.Uint16(data[1:]); got != want {
			t.Errorf("%v U16 = %#x, want %#x", order, got, want)
		}
		var want24 uint64
		if order == binary.BigEndian {
			want24 = 0x040506
		} else {
			want24 = 0x060504
		}
		if got := r.U24(); got != want24 {
			t.Errorf("%v U24 = %#x, want %#x", order, got, want24)
		}
		if got, want := r.U32(), order.Uint32(data[6:]); got != want {
			t.Errorf("%v U32 = %#x, want %#x", order, got, want)
		}
		if got, want := r.UintN(8), order.Uint64(data[10:]); got != want {
			t.Errorf("%v UintN(8) = %#x, want %#x", order, got, want)
		}
		if r.Err() != nil || r.Left() != 0 || r.Offset() != 18 {
			t.Errorf("%v: err %v, %d left, offset %d; want all read", order, r.Err(), r.Left(), r.Offset())
		}
	}
}

// TestFixedSizeNearEnd: every fixed-size read, in both byte orders, from
// every position of data of every length up to 12 (where fewer than 8
// bytes are left too), decodes the bytes a byte-wise reference does, or
// fails and reads 0 when too few are left.
func TestFixedSizeNearEnd(t *testing.T) {
	all := []byte{0x81, 0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09, 0x1a, 0x2b, 0x3c}
	reads := []struct {
		n    int
		read func(r *Reader) uint64
	}{
		{2, func(r *Reader) uint64 { return uint64(r.U16()) }},
		{3, (*Reader).U24},
		{4, func(r *Reader) uint64 { return uint64(r.U32()) }},
		{8, (*Reader).U64},
		{1, func(r *Reader) uint64 { return r.UintN(1) }},
		{2, func(r *Reader) uint64 { return r.UintN(2) }},
		{4, func(r *Reader) uint64 { return r.UintN(4) }},
		{8, func(r *Reader) uint64 { return r.UintN(8) }},
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for size := 0; size <= len(all); size++ {
			data := all[:size:size] // nothing readable past the end
			for pos := 0; pos <= size; pos++ {
				for _, rd := range reads {
					var want uint64
					for i := 0; i < rd.n && pos+rd.n <= size; i++ {
						k := i
						if order == binary.LittleEndian {
							k = rd.n - 1 - i
						}
						want = want<<8 | uint64(data[pos+k])
					}
					r := NewReader(".test", 0, data, order)
					r.Skip(pos)
					got := rd.read(&r)
					if fits := pos+rd.n <= size; got != want || (r.Err() == nil) != fits || fits && r.Offset() != uint64(pos+rd.n) {
						t.Fatalf("%v: %d-byte read at %d of %d bytes = %#x, err %v, offset %d; want %#x", order, rd.n, pos, size, got, r.Err(), r.Offset(), want)
					}
				}
			}
		}
	}
}

func TestStrings(t *testing.T) {
	r := NewReader(".debug_str", 0x100, []byte("main\x00\x00rest"), binary.LittleEndian)
	if s := r.CString(); s != "main" {
		t.Errorf("CString = %q, want main", s)
	}
	if r.SkipCString(); r.Offset() != 0x106 {
		t.Errorf("after skipping an empty string offset = %#x, want 0x106", r.Offset())
	}
	if s := r.CString(); s != "" || r.Err() == nil {
		t.Errorf("unterminated CString = %q, err %v; want an error", s, r.Err())
	}
	for _, tc := range []struct {
		off  uint64
		want string
		ok   bool
	}{{0, "main", true}, {4, "", true}, {6, "", false}, {99, "", false}} {
		s, ok := CStringAt([]byte("main\x00\x00rest"), tc.off)
		if s != tc.want || ok != tc.ok {
			t.Errorf("CStringAt(%d) = %q, %v; want %q, %v", tc.off, s, ok, tc.want, tc.ok)
		}
	}
}

// TestSticky checks that the first error is kept with its place and that
// every later read returns zero.
func TestSticky(t *testing.T) {
	r := NewReader(".debug_line", 0x40, []byte{0x01, 0x02, 0x03, 0x80}, binary.LittleEndian)
	r.U16()
	r.U32() // 2 bytes left: fails at 0x42
	var de DecodeError
	if !errors.As(r.Err(), &de) || de.Section != ".debug_line" || de.Offset != 0x42 || de.Err != "unexpected end" {
		t.Fatalf("error = %#v, want a DecodeError for .debug_line at 0x42", r.Err())
	}
	if got, want := r.Err().Error(), "truncated or corrupt .debug_line at 0x42: unexpected end"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	r.Seek(0)
	r.Fail("second")
	if r.U8() != 0 || r.Uleb() != 0 || r.Bytes(1) != nil || r.Left() != 0 || r.Err().(DecodeError).Offset != 0x42 {
		t.Errorf("reads after an error: data or a new error; err %v", r.Err())
	}

	r = NewReader(".x", 0, []byte{0x80, 0x80}, binary.LittleEndian)
	if r.Sleb(); r.Err().(DecodeError).Offset != 2 {
		t.Errorf("unterminated SLEB128: %v, want an error at the end", r.Err())
	}
	r = NewReader(".x", 0, []byte{0x80, 0x80}, binary.LittleEndian)
	if r.Uleb(); r.Err().(DecodeError).Offset != 0 {
		t.Errorf("unterminated ULEB128: %v, want an error at its start", r.Err())
	}
	r = NewReader(".x", 0, []byte{1, 2, 3}, binary.LittleEndian)
	if r.UintN(3); r.Err() == nil {
		t.Error("UintN(3) read without error")
	}
	r = NewReader(".x", 0, []byte{1, 2, 3}, binary.LittleEndian)
	if r.Limit(4); r.Err() == nil {
		t.Error("Limit beyond the data without error")
	}
	r = NewReader(".x", 0, []byte{1, 2, 3}, binary.LittleEndian)
	if r.Seek(4); r.Err() == nil {
		t.Error("Seek beyond the data without error")
	}
	r = NewReader(".x", 0, []byte{1, 2, 3}, binary.LittleEndian)
	r.Limit(2)
	if r.Skip(2); r.U8() != 0 || r.Err() == nil {
		t.Error("read beyond Limit without error")
	}
}

// FuzzUleb checks Uleb against encoding/binary's Uvarint, which reads the
// same encoding, wherever the value fits 64 bits.
func FuzzUleb(f *testing.F) {
	f.Add([]byte{0xb9, 0x64})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(".fuzz", 0, data, binary.LittleEndian)
		got := r.Uleb()
		want, n := binary.Uvarint(data)
		switch {
		case n > 0:
			if got != want || r.Err() != nil || r.Pos() != n {
				t.Fatalf("Uleb(% x) = %d at %d, err %v; Uvarint = %d at %d", data, got, r.Pos(), r.Err(), want, n)
			}
		case n == 0:
			if r.Err() == nil {
				t.Fatalf("Uleb(% x): no error on unterminated input", data)
			}
		}
		r.Sleb()
		r.CString()
		r.Bytes(int(r.U8()))
	})
}

// Uleb1 reads what Uleb reads for every one-byte number and reads nothing
// for longer ones or at the end of the data.
func TestLEB128OneByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		in := []byte{byte(c), 0x01}
		full, fast := NewReader(".test", 0, in, binary.LittleEndian), NewReader(".test", 0, in, binary.LittleEndian)
		u, ok := fast.Uleb1()
		if want := full.Uleb(); ok != (c < 0x80) || ok && (u != want || fast.Pos() != full.Pos()) || !ok && fast.Pos() != 0 {
			t.Errorf("Uleb1(% x) = %d, %v at %d; Uleb %d at %d", in, u, ok, fast.Pos(), want, full.Pos())
		}
	}
	r := NewReader(".test", 0, nil, binary.LittleEndian)
	if _, ok := r.Uleb1(); ok || r.Err() != nil {
		t.Errorf("Uleb1 at the end: ok %v, err %v", ok, r.Err())
	}
}
