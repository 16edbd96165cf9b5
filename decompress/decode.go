package decompress

import (
	"fmt"
	"slices"
)

// MaxDepth is the largest number of frames the 5-bit depth field holds.
const MaxDepth = 31

// Backtrace is one decoded record: the allocation size and the captured
// return addresses, innermost (closest to the allocation) first.
type Backtrace struct {
	Size uint64
	PCs  []uint64
}

// Decoder decodes records into buffers it reuses: the Backtrace a call
// returns (its PCs) is valid until the next call. The zero value is ready to
// use; a Decoder is not safe for concurrent use.
type Decoder struct {
	blob []byte
	pcs  []uint64
}

// field names for truncation errors, in stream order
const (
	fDepth = iota
	fKind
	fLitCount
	fLitValue
	fBack
	fSign
	fDeltaCount
	fDeltaValue
	fSizeCount
	fSizeValue
)

var fieldNames = [...]string{
	fDepth:      "depth",
	fKind:       "kind",
	fLitCount:   "literal bit count",
	fLitValue:   "literal value",
	fBack:       "delta back",
	fSign:       "delta sign",
	fDeltaCount: "delta bit count",
	fDeltaValue: "delta value",
	fSizeCount:  "alloc size bit count",
	fSizeValue:  "alloc size value",
}

func truncated(r *bitReader, field, frame int) error {
	name := fieldNames[field]
	if field != fDepth && field != fSizeCount && field != fSizeValue {
		name = fmt.Sprintf("frame %d %s", frame, name)
	}
	return errorf(ErrTruncated, "bitstream ended at bit %d while reading %s", r.limit, name)
}

// DecodeLine decodes the "~m#" record in a log line (FORMAT.md §6.3: ANSI
// escapes removed, any prefix before the lead-in ignored, trailing
// whitespace stripped). A line without "~m#" gives ErrNoLeadIn.
func (d *Decoder) DecodeLine(line []byte) (Backtrace, error) {
	payload, kind, ok := FindRecord(line)
	if !ok || kind != KindM {
		return Backtrace{}, errorf(ErrNoLeadIn, "line has no ~m# lead-in")
	}
	return d.DecodePayload(payload)
}

// DecodePayload decodes the base64 text after a "~m#" lead-in.
func (d *Decoder) DecodePayload(payload []byte) (Backtrace, error) {
	if len(payload) == 0 {
		return Backtrace{}, errorf(ErrEmptyPayload, "nothing after the ~m# lead-in")
	}
	if len(payload) > maxPayload {
		// Checked only after the characters, to keep FORMAT.md's order.
		if err := classifyBase64(payload); err != nil {
			return Backtrace{}, err
		}
		return Backtrace{}, errorf(ErrLengthMismatch, "payload of %d characters is longer than any 16-bit length allows", len(payload))
	}
	blob, err := appendBase64Decode(d.blob[:0], payload)
	if err != nil {
		return Backtrace{}, err
	}
	d.blob = withSlack(blob)
	return d.decodeBlob(d.blob)
}

// withSlack returns blob with at least readSlack bytes of capacity after
// it (what bitReader loads past the bitstream), growing it if needed.
func withSlack(blob []byte) []byte {
	if cap(blob)-len(blob) < readSlack {
		blob = slices.Grow(blob, readSlack)
	}
	return blob
}

// DecodeBlob decodes a binary blob: bitstream, fill, 2-byte length trailer.
func (d *Decoder) DecodeBlob(blob []byte) (Backtrace, error) {
	d.blob = withSlack(append(d.blob[:0], blob...))
	return d.decodeBlob(d.blob)
}

// decodeBlob decodes a blob that has readSlack bytes of capacity after it.
func (d *Decoder) decodeBlob(blob []byte) (Backtrace, error) {
	if len(blob) < 2 {
		return Backtrace{}, errorf(ErrBlobTooShort, "decoded payload is %d byte(s); the 2-byte length trailer alone needs 2", len(blob))
	}
	if l := int(blob[len(blob)-2])<<8 | int(blob[len(blob)-1]); l != len(blob) {
		return Backtrace{}, errorf(ErrLengthMismatch, "length trailer says %d bytes, payload decodes to %d", l, len(blob))
	}
	r := bitReader{buf: blob[:len(blob)+readSlack], limit: 8 * (len(blob) - 2)}
	depth, ok := r.field(5)
	if !ok {
		return Backtrace{}, truncated(&r, fDepth, 0)
	}
	pcs := d.pcs[:0]
	for i := 0; i < int(depth); i++ {
		kind, back, sign, n, err := frameHeader(&r, i)
		if err != nil {
			d.pcs = pcs
			return Backtrace{}, err
		}
		v, ok := r.field(int(n))
		if !ok {
			d.pcs = pcs
			if kind == 0 {
				return Backtrace{}, truncated(&r, fLitValue, i)
			}
			return Backtrace{}, truncated(&r, fDeltaValue, i)
		}
		if kind == 0 {
			pcs = append(pcs, v)
			continue
		}
		delta := v
		if int(back)+1 > i {
			d.pcs = pcs
			return Backtrace{}, errorf(ErrBadReference, "frame %d refers %d frame(s) back, only %d earlier frame(s) exist", i, back+1, i)
		}
		ref := pcs[i-int(back)-1]
		var pc uint64
		if sign == 0 {
			pc = ref + delta
			if pc < ref {
				d.pcs = pcs
				return Backtrace{}, errorf(ErrValueOutOfRange, "frame %d: %#x + %#x leaves the 64-bit range", i, ref, delta)
			}
		} else {
			if delta > ref {
				d.pcs = pcs
				return Backtrace{}, errorf(ErrValueOutOfRange, "frame %d: %#x - %#x leaves the 64-bit range", i, ref, delta)
			}
			pc = ref - delta
		}
		pcs = append(pcs, pc)
	}
	d.pcs = pcs
	n, ok := r.field(6)
	if !ok {
		return Backtrace{}, truncated(&r, fSizeCount, 0)
	}
	size, ok := r.field(int(n))
	if !ok {
		return Backtrace{}, truncated(&r, fSizeValue, 0)
	}
	// Everything after the size field (fill, user data) is ignored: §4.4.
	return Backtrace{Size: size, PCs: pcs}, nil
}

// frameHeader reads a frame's fixed-width fields: kind, and count for a
// literal; kind, back, sign and count for a delta. With 15 bits left (the
// common case) that is one load; near the end of the stream the fields are
// read one by one so that a truncation names the field.
func frameHeader(r *bitReader, frame int) (kind, back, sign, n uint64, err error) {
	if h, ok := r.peek(15); ok {
		// kind,pad | literal: count(6),pad | delta: back(3),pad,sign,pad,count(6),pad
		if h>>14 == 0 {
			r.pos += 9
			return 0, 0, 0, h >> 7 & 63, nil
		}
		r.pos += 15
		return 1, h >> 10 & 7, h >> 8 & 1, h >> 1 & 63, nil
	}
	var ok bool
	if kind, ok = r.field(1); !ok {
		return 0, 0, 0, 0, truncated(r, fKind, frame)
	}
	if kind == 0 {
		if n, ok = r.field(6); !ok {
			return 0, 0, 0, 0, truncated(r, fLitCount, frame)
		}
		return kind, 0, 0, n, nil
	}
	if back, ok = r.field(3); !ok {
		return 0, 0, 0, 0, truncated(r, fBack, frame)
	}
	if sign, ok = r.field(1); !ok {
		return 0, 0, 0, 0, truncated(r, fSign, frame)
	}
	if n, ok = r.field(6); !ok {
		return 0, 0, 0, 0, truncated(r, fDeltaCount, frame)
	}
	return kind, back, sign, n, nil
}

// DecodeLine decodes the "~m#" record in line into a new Backtrace. Use a
// Decoder to decode many lines without allocating.
func DecodeLine(line []byte) (Backtrace, error) {
	var d Decoder
	bt, err := d.DecodeLine(line)
	return bt.clone(), err
}

// DecodeBlob decodes a binary blob into a new Backtrace.
func DecodeBlob(blob []byte) (Backtrace, error) {
	var d Decoder
	bt, err := d.DecodeBlob(blob)
	return bt.clone(), err
}

func (bt Backtrace) clone() Backtrace {
	if bt.PCs != nil {
		bt.PCs = append([]uint64(nil), bt.PCs...)
	}
	return bt
}

// Equal reports whether two backtraces have the same size and pcs.
func (bt Backtrace) Equal(o Backtrace) bool {
	if bt.Size != o.Size || len(bt.PCs) != len(o.PCs) {
		return false
	}
	for i := range bt.PCs {
		if bt.PCs[i] != o.PCs[i] {
			return false
		}
	}
	return true
}
