package inflate

import (
	"encoding/binary"
	"errors"
	"io"
)

// Errors of the zlib wrapper (RFC 1950), worded as Go's compress/zlib
// words them.
var (
	ErrHeader     = errors.New("zlib: invalid header")
	ErrDictionary = errors.New("zlib: invalid dictionary")
	ErrChecksum   = errors.New("zlib: invalid checksum")
)

// Header facts of RFC 1950, section 2.2.
const (
	zlibDeflate   = 8
	zlibMaxWindow = 7
)

// bufSize is the room a Reader inflates into after its first Read: a
// window of history and three windows more, so that sliding the history
// back costs a third of a copy per byte inflated.
const bufSize = 4 * window

// Reader reads the inflated bytes of a zlib stream held in memory.
//
// The first Read inflates straight into the caller's buffer, with no copy:
// a compressed section read whole into a buffer of its stated size is
// inflated in one pass. Later ones inflate into the Reader's own buffer
// and copy out.
type Reader struct {
	f          inflater
	buf        []byte
	start, end int // the bytes of buf inflated and not yet read
	adler      uint32
	err        error
	started    bool // the first Read is done
}

// NewZlib reads the zlib header of src; the error is io.ErrUnexpectedEOF
// for a header cut short, ErrHeader or ErrDictionary (a preset dictionary
// other than the empty one, as none is given).
func NewZlib(src []byte) (*Reader, error) {
	if len(src) < 2 {
		return nil, io.ErrUnexpectedEOF
	}
	if src[0]&0x0f != zlibDeflate || src[0]>>4 > zlibMaxWindow || binary.BigEndian.Uint16(src)%31 != 0 {
		return nil, ErrHeader
	}
	n := 2
	if src[1]&0x20 != 0 {
		if len(src) < 6 {
			return nil, io.ErrUnexpectedEOF
		}
		if binary.BigEndian.Uint32(src[2:]) != 1 {
			return nil, ErrDictionary
		}
		n = 6
	}
	return &Reader{f: inflater{in: src[n:]}, adler: 1}, nil
}

// Read reads inflated bytes into p. After the last one it returns io.EOF
// once the stream's Adler-32 has matched, ErrChecksum when it does not,
// io.ErrUnexpectedEOF when the input ends inside the stream, or a
// CorruptInputError; the bytes inflated before a failure are read first.
func (z *Reader) Read(p []byte) (int, error) {
	for {
		if z.start < z.end {
			n := copy(p, z.buf[z.start:z.end])
			z.start += n
			return n, nil
		}
		if z.err != nil || len(p) == 0 {
			return 0, z.err
		}
		if !z.started {
			z.started = true
			n, err := z.f.decode(p, 0)
			z.adler = adler32Update(z.adler, p[:n])
			z.finish(err)
			if z.err == nil {
				// More follows: keep what a match may reach back into.
				h := min(n, window)
				z.buf = make([]byte, bufSize)
				copy(z.buf, p[n-h:n])
				z.start, z.end = h, h
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		if z.end == len(z.buf) {
			copy(z.buf, z.buf[z.end-window:z.end])
			z.start, z.end = window, window
		}
		end, err := z.f.decode(z.buf, z.end)
		z.adler = adler32Update(z.adler, z.buf[z.end:end])
		z.end = end
		z.finish(err)
	}
}

// finish records how a decode call ended: at the end of the deflate
// stream the Adler-32 follows it.
func (z *Reader) finish(err error) {
	switch {
	case err == nil:
	case err != io.EOF:
		z.err = err
	case z.f.ip+4 > len(z.f.in):
		z.err = io.ErrUnexpectedEOF
	case binary.BigEndian.Uint32(z.f.in[z.f.ip:]) != z.adler:
		z.err = ErrChecksum
	default:
		z.err = io.EOF
	}
}

const adlerMod = 65521

// adlerBlock sums a block of at most 256 steps of 8 bytes: even and odd
// are the lane sums of the even and the odd bytes, total the sum of all
// bytes, prefix the sum over the steps of the total before each. (Not
// inlined: alone, its loop keeps every value in a register.)
//
//go:noinline
func adlerBlock(b []byte) (even, odd, prefix, total uint64) {
	const lanes, ones = 0x00ff00ff00ff00ff, 0x0001000100010001
	for ; len(b) >= 16; b = b[16:] {
		v, w := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:16])
		ve, vo := v&lanes, v>>8&lanes
		we, wo := w&lanes, w>>8&lanes
		even += ve + we
		odd += vo + wo
		// The sum of eight bytes: the four lanes of e+o (at most 510
		// each) added up in the top lane.
		vt := (ve + vo) * ones >> 48
		prefix += 2*total + vt
		total += vt + (we+wo)*ones>>48
	}
	if len(b) >= 8 {
		v := binary.LittleEndian.Uint64(b)
		ve, vo := v&lanes, v>>8&lanes
		even += ve
		odd += vo
		prefix += total
		total += (ve + vo) * ones >> 48
	}
	return even, odd, prefix, total
}

// adler32Update returns the Adler-32 of the bytes summed into s followed
// by p, as hash/adler32 computes it (which was a tenth of the instructions
// of a Go binary's first lookup). Eight bytes are summed at a time: the
// even and the odd bytes in four 16-bit lanes each, added up over a block
// of at most 256 steps (no lane can overflow), the running total's prefix
// sums giving the second sum's share of the earlier steps.
func adler32Update(s uint32, p []byte) uint32 {
	s1, s2 := uint64(s&0xffff), uint64(s>>16)
	for len(p) >= 8 {
		k := min(len(p)/8, 256)
		even, odd, prefix, total := adlerBlock(p[:8*k])
		// Byte j of a step adds s1 (as it was before the step) and its
		// own value 8-j times to s2.
		weighted := 8*(even&0xffff) + 6*(even>>16&0xffff) + 4*(even>>32&0xffff) + 2*(even>>48) +
			7*(odd&0xffff) + 5*(odd>>16&0xffff) + 3*(odd>>32&0xffff) + 1*(odd>>48)
		s2 = (s2 + 8*uint64(k)*s1 + 8*prefix + weighted) % adlerMod
		s1 = (s1 + total) % adlerMod
		p = p[8*k:]
	}
	for _, c := range p {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
}
