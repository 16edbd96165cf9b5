package cxxfilt

import "strings"

// A refForm is a mangling's numbered back reference: a lead byte, a number
// in base len(digits) where no digits is 0 and "0" is 1, and '_'.
type refForm struct {
	lead   byte
	digits string
	maxLen int // of the lead byte and the digits
}

// itaniumSubst is the Itanium ABI's substitution "S<seq-id>_".
var itaniumSubst = refForm{'S', "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 6}

// value returns the number spelled by digits (all of them f's).
func (f refForm) value(digits string) int {
	if digits == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		n = n*len(f.digits) + strings.IndexByte(f.digits, digits[i])
	}
	return n + 1
}

// spell returns the digits of v.
func (f refForm) spell(v int) string {
	if v == 0 {
		return ""
	}
	base := len(f.digits)
	v--
	s := ""
	for {
		s = string(f.digits[v%base]) + s
		v /= base
		if v == 0 {
			return s
		}
	}
}

// bump returns s with one added to every reference at or past offset from
// whose number is k or more. isRef, when not nil, is asked about each such
// candidate at offset p: whether it is a reference (and not identifier
// bytes), and whether to go on looking.
func (f refForm) bump(s string, from, k int, isRef func(p int) (ok, more bool)) string {
	var b strings.Builder
	last := 0
	for p := from; p < len(s); p++ {
		if s[p] != f.lead {
			continue
		}
		q := p + 1
		for q < len(s) && strings.IndexByte(f.digits, s[q]) >= 0 {
			q++
		}
		if q >= len(s) || s[q] != '_' || q-p > f.maxLen {
			continue
		}
		v := f.value(s[p+1 : q])
		if v < k {
			continue
		}
		if isRef != nil {
			ok, more := isRef(p)
			if !more {
				break
			}
			if !ok {
				continue
			}
		}
		b.WriteString(s[last:p])
		b.WriteByte(f.lead)
		b.WriteString(f.spell(v + 1))
		b.WriteByte('_')
		last = q + 1
		p = q
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
