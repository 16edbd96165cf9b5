package dropin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The JSON output must match llvm::json byte for byte: keys sorted, no
// spaces in compact form, two-space indentation with -p, and llvm's own
// string escaping (which differs from encoding/json: no \u003c, \b, \f or
// \u2028 escapes). This small writer does exactly that.

// jsonValue is one of: string, int64, int, jsonObject, []jsonValue,
// jsonRaw.
type jsonValue any

type jsonObject map[string]jsonValue

// jsonRaw is a value already written, for the depth it is placed at.
type jsonRaw []byte

// appendJSON appends v at the given depth of indentation.
func appendJSON(b []byte, v jsonValue, indent int, pretty bool) []byte {
	switch v := v.(type) {
	case string:
		return appendQuoteJSON(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case bool:
		return strconv.AppendBool(b, v)
	case jsonRaw:
		return append(b, v...)
	case jsonObject:
		if len(v) == 0 {
			return append(b, "{}"...)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			b = appendKey(b, k, i, indent+1, pretty)
			b = appendJSON(b, v[k], indent+1, pretty)
		}
		return append(appendNewline(b, indent, pretty), '}')
	case []jsonValue:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewline(b, indent+1, pretty)
			b = appendJSON(b, e, indent+1, pretty)
		}
		return append(appendNewline(b, indent, pretty), ']')
	default:
		panic(fmt.Sprintf("dropin: unexpected JSON value %T", v))
	}
}

// appendKey appends the i-th member's key of an object whose members are
// at depth indent: the comma before it, its line, the key and the colon.
func appendKey(b []byte, k string, i, indent int, pretty bool) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	b = appendQuoteJSON(appendNewline(b, indent, pretty), k)
	b = append(b, ':')
	if pretty {
		b = append(b, ' ')
	}
	return b
}

func appendNewline(b []byte, indent int, pretty bool) []byte {
	if !pretty {
		return b
	}
	b = append(b, '\n')
	for i := 0; i < indent; i++ {
		b = append(b, "  "...)
	}
	return b
}

// appendQuoteJSON is llvm::json's quote(), applied after fixUTF8 (invalid
// UTF-8 becomes U+FFFD, as llvm does before printing).
func appendQuoteJSON(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		if c >= 0x20 {
			b = append(b, c)
			continue
		}
		b = append(b, '\\')
		switch c {
		case '\t':
			b = append(b, 't')
		case '\n':
			b = append(b, 'n')
		case '\r':
			b = append(b, 'r')
		default:
			b = fmt.Appendf(b, "u%04x", c)
		}
	}
	return append(b, '"')
}
