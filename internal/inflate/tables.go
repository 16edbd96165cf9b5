package inflate

import "math/bits"

// A table entry decodes one Huffman code. It is looked up with the next
// primary bits of the stream (least significant first); an entry of kind
// sub points instead to a subtable indexed by the bits after them.
//
//	bits  0–4   the code's length in bits (for sub: unused)
//	bits  5–7   the kind
//	bits  8–12  extra bits after the code (length and distance), or a
//	            subtable's index bits (sub)
//	bits 16–31  the literal byte, the base length or distance, or the
//	            subtable's start (sub)
type entry = uint32

const (
	kindLiteral = iota << 5 // zero, so a literal tests as e&kindMask == 0
	kindLength
	kindEnd
	kindSub
	kindInvalid
	kindMask = 7 << 5
)

// Primary index bits of the tables. A longer literal/length primary
// index means fewer subtable lookups but more entries to fill per block;
// 10 bits is zlib's (9) plus one, as libdeflate's choice of 11 for the
// same trade.
const (
	litPrimary  = 10
	distPrimary = 8
	clPrimary   = 7 // the code-length code's codes are at most 7 bits
	maxCodeLen  = 15
)

func mkEntry(kind, value, extra uint32) entry { return value<<16 | extra<<8 | kind }

// Base entries per symbol (RFC 1951, 3.2.5): what a code for the symbol
// decodes to, without the code's length, which buildTable adds.
var (
	litBase  = litBases()
	distBase = distBases()
	clBase   = clBases()
)

func litBases() (b [288]entry) {
	for s := range 256 {
		b[s] = mkEntry(kindLiteral, uint32(s), 0)
	}
	b[256] = mkEntry(kindEnd, 0, 0)
	// Lengths 3-10 have no extra bits, then each four codes one more.
	baseRuns(b[257:285], 3, 4)
	b[285] = mkEntry(kindLength, 258, 0)
	b[286] = mkEntry(kindInvalid, 0, 0)
	b[287] = mkEntry(kindInvalid, 0, 0)
	return b
}

func distBases() (b [32]entry) {
	// Distances 1-4 have no extra bits, then each two codes one more.
	baseRuns(b[:30], 1, 2)
	b[30] = mkEntry(kindInvalid, 0, 0)
	b[31] = mkEntry(kindInvalid, 0, 0)
	return b
}

// baseRuns fills dst with the length (or distance) codes of RFC 1951's
// tables: the first 2*per codes have no extra bits, and then every per
// codes one more; each code's base is the one before's plus the values
// the one before's extra bits span.
func baseRuns(dst []entry, base uint32, per int) {
	for i := range dst {
		extra := uint32(max(0, i/per-1))
		dst[i] = mkEntry(kindLength, base, extra)
		base += 1 << extra
	}
}

func clBases() (b [19]entry) {
	for s := range b {
		b[s] = mkEntry(kindLiteral, uint32(s), 0)
	}
	return b
}

// The fixed codes of RFC 1951, 3.2.6, built once.
var fixedLit, fixedDist = fixedTables()

func fixedTables() (lit, dist []entry) {
	var l [288]uint8
	for s := range l {
		switch {
		case s < 144:
			l[s] = 8
		case s < 256:
			l[s] = 9
		case s < 280:
			l[s] = 7
		default:
			l[s] = 8
		}
	}
	var d [32]uint8
	for s := range d {
		d[s] = 5
	}
	lit, _ = buildTable(nil, l[:], litBase[:], litPrimary)
	dist, _ = buildTable(nil, d[:], distBase[:], distPrimary)
	return lit, dist
}

// buildTable fills dst (reusing its room) with the decoding table of the
// canonical Huffman code whose code lengths per symbol are lengths, each
// symbol decoding to base[symbol]. Not ok when the lengths do not make a
// code Go's compress/flate accepts: over-subscribed, or incomplete other
// than one code of one bit; a code with no codes at all is accepted, and
// every lookup in it decodes as invalid.
func buildTable(dst []entry, lengths []uint8, base []entry, primary uint) ([]entry, bool) {
	var count [maxCodeLen + 1]int
	maxLen := 0
	for _, l := range lengths {
		count[l]++
		maxLen = max(maxLen, int(l))
	}
	count[0] = 0
	left := 1
	for l := 1; l <= maxCodeLen; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return dst, false
		}
	}
	complete := left == 0
	if !complete && maxLen > 1 {
		return dst, false
	}
	// The symbols in canonical order: by code length, then by symbol.
	var offs [maxCodeLen + 2]int
	for l := 1; l <= maxCodeLen; l++ {
		offs[l+1] = offs[l] + count[l]
	}
	var sorted [288]uint16
	for s, l := range lengths {
		if l != 0 {
			sorted[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	size := 1 << primary
	if cap(dst) < size {
		dst = make([]entry, size, size+size/2)
	}
	dst = dst[:size]
	if !complete {
		// One code of one bit, or none: the other patterns are invalid,
		// one bit long (a stream cut there reads as cut short) or, with
		// no code at all, none (invalid whatever follows).
		inv := mkEntry(kindInvalid, 0, 0) | entry(maxLen)
		for i := range dst {
			dst[i] = inv
		}
	}
	code, i := 0, 0
	for l := 1; l <= min(maxLen, int(primary)); l++ {
		for range count[l] {
			e := base[sorted[i]] | entry(l)
			for j := reverse(code, l); j < size; j += 1 << l {
				dst[j] = e
			}
			i++
			code++
		}
		code <<= 1
	}
	// Codes longer than the primary index: codes sharing their first
	// primary bits are consecutive in canonical order and share a
	// subtable, sized (as zlib's inflate_table does) for the codes left.
	remaining := count
	prefix, start, sub := -1, 0, 0
	for l := int(primary) + 1; l <= maxLen; l++ {
		for range count[l] {
			if p := code >> (l - int(primary)); p != prefix {
				prefix = p
				sub = l - int(primary)
				for room := 1 << sub; sub+int(primary) < maxLen; {
					room -= remaining[sub+int(primary)]
					if room <= 0 {
						break
					}
					sub++
					room <<= 1
				}
				start = len(dst)
				dst = append(dst, make([]entry, 1<<sub)...)
				dst[reverse(p, int(primary))] = mkEntry(kindSub, uint32(start), uint32(sub))
			}
			e := base[sorted[i]] | entry(l)
			rest := l - int(primary)
			for j := reverse(code&(1<<rest-1), rest); j < 1<<sub; j += 1 << rest {
				dst[start+j] = e
			}
			remaining[l]--
			i++
			code++
		}
		code <<= 1
	}
	return dst, true
}

// reverse returns the n low bits of code in reverse order: codes are
// defined most significant bit first, the stream is read least first.
func reverse(code, n int) int {
	return int(bits.Reverse16(uint16(code)) >> (16 - n))
}
