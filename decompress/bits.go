package decompress

import "encoding/binary"

// bitReader reads FORMAT.md's fields: N value bits MSB first, then one pad
// bit whose value is ignored. It never reads past limit bits.
//
// buf must extend at least readSlack bytes beyond the bitstream (zeros or
// anything: those bits are never part of a value), so that every field
// but the widest is one unaligned 64-bit load.
type bitReader struct {
	buf   []byte
	pos   int // next bit, counted from the MSB of buf[0]
	limit int // 8 * len(bitstream)
}

// readSlack is how far buf must extend past the bitstream.
const readSlack = 8

// field reads a width-bit value and its pad bit; ok is false when the
// stream ends first (the caller names the field in its error).
func (r *bitReader) field(width int) (v uint64, ok bool) {
	pos := r.pos
	if pos+width+1 > r.limit {
		return 0, false
	}
	r.pos = pos + width + 1 // the pad bit is skipped
	if width <= 57 {        // 7 bits of offset + 57 fit one load
		w := binary.BigEndian.Uint64(r.buf[pos>>3:]) << uint(pos&7)
		return w >> uint(64-width), true // width 0 gives 0: Go shifts by 64 to 0
	}
	for width > 0 {
		b := r.buf[pos>>3]
		avail := 8 - pos&7
		take := min(avail, width)
		v = v<<take | uint64(b>>(avail-take))&(1<<take-1)
		pos += take
		width -= take
	}
	return v, true
}

// peek returns the next width (<= 57) bits without consuming them; ok is
// false when fewer remain.
func (r *bitReader) peek(width int) (v uint64, ok bool) {
	if r.pos+width > r.limit {
		return 0, false
	}
	w := binary.BigEndian.Uint64(r.buf[r.pos>>3:]) << uint(r.pos&7)
	return w >> uint(64-width), true
}

// bitWriter writes fields with a zero pad bit after each, MSB first.
type bitWriter struct {
	buf []byte
	pos int // bits written
}

func (w *bitWriter) field(width int, v uint64) {
	for i := width - 1; i >= -1; i-- { // i == -1 is the pad bit, always 0
		if w.pos&7 == 0 {
			w.buf = append(w.buf, 0)
		}
		if i >= 0 && v>>uint(i)&1 != 0 {
			w.buf[len(w.buf)-1] |= 0x80 >> uint(w.pos&7)
		}
		w.pos++
	}
}

// sigbits is lws_sigbits: the bit length of v, 1 for zero.
func sigbits(v uint64) int {
	n := 1
	for v >>= 1; v != 0; v >>= 1 {
		n++
	}
	return n
}
