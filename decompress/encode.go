package decompress

// MaxValue is the largest pc or size the 6-bit count fields can describe.
const MaxValue = 1<<63 - 1

// EncodeBlob appends the canonical README-era lws blob for bt to dst
// (FORMAT.md §5): bitstream, zero fill, 2-byte big-endian length. It rejects
// more than MaxDepth frames (ErrTooDeep) and values above MaxValue
// (ErrUnencodable) instead of writing the corrupt blob lws would.
func EncodeBlob(dst []byte, bt Backtrace) ([]byte, error) {
	if len(bt.PCs) > MaxDepth {
		return dst, errorf(ErrTooDeep, "%d frames; the depth field holds at most %d", len(bt.PCs), MaxDepth)
	}
	if bt.Size > MaxValue {
		return dst, errorf(ErrUnencodable, "alloc size %#x is 2^63 or more", bt.Size)
	}
	for i, pc := range bt.PCs {
		if pc > MaxValue {
			return dst, errorf(ErrUnencodable, "frame %d: pc %#x is 2^63 or more", i, pc)
		}
	}
	start := len(dst)
	w := bitWriter{buf: dst}
	w.field(5, uint64(len(bt.PCs)))
	for n, pc := range bt.PCs {
		best, bestD, bestSign := -1, uint64(0), uint64(0)
		for m := max(0, n-8); m < n; m++ {
			d, sign := pc-bt.PCs[m], uint64(0)
			if pc <= bt.PCs[m] { // equal values get sign 1, as in lws
				d, sign = bt.PCs[m]-pc, 1
			}
			if best < 0 || d < bestD { // strict: the oldest of equals wins
				best, bestD, bestSign = m, d, sign
			}
		}
		// README-era rule: a best match at frame 0 counts as no reference.
		if best > 0 && sigbits(bestD)+4 < sigbits(pc) {
			w.field(1, 1)
			w.field(3, uint64(n-best-1))
			w.field(1, bestSign)
			q := sigbits(bestD)
			w.field(6, uint64(q))
			w.field(q, bestD)
			continue
		}
		w.field(1, 0)
		ql := sigbits(pc)
		w.field(6, uint64(ql))
		w.field(ql, pc)
	}
	q := sigbits(bt.Size)
	w.field(6, uint64(q))
	w.field(q, bt.Size)
	l := len(w.buf) - start + 2
	return append(w.buf, byte(l>>8), byte(l)), nil
}

// AppendLine appends the canonical "~m#" line for bt (without a newline).
func AppendLine(dst []byte, bt Backtrace) ([]byte, error) {
	var scratch [512]byte
	blob, err := EncodeBlob(scratch[:0], bt)
	if err != nil {
		return dst, err
	}
	dst = append(dst, "~m#"...)
	return appendBase64Encode(dst, blob), nil
}

// EncodeLine returns the canonical "~m#" line for bt.
func EncodeLine(bt Backtrace) (string, error) {
	b, err := AppendLine(nil, bt)
	return string(b), err
}
