package mutate

import (
	"encoding/binary"
	"fmt"
)

// Field is an integer field of a seed worth tweaking: a little-endian
// number of Size bytes at Off, or a LEB128 number when Size is 0.
type Field struct {
	Off  int
	Size int
	Name string // "shdr[3].sh_offset", for a finding's description
}

// Window is the byte range [Lo, Hi) of a seed: a section or a segment.
type Window struct {
	Lo, Hi int
	Name   string
}

// Target is a seed with what is known of its structure.
type Target struct {
	Data []byte
	// Fields are integer fields worth tweaking: headers, lengths, offsets.
	Fields []Field
	// Windows, when set, confine every edit to one of them and keep the
	// window's size, so that the rest of the file (its headers, the other
	// sections) stays as it was: a DWARF or CFI mutant is a valid ELF file
	// with one damaged section.
	Windows []Window
	// Hot are ranges where half of the byte edits go (a core file's
	// notes); edits there may change the file's size.
	Hot []Window
	// Text turns on the line mutators (logs, symbolizer markup, lws
	// records).
	Text bool
}

// Mutant is a mutated input and what was done to it, one description per
// edit.
type Mutant struct {
	Data []byte
	Ops  []string
	// Whole is 1 + the index of the donor that an edit inserted whole at a
	// line boundary (a log pasted into another, whose reports must all be
	// found), or 0.
	Whole int
}

// Mutate applies edits (at least one) to a copy of t.Data; donors are
// other seeds of the same kind, for splices.
func Mutate(r *Rand, t *Target, donors [][]byte, edits int) Mutant {
	m := Mutant{Data: append([]byte(nil), t.Data...)}
	for range max(edits, 1) {
		var op string
		if len(t.Windows) > 0 {
			op = editWindow(r, t, &m, donors)
		} else {
			op = editWhole(r, t, &m, donors)
		}
		m.Ops = append(m.Ops, op)
	}
	return m
}

// editWindow edits one window of m in place, keeping its size: what an
// edit adds past the window's end is dropped, what it removes is made up
// with zeros at the end.
func editWindow(r *Rand, t *Target, m *Mutant, donors [][]byte) string {
	w := t.Windows[r.Intn(len(t.Windows))]
	if w.Hi > len(m.Data) || w.Lo >= w.Hi {
		return "window " + w.Name + ": empty"
	}
	var fields []Field
	for _, f := range t.Fields {
		if f.Off >= w.Lo && f.Off < w.Hi {
			fields = append(fields, Field{Off: f.Off - w.Lo, Size: f.Size, Name: f.Name})
		}
	}
	b := &buf{data: append([]byte(nil), m.Data[w.Lo:w.Hi]...), base: w.Lo, fields: fields}
	op := byteEdit(r, b, donors, false)
	n := w.Hi - w.Lo
	if len(b.data) > n {
		b.data = b.data[:n]
	}
	for len(b.data) < n {
		b.data = append(b.data, 0)
	}
	copy(m.Data[w.Lo:w.Hi], b.data)
	return w.Name + ": " + op
}

func editWhole(r *Rand, t *Target, m *Mutant, donors [][]byte) string {
	b := &buf{data: m.Data, fields: t.Fields, hot: t.Hot}
	var op string
	if t.Text && r.Percent(75) {
		op = textEdit(r, b, donors)
	} else {
		op = byteEdit(r, b, donors, true)
	}
	m.Data = b.data
	if b.whole > 0 {
		m.Whole = b.whole
	}
	return op
}

// buf is the bytes an edit works on: a whole file, or a copy of one
// window whose offsets start at base.
type buf struct {
	data   []byte
	base   int
	fields []Field
	hot    []Window
	whole  int // see Mutant.Whole
}

// pos picks an offset in [0, len] (len included, for insertions), half of
// the time inside a hot range when there are any.
func (b *buf) pos(r *Rand, inclusiveEnd bool) int {
	n := len(b.data)
	if inclusiveEnd {
		n++
	}
	if len(b.hot) > 0 && r.Percent(50) {
		h := b.hot[r.Intn(len(b.hot))]
		if h.Lo >= 0 && h.Hi <= len(b.data) && h.Lo < h.Hi {
			return h.Lo + r.Intn(h.Hi-h.Lo)
		}
	}
	return r.Intn(n)
}

func (b *buf) at(off int) string { return fmt.Sprintf("0x%x", b.base+off) }

// byteEdit makes one edit that knows nothing of lines. truncate is false
// inside a window, where a cut would change the file's layout.
func byteEdit(r *Rand, b *buf, donors [][]byte, truncate bool) string {
	if len(b.data) == 0 {
		ins := interesting(r, r.Small(16))
		b.data = append(b.data, ins...)
		return fmt.Sprintf("insert %d bytes into nothing", len(ins))
	}
	for {
		switch r.Intn(12) {
		case 0, 1:
			return flip(r, b)
		case 2:
			return setBytes(r, b)
		case 3:
			return insert(r, b)
		case 4:
			return remove(r, b)
		case 5:
			if len(donors) > 0 {
				return splice(r, b, donors[r.Intn(len(donors))])
			}
		case 6:
			if truncate {
				n := r.Intn(len(b.data))
				b.data = b.data[:n]
				return "truncate at " + b.at(n)
			}
		case 7:
			return duplicate(r, b)
		case 8, 9:
			return intField(r, b)
		case 10, 11:
			return leb(r, b)
		}
	}
}

func flip(r *Rand, b *buf) string {
	p := b.pos(r, false)
	var mask byte
	for range r.Range(1, 4) {
		mask |= 1 << r.Intn(8)
	}
	b.data[p] ^= mask
	return fmt.Sprintf("flip bits %08b at %s", mask, b.at(p))
}

func setBytes(r *Rand, b *buf) string {
	p := b.pos(r, false)
	n := min(r.Small(8), len(b.data)-p)
	copy(b.data[p:p+n], interesting(r, n))
	return fmt.Sprintf("set %d bytes at %s", n, b.at(p))
}

// interesting returns n bytes: one value repeated (0, 0xff, 0x7f, 0x80,
// 1 or a random one) or random bytes.
func interesting(r *Rand, n int) []byte {
	out := make([]byte, n)
	if r.Percent(50) {
		for i := range out {
			out[i] = byte(r.Uint64())
		}
		return out
	}
	v := []byte{0, 0xff, 0x7f, 0x80, 1, byte(r.Uint64())}[r.Intn(6)]
	for i := range out {
		out[i] = v
	}
	return out
}

func insert(r *Rand, b *buf) string {
	p := b.pos(r, true)
	var ins []byte
	if r.Percent(10) {
		ins = interesting(r, r.Range(256, 4096)) // a long run
	} else {
		ins = interesting(r, r.Small(64))
	}
	b.data = splice3(b.data[:p], ins, b.data[p:])
	return fmt.Sprintf("insert %d bytes at %s", len(ins), b.at(p))
}

func remove(r *Rand, b *buf) string {
	p := b.pos(r, false)
	var n int
	if r.Percent(10) {
		n = r.Range(1, max(1, len(b.data)/4))
	} else {
		n = r.Small(64)
	}
	n = min(n, len(b.data)-p)
	b.data = splice3(b.data[:p], nil, b.data[p+n:])
	return fmt.Sprintf("delete %d bytes at %s", n, b.at(p))
}

func splice(r *Rand, b *buf, donor []byte) string {
	if len(donor) == 0 {
		return remove(r, b)
	}
	p := b.pos(r, true)
	del := min(r.Small(4096), len(b.data)-p)
	from := r.Intn(len(donor))
	n := min(r.Range(1, 4096), len(donor)-from)
	b.data = splice3(b.data[:p], donor[from:from+n], b.data[p+del:])
	return fmt.Sprintf("splice %d donor bytes over %d at %s", n, del, b.at(p))
}

func duplicate(r *Rand, b *buf) string {
	from := r.Intn(len(b.data))
	n := min(r.Range(1, 4096), len(b.data)-from)
	chunk := append([]byte(nil), b.data[from:from+n]...)
	to := b.pos(r, true)
	if r.Percent(50) {
		to = from + n // right after itself: a repeated record
	}
	times := 1
	if r.Percent(10) {
		times = r.Range(2, 64)
	}
	var ins []byte
	for range times {
		ins = append(ins, chunk...)
	}
	b.data = splice3(b.data[:to], ins, b.data[to:])
	return fmt.Sprintf("duplicate %d bytes from %s at %s x%d", n, b.at(from), b.at(to), times)
}

// splice3 returns a+mid+c in a new slice (a and c may share memory).
func splice3(a, mid, c []byte) []byte {
	out := make([]byte, 0, len(a)+len(mid)+len(c))
	out = append(out, a...)
	out = append(out, mid...)
	return append(out, c...)
}

// pickField returns a fixed-size field: a known one four times in five,
// otherwise a random offset and width.
func pickField(r *Rand, b *buf, leb bool) (Field, bool) {
	var cands []Field
	for _, f := range b.fields {
		if (f.Size == 0) == leb && f.Off+max(f.Size, 1) <= len(b.data) {
			cands = append(cands, f)
		}
	}
	if len(cands) > 0 && r.Percent(80) {
		return cands[r.Intn(len(cands))], true
	}
	size := 0
	if !leb {
		size = []int{1, 2, 4, 8}[r.Intn(4)]
	}
	if len(b.data) < max(size, 1) {
		return Field{}, false
	}
	return Field{Off: r.Intn(len(b.data) - max(size, 1) + 1), Size: size, Name: "random"}, true
}

func intField(r *Rand, b *buf) string {
	f, ok := pickField(r, b, false)
	if !ok {
		return flip(r, b)
	}
	old := getLE(b.data[f.Off:], f.Size)
	v := tweak(r, old, f.Size)
	putLE(b.data[f.Off:], f.Size, v)
	return fmt.Sprintf("set %s (%d bytes at %s) 0x%x -> 0x%x", f.Name, f.Size, b.at(f.Off), old, v)
}

// tweak returns a value near or far from old that decoders get wrong:
// zero, one, off by one, doubled, halved, the largest unsigned and signed
// values, the DWARF 64-bit escape, a flipped bit, a random number.
func tweak(r *Rand, old uint64, size int) uint64 {
	bits := 8 * size
	all := ^uint64(0) >> (64 - bits)
	var v uint64
	switch r.Intn(13) {
	case 0:
		v = 0
	case 1:
		v = 1
	case 2:
		v = old + 1
	case 3:
		v = old - 1
	case 4:
		v = old * 2
	case 5:
		v = old / 2
	case 6:
		v = all
	case 7:
		v = all >> 1 // largest signed
	case 8:
		v = 1 << (bits - 1) // smallest signed
	case 9:
		v = old ^ 1<<r.Intn(bits)
	case 10:
		v = old + uint64(r.Range(-64, 64))
	case 11:
		v = []uint64{0xffffffff, 0xfffffff0, 0x10000, 0x100000, 0x7fffffff}[r.Intn(5)]
	default:
		v = r.Uint64()
	}
	v &= all
	if v == old {
		v ^= 1
	}
	return v
}

func getLE(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func putLE(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// leb replaces the LEB128 number at a LEB field (or at a random offset)
// with another encoding: another value, an overlong or unterminated one,
// one past 64 bits. The replacement may be longer or shorter.
func leb(r *Rand, b *buf) string {
	f, ok := pickField(r, b, true)
	if !ok {
		return flip(r, b)
	}
	old, n := uleb(b.data[f.Off:])
	var enc []byte
	switch r.Intn(9) {
	case 0:
		enc = appendULEB(nil, 0)
	case 1:
		enc = appendULEB(nil, old+1)
	case 2:
		enc = appendULEB(nil, old-1)
	case 3:
		enc = appendULEB(nil, ^uint64(0))
	case 4:
		enc = appendULEB(nil, 1<<63)
	case 5: // overlong: the same value padded with continuation bytes
		enc = appendULEB(nil, old)
		enc[len(enc)-1] |= 0x80
		for range r.Range(1, 8) {
			enc = append(enc, 0x80)
		}
		enc = append(enc, 0)
	case 6: // unterminated
		enc = interesting(r, r.Range(1, 16))
		for i := range enc {
			enc[i] |= 0x80
		}
	case 7: // more than 64 bits
		for range r.Range(10, 20) {
			enc = append(enc, 0xff)
		}
		enc = append(enc, 0x7f)
	default:
		enc = appendULEB(nil, r.Uint64()>>r.Intn(64))
	}
	b.data = splice3(b.data[:f.Off], enc, b.data[f.Off+n:])
	return fmt.Sprintf("LEB128 %s at %s: %d bytes (0x%x) -> % x", f.Name, b.at(f.Off), n, old, enc)
}

// uleb decodes the unsigned LEB128 at the start of b and returns it with
// its length (at least 1 when b is not empty; a number cut by the end of b
// spans the rest of b).
func uleb(b []byte) (uint64, int) {
	var v uint64
	for i, c := range b {
		if i < 10 {
			v |= uint64(c&0x7f) << (7 * i)
		}
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, len(b)
}

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
