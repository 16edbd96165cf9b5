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

// jsonValue is one of: string, int64, int, jsonObject, []jsonValue.
type jsonValue any

type jsonObject map[string]jsonValue

func writeJSON(b *strings.Builder, v jsonValue, indent int, pretty bool) {
	switch v := v.(type) {
	case string:
		quoteJSON(b, v)
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case jsonObject:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent+1, pretty)
			quoteJSON(b, k)
			b.WriteByte(':')
			if pretty {
				b.WriteByte(' ')
			}
			writeJSON(b, v[k], indent+1, pretty)
		}
		newline(b, indent, pretty)
		b.WriteByte('}')
	case []jsonValue:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent+1, pretty)
			writeJSON(b, e, indent+1, pretty)
		}
		newline(b, indent, pretty)
		b.WriteByte(']')
	default:
		panic(fmt.Sprintf("dropin: unexpected JSON value %T", v))
	}
}

func newline(b *strings.Builder, indent int, pretty bool) {
	if !pretty {
		return
	}
	b.WriteByte('\n')
	for i := 0; i < indent; i++ {
		b.WriteString("  ")
	}
}

// quoteJSON is llvm::json's quote(), applied after fixUTF8 (invalid UTF-8
// becomes U+FFFD, as llvm does before printing).
func quoteJSON(b *strings.Builder, s string) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		if c >= 0x20 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		switch c {
		case '\t':
			b.WriteByte('t')
		case '\n':
			b.WriteByte('n')
		case '\r':
			b.WriteByte('r')
		default:
			fmt.Fprintf(b, "u%04x", c)
		}
	}
	b.WriteByte('"')
}
