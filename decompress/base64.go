package decompress

import (
	"slices"
	"strconv"
)

// Base64 as FORMAT.md §6.3 rules 4 and 5 define it: the standard alphabet
// plus the URL-safe spellings '-' and '_', '=' padding optional, a dangling
// single character rejected, non-zero unused tail bits accepted.

const (
	b64Invalid = 0xff
	b64Pad     = 0xfe
)

// b64Table maps a byte to its 6-bit value, b64Pad for '=' or b64Invalid.
// It is computed once and never written afterwards.
var b64Table = func() (t [256]byte) {
	for i := range t {
		t[i] = b64Invalid
	}
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(std); i++ {
		t[std[i]] = byte(i)
	}
	t['-'] = 62
	t['_'] = 63
	t['='] = b64Pad
	return t
}()

const b64Std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// maxPayload is the longest payload that can possibly be valid: the 16-bit
// length trailer counts at most 65535 bytes, which is 87380 characters.
const maxPayload = (65535 + 2) / 3 * 4

// appendBase64Decode decodes payload onto dst. It is the hot path, so it
// decodes first and only classifies the error (slowly, in field order)
// when something is wrong.
func appendBase64Decode(dst, payload []byte) ([]byte, error) {
	n := len(payload)
	for n > 0 && payload[n-1] == '=' {
		n--
	}
	data := payload[:n]
	if len(payload)-n > 2 || (len(payload) != n && len(payload)%4 != 0) || n%4 == 1 {
		return dst, base64Error(payload)
	}
	// Write the whole groups in place: append per byte is measurably slower.
	groups := len(data) / 4
	start := len(dst)
	dst = slices.Grow(dst, groups*3+2)[:start+groups*3]
	out := dst[start:]
	i := 0
	for g := 0; g < groups; g++ {
		q := data[i : i+4 : i+4]
		a, b, c, d := b64Table[q[0]], b64Table[q[1]], b64Table[q[2]], b64Table[q[3]]
		if (a|b|c|d)&0x80 != 0 {
			return dst[:start], base64Error(payload)
		}
		v := uint32(a)<<18 | uint32(b)<<12 | uint32(c)<<6 | uint32(d)
		o := out[3*g : 3*g+3 : 3*g+3]
		o[0], o[1], o[2] = byte(v>>16), byte(v>>8), byte(v)
		i += 4
	}
	switch len(data) - i {
	case 2:
		a, b := b64Table[data[i]], b64Table[data[i+1]]
		if (a|b)&0x80 != 0 {
			return dst, base64Error(payload)
		}
		dst = append(dst, a<<2|b>>4)
	case 3:
		a, b, c := b64Table[data[i]], b64Table[data[i+1]], b64Table[data[i+2]]
		if (a|b|c)&0x80 != 0 {
			return dst, base64Error(payload)
		}
		v := uint32(a)<<18 | uint32(b)<<12 | uint32(c)<<6
		dst = append(dst, byte(v>>16), byte(v>>8))
	}
	return dst, nil
}

// classifyBase64 names what is wrong with a payload, checking in FORMAT.md's
// order: characters first, then padding. It returns nil for valid base64.
func classifyBase64(payload []byte) error {
	firstPad := -1
	for i, c := range payload {
		switch b64Table[c] {
		case b64Invalid:
			return errorf(ErrBadBase64Char, "character %s at payload offset %d is not base64", quoteByte(payload, i), i)
		case b64Pad:
			if firstPad < 0 {
				firstPad = i
			}
		}
	}
	if firstPad >= 0 {
		for _, c := range payload[firstPad:] {
			if c != '=' {
				return errorf(ErrBadBase64Padding, "'=' before the end of the payload")
			}
		}
		if len(payload)-firstPad > 2 {
			return errorf(ErrBadBase64Padding, "more than two '=' characters")
		}
		if len(payload)%4 != 0 {
			return errorf(ErrBadBase64Padding, "padded payload length %d is not a multiple of 4", len(payload))
		}
	}
	if len(payload)%4 == 1 {
		return errorf(ErrBadBase64Padding, "dangling base64 character (length %d is 1 mod 4)", len(payload))
	}
	return nil
}

// base64Error classifies a payload the fast path refused. classifyBase64
// always finds the fault then; the fallback keeps a mistake in either
// function from turning into silent acceptance.
func base64Error(payload []byte) error {
	if err := classifyBase64(payload); err != nil {
		return err
	}
	return errorf(ErrBadBase64Char, "payload is not base64")
}

// quoteByte shows the offending character: the whole UTF-8 sequence when it
// starts one, else a Go-quoted byte.
func quoteByte(p []byte, i int) string {
	if p[i] >= 0x80 {
		end := i + 1
		for end < len(p) && end < i+4 && p[end]&0xc0 == 0x80 {
			end++
		}
		return strconv.QuoteRune([]rune(string(p[i:end]))[0])
	}
	return strconv.QuoteRune(rune(p[i]))
}

// appendBase64Encode appends standard, '='-padded base64 of src to dst.
func appendBase64Encode(dst, src []byte) []byte {
	i := 0
	for ; i+3 <= len(src); i += 3 {
		v := uint32(src[i])<<16 | uint32(src[i+1])<<8 | uint32(src[i+2])
		dst = append(dst, b64Std[v>>18&63], b64Std[v>>12&63], b64Std[v>>6&63], b64Std[v&63])
	}
	switch len(src) - i {
	case 1:
		v := uint32(src[i]) << 16
		dst = append(dst, b64Std[v>>18&63], b64Std[v>>12&63], '=', '=')
	case 2:
		v := uint32(src[i])<<16 | uint32(src[i+1])<<8
		dst = append(dst, b64Std[v>>18&63], b64Std[v>>12&63], b64Std[v>>6&63], '=')
	}
	return dst
}
