// Package llvmnum parses integers as LLVM's StringRef::getAsInteger does,
// for the tools whose inputs must be read exactly as LLVM reads them
// (llvm-symbolizer's queries and options, symbolizer markup fields).
package llvmnum

import "math/bits"

// ParseUint is StringRef::getAsInteger(radix, uint64): with radix 0 the
// radix comes from the prefix (0x/0X hex, 0b/0B binary, 0o or a leading 0
// before a digit octal, else decimal); the whole string must be digits of
// the radix (letters of either case), at least one, and fit in 64 bits.
func ParseUint(s string, radix uint64) (uint64, bool) {
	if radix == 0 {
		radix, s = senseRadix(s)
	}
	if s == "" {
		return 0, false
	}
	var v uint64
	if radix == 16 {
		// The usual case: a digit is 4 bits, and v overflows exactly
		// when its top 4 bits are set before the shift.
		for i := 0; i < len(s); i++ {
			d, ok := Digit(s[i])
			if !ok || d >= 16 || v>>60 != 0 {
				return 0, false
			}
			v = v<<4 | d
		}
		return v, true
	}
	for i := 0; i < len(s); i++ {
		d, ok := Digit(s[i])
		if !ok || d >= radix {
			return 0, false
		}
		hi, lo := bits.Mul64(v, radix)
		if hi != 0 {
			return 0, false
		}
		lo, carry := bits.Add64(lo, d, 0)
		if carry != 0 {
			return 0, false
		}
		v = lo
	}
	return v, true
}

// senseRadix is LLVM's GetAutoSenseRadix: the radix s's prefix names, and
// s without it.
func senseRadix(s string) (uint64, string) {
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		return 16, s[2:]
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'):
		return 2, s[2:]
	case len(s) >= 2 && s[0] == '0' && s[1] == 'o':
		return 8, s[2:]
	case len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9':
		return 8, s[1:]
	}
	return 10, s
}

// Digit is the value of c as a digit of any radix up to 36.
func Digit(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
