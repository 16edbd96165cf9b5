package inflate

import (
	"encoding/binary"
	"fmt"
	"io"
)

// CorruptInputError is a DEFLATE stream that breaks RFC 1951: the value is
// the offset in the stream of the byte being decoded (as Go's
// compress/flate reports it).
type CorruptInputError int64

func (e CorruptInputError) Error() string {
	return fmt.Sprintf("flate: corrupt input before offset %d", int64(e))
}

// window is how far back a DEFLATE match may reach.
const window = 32 << 10

// Decoder states between two calls of decode.
const (
	stateHeader  = iota // before a block's header
	stateStored         // inside a stored block
	stateHuffman        // inside a compressed block
	stateDone           // after the final block
)

// inflater decodes a DEFLATE stream held whole in memory. It is resumable
// between any two symbols, so that it can fill a caller's buffer of any
// size: decode stops when the output is full and goes on from there
// when called again.
type inflater struct {
	in   []byte
	ip   int    // the next byte of in to load into bits
	bits uint64 // loaded bits, least significant first
	nb   uint   // how many of bits are loaded (those above are the next bytes', or zero)

	state  int
	final  bool
	stored int // bytes left in a stored block

	lit, dist       []entry         // the current block's tables
	litBuf, distBuf []entry         // room for a dynamic block's tables
	lengths         [286 + 30]uint8 // a dynamic block's code lengths

	// litNeed: the bits compress/flate wants loaded before it decodes a
	// literal/length code (its huffmanDecoder.min): the shortest code,
	// or the end of block's if longer. Where the input ends with fewer,
	// the stream is cut short for it whatever the bits left would decode
	// to, and so for this decoder.
	litNeed uint

	// A match that did not fit in the output: its length still to copy
	// and its distance.
	pendLen, pendDist int
}

// refill loads whole bytes into bits until at least 56 are loaded or the
// input is spent.
func (f *inflater) refill() { f.ip, f.bits, f.nb = load(f.in, f.ip, f.bits, f.nb) }

// load is refill over values, for huffman's loop, which keeps the stream's
// state in locals: it returns ip, bits and nb with whole bytes of in
// loaded. Eight bytes at a time while they last: the bytes above nb that
// also get loaded are the next bytes', loaded again where they are next
// time.
func load(in []byte, ip int, bits uint64, nb uint) (int, uint64, uint) {
	if ip+8 <= len(in) {
		return ip + int(63-nb)>>3, bits | binary.LittleEndian.Uint64(in[ip:])<<nb, nb | 56
	}
	for nb <= 56 && ip < len(in) {
		bits |= uint64(in[ip]) << nb
		ip++
		nb += 8
	}
	return ip, bits, nb
}

// take returns the next n bits (n ≤ 32); not ok when the input ends first.
func (f *inflater) take(n uint) (uint32, bool) {
	if f.nb < n {
		f.refill()
		if f.nb < n {
			return 0, false
		}
	}
	v := uint32(f.bits & (1<<n - 1))
	f.bits >>= n
	f.nb -= n
	return v, true
}

func (f *inflater) corrupt() error { return corruptAt(f.ip, f.nb) }

// corruptAt is the error for a stream found corrupt with its next input
// byte at ip and nb bits loaded: at the next byte not wholly consumed.
func corruptAt(ip int, nb uint) error { return CorruptInputError(int64(ip) - int64(nb>>3)) }

// alignToByte drops the bits up to the next byte boundary and hands the
// whole bytes still loaded back to the input.
func (f *inflater) alignToByte() {
	f.ip -= int(f.nb >> 3)
	f.bits, f.nb = 0, 0
}

// decode inflates into out[pos:], out[:pos] being what came before (as
// far back as a match may reach), and returns the new end of the output:
// len(out) with a nil error when out is full, io.EOF after the final
// block, io.ErrUnexpectedEOF when the input ends inside the stream, or a
// CorruptInputError. Errors are final.
func (f *inflater) decode(out []byte, pos int) (int, error) {
	for {
		if f.pendLen > 0 {
			if f.pendDist > pos {
				// The caller lost the history the match reaches back into.
				return pos, f.corrupt()
			}
			n := min(f.pendLen, len(out)-pos)
			f.pendLen -= n
			if pos = copyMatch(out, pos, f.pendDist, n); f.pendLen > 0 {
				return pos, nil
			}
		}
		switch f.state {
		case stateDone:
			return pos, io.EOF
		case stateHeader:
			if f.final {
				f.state = stateDone
				f.alignToByte()
				return pos, io.EOF
			}
			if err := f.blockHeader(); err != nil {
				return pos, err
			}
		case stateStored:
			n := min(f.stored, len(out)-pos, len(f.in)-f.ip)
			copy(out[pos:pos+n], f.in[f.ip:])
			pos += n
			f.ip += n
			f.stored -= n
			switch {
			case f.stored == 0:
				f.state = stateHeader
			case f.ip == len(f.in):
				return pos, io.ErrUnexpectedEOF
			default:
				return pos, nil // out is full
			}
		case stateHuffman:
			var err error
			if pos, err = f.huffman(out, pos); err != nil || f.state == stateHuffman {
				return pos, err
			}
		}
	}
}

// blockHeader reads a block's header (RFC 1951, 3.2.3) and, for a dynamic
// block, its code lengths (3.2.7).
func (f *inflater) blockHeader() error {
	h, ok := f.take(3)
	if !ok {
		return io.ErrUnexpectedEOF
	}
	f.final = h&1 != 0
	switch h >> 1 {
	case 0:
		f.alignToByte()
		if f.ip+4 > len(f.in) {
			return io.ErrUnexpectedEOF
		}
		n, nn := binary.LittleEndian.Uint16(f.in[f.ip:]), binary.LittleEndian.Uint16(f.in[f.ip+2:])
		if nn != ^n {
			return f.corrupt()
		}
		f.ip += 4
		f.stored, f.state = int(n), stateStored
	case 1:
		f.lit, f.dist, f.state, f.litNeed = fixedLit, fixedDist, stateHuffman, 7
	case 2:
		if err := f.dynamicTables(); err != nil {
			return err
		}
		f.state = stateHuffman
	default:
		return f.corrupt()
	}
	return nil
}

// clOrder is the order of the code-length code's lengths in a header.
var clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

func (f *inflater) dynamicTables() error {
	h, ok := f.take(14)
	if !ok {
		return io.ErrUnexpectedEOF
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > 286 || ndist > 30 {
		return f.corrupt()
	}
	var clLens [19]uint8
	for _, s := range clOrder[:nclen] {
		v, ok := f.take(3)
		if !ok {
			return io.ErrUnexpectedEOF
		}
		clLens[s] = uint8(v)
	}
	var clTable [1 << clPrimary]entry
	if _, ok := buildTable(clTable[:0], clLens[:], clBase[:], clPrimary); !ok {
		return f.corrupt()
	}
	lengths := f.lengths[:nlit+ndist]
	for i := 0; i < len(lengths); {
		if f.nb < clPrimary+7 {
			f.refill()
		}
		e := clTable[f.bits&(1<<clPrimary-1)]
		n := uint(e & 31)
		if n > f.nb {
			return io.ErrUnexpectedEOF
		}
		if e&kindMask == kindInvalid {
			return f.corrupt()
		}
		f.bits >>= n
		f.nb -= n
		sym := e >> 16
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			continue
		}
		var rep, extra uint
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				return f.corrupt()
			}
			rep, extra, v = 3, 2, lengths[i-1]
		case 17:
			rep, extra = 3, 3
		default:
			rep, extra = 11, 7
		}
		x, ok := f.take(extra)
		if !ok {
			return io.ErrUnexpectedEOF
		}
		rep += uint(x)
		if i+int(rep) > len(lengths) {
			return f.corrupt()
		}
		for range rep {
			lengths[i] = v
			i++
		}
	}
	var okLit, okDist bool
	f.litBuf, okLit = buildTable(f.litBuf, lengths[:nlit], litBase[:], litPrimary)
	f.distBuf, okDist = buildTable(f.distBuf, lengths[nlit:], distBase[:], distPrimary)
	if !okLit || !okDist {
		return f.corrupt()
	}
	f.lit, f.dist = f.litBuf, f.distBuf
	f.litNeed = 0
	for _, l := range lengths[:nlit] {
		if l != 0 && (f.litNeed == 0 || uint(l) < f.litNeed) {
			f.litNeed = uint(l)
		}
	}
	f.litNeed = max(f.litNeed, uint(lengths[256]))
	return nil
}

// huffman decodes a compressed block's symbols into out until the block
// ends (the state becomes stateHeader), out is full, or an error. The
// stream's state is kept in locals inside the loop and stored back on
// every way out.
func (f *inflater) huffman(out []byte, pos int) (int, error) {
	in, ip, bits, nb := f.in, f.ip, f.bits, f.nb
	lit, dist := f.lit, f.dist
	var err error
	for {
		// 48 bits cover a length code with its extra bits (15+5) and a
		// distance code with its own (15+13).
		if nb < 48 {
			// (Fewer than litNeed only once the input is spent.)
			if ip, bits, nb = load(in, ip, bits, nb); nb < f.litNeed {
				err = io.ErrUnexpectedEOF
				break
			}
		}
		e := lit[bits&(1<<litPrimary-1)]
		if e&kindMask == kindSub {
			e = lit[e>>16+uint32(bits>>litPrimary)&(1<<(e>>8&31)-1)]
		}
		n := uint(e & 31)
		if n > nb {
			err = io.ErrUnexpectedEOF
			break
		}
		// Out of room, a symbol that writes is left unread; the end of
		// the block is read even then, so that a stream read into a
		// buffer of its exact size ends in that read.
		if e&kindMask == kindLiteral {
			if pos >= len(out) {
				break
			}
			bits >>= n
			nb -= n
			out[pos] = byte(e >> 16)
			pos++
			continue
		}
		if e&kindMask == kindLength && pos >= len(out) {
			break
		}
		if e&kindMask != kindLength {
			if e&kindMask == kindEnd {
				bits >>= n
				nb -= n
				f.state = stateHeader
			} else {
				err = corruptAt(ip, nb)
			}
			break
		}
		extra := uint(e >> 8 & 31)
		if n+extra > nb {
			err = io.ErrUnexpectedEOF
			break
		}
		length := int(e>>16) + int(bits>>n&(1<<extra-1))
		bits >>= n + extra
		nb -= n + extra

		e = dist[bits&(1<<distPrimary-1)]
		if e&kindMask == kindSub {
			e = dist[e>>16+uint32(bits>>distPrimary)&(1<<(e>>8&31)-1)]
		}
		n = uint(e & 31)
		extra = uint(e >> 8 & 31)
		if n+extra > nb {
			err = io.ErrUnexpectedEOF
			break
		}
		if e&kindMask != kindLength {
			err = corruptAt(ip, nb)
			break
		}
		d := int(e>>16) + int(bits>>n&(1<<extra-1))
		bits >>= n + extra
		nb -= n + extra
		if d > pos {
			err = corruptAt(ip, nb)
			break
		}
		if d >= 8 && pos+length+8 <= len(out) {
			// Eight bytes at a time, the last word running past the end
			// (bytes not yet inflated, written again later): a source
			// at least eight back holds only bytes already final.
			end := pos + length
			for src := pos - d; pos < end; pos, src = pos+8, src+8 {
				binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(out[src:]))
			}
			pos = end
			continue
		}
		if room := len(out) - pos; length > room {
			// The rest waits for the next call: before anything else is
			// read, which might fail.
			f.pendLen, f.pendDist = length-room, d
			pos = copyMatch(out, pos, d, room)
			break
		}
		pos = copyMatch(out, pos, d, length)
	}
	f.ip, f.bits, f.nb = ip, bits, nb
	return pos, err
}

// copyMatch copies length bytes from d back to out[pos:], which has room
// for them, and returns the new end.
func copyMatch(out []byte, pos, d, length int) int {
	end := pos + length
	if d >= length {
		copy(out[pos:end], out[pos-d:])
		return end
	}
	// Overlapping: the source grows as it is copied, doubling each time.
	for pos < end {
		pos += copy(out[pos:end], out[pos-d:pos])
	}
	return end
}
