package dwarfbuf

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/klauspost/compress/flate"
	kzlib "github.com/klauspost/compress/zlib"
)

// zlibReader reads a zlib stream (RFC 1950) as klauspost/compress/zlib's
// reader does, with the same errors at the same points, but checks the
// Adler-32 with adler32Update: hash/adler32, which that reader uses, was a
// tenth of the instructions a Go binary's first lookup spends (go-large
// inflates 17 MB of DWARF before it can answer one address).
type zlibReader struct {
	r       *bytes.Reader
	flate   io.ReadCloser
	adler   uint32
	err     error
	scratch [4]byte
}

// Header facts of RFC 1950, section 2.2.
const (
	zlibDeflate   = 8
	zlibMaxWindow = 7
)

// newZlibReader reads the zlib header from r; the error is the one
// klauspost/compress/zlib.NewReader gives for it.
func newZlibReader(r *bytes.Reader) (*zlibReader, error) {
	z := &zlibReader{r: r, adler: 1}
	if err := readFull(r, z.scratch[:2]); err != nil {
		return nil, err
	}
	h := binary.BigEndian.Uint16(z.scratch[:2])
	if z.scratch[0]&0x0f != zlibDeflate || z.scratch[0]>>4 > zlibMaxWindow || h%31 != 0 {
		return nil, kzlib.ErrHeader
	}
	if z.scratch[1]&0x20 != 0 {
		// A preset dictionary: the stream's must be the empty one
		// (Adler-32 1), as no dictionary is given.
		if err := readFull(r, z.scratch[:4]); err != nil {
			return nil, err
		}
		if binary.BigEndian.Uint32(z.scratch[:4]) != 1 {
			return nil, kzlib.ErrDictionary
		}
	}
	z.flate = flate.NewReader(r)
	return z, nil
}

// readFull fills b from r; the end of r before b is full is
// io.ErrUnexpectedEOF, even before its first byte, as the zlib reader says.
func readFull(r io.Reader, b []byte) error {
	_, err := io.ReadFull(r, b)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (z *zlibReader) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	var n int
	n, z.err = z.flate.Read(p)
	z.adler = adler32Update(z.adler, p[:n])
	if z.err != io.EOF {
		return n, z.err
	}
	// The end of the deflate stream: the checksum follows.
	if err := readFull(z.r, z.scratch[:4]); err != nil {
		z.err = err
		return n, z.err
	}
	if binary.BigEndian.Uint32(z.scratch[:4]) != z.adler {
		z.err = kzlib.ErrChecksum
		return n, z.err
	}
	return n, io.EOF
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
// by p, as hash/adler32 computes it. Eight bytes are summed at a time:
// the even and the odd bytes in four 16-bit lanes each, added up over a
// block of at most 256 steps (no lane can overflow), the running total's
// prefix sums giving the second sum's share of the earlier steps.
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
