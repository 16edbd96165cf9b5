package render

import "bytes"

// appendIndent appends the compact JSON src to dst indented exactly as
// encoding/json's Indent(dst, src, prefix, indent) does: a newline, the
// prefix and one indent per level after each '{', '[' and ',' and before
// each closing '}' or ']', ": " after keys, empty objects and arrays kept
// as "{}" and "[]". json.Indent reads its input through the full JSON
// scanner, a state machine step per byte, which cost a fifth of decode
// --format json; src here is known to be valid compact output of
// encoding/json, so only strings need to be told apart.
func appendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	needIndent := false
	newline := func(dst []byte, depth int) []byte {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for i := 0; i < depth; i++ {
			dst = append(dst, indent...)
		}
		return dst
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if needIndent && c != ']' && c != '}' {
			needIndent = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			// Copy the string whole, to its closing quote: the first quote
			// after an even number of backslashes (an odd number escapes it).
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				n := 0
				for n < j-i-1 && src[j-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			j = min(j, len(src)-1)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newline(dst, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // "{}", "[]"
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
