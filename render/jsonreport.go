package render

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/wire"
)

// appendReport appends r as the decode writer prints a report: the bytes
// encoding/json's Encoder gives with SetEscapeHTML(false) and
// SetIndent(jsonPrefix, jsonIndent), without its final newline. Written
// by hand because through reflection and a second pass to indent, that
// Encoder was the larger half of decode --format json's CPU; the two
// libraries tried (goccy/go-json, segmentio/encoding) gave the same bytes
// but were as slow indenting (docs/performance.md). The keys and
// their order are wire.Report's: a field added there must be added here,
// and TestAppendReportAsEncodingJSON (and its fuzz twin) fail until it is.
func appendReport(dst []byte, r *wire.Report) []byte {
	o := jsonOut{b: dst}
	o.open('{')
	o.reportMembers(r)
	o.close('}')
	return o.b
}

// appendBatchReport appends r as WriteBatchJSON's encoding/json Encoder
// writes an element of the "reports" array (the decode writer's layout):
// the members of the embedded wire.Report, then the batch's own. Through
// reflection and the second pass to indent, encoding/json took a quarter
// of a batch run's CPU (docs/performance.md); TestAppendBatchReport and
// FuzzAppendReport hold the bytes to its.
func appendBatchReport(dst []byte, r *wire.BatchReport) []byte {
	o := jsonOut{b: dst}
	o.open('{')
	o.reportMembers(&r.Report)
	o.key("source")
	o.open('{')
	o.key("path")
	o.str(r.Source.Path)
	o.key("member")
	o.strPtr(r.Source.Member)
	o.optInt("first_line", r.Source.FirstLine)
	o.optInt("last_line", r.Source.LastLine)
	o.close('}')
	o.key("bucket")
	o.str(r.Bucket)
	o.optStr("corrupted", r.Corrupted)
	o.close('}')
	return o.b
}

// reportMembers writes r's members into the object just opened.
func (o *jsonOut) reportMembers(r *wire.Report) {
	o.key("tool")
	o.str(r.Tool)
	o.key("kind")
	o.str(r.Kind)
	o.optStr("severity", r.Severity)
	o.key("pid")
	o.intPtr(r.PID)
	o.key("headline")
	o.str(r.Headline)
	o.key("access")
	if a := r.Access; a != nil {
		o.open('{')
		o.key("op")
		o.str(a.Op)
		o.key("size")
		o.int(a.Size)
		o.key("address")
		o.str(a.Address)
		o.key("thread")
		o.str(a.Thread)
		o.close('}')
	} else {
		o.null()
	}
	o.key("location")
	o.strPtr(r.Location)
	o.key("stacks")
	o.stacks(r.Stacks)
	o.key("shadow")
	if sh := r.Shadow; sh != nil {
		o.shadow(sh)
	} else {
		o.null()
	}
	o.key("summary")
	o.strPtr(r.Summary)
	o.key("input")
	o.open('{')
	o.key("name")
	o.str(r.Input.Name)
	o.key("first_line")
	o.int(r.Input.FirstLine)
	o.key("last_line")
	o.int(r.Input.LastLine)
	o.close('}')
	if f := r.Fuzzer; f != nil {
		o.key("fuzzer")
		o.open('{')
		o.optStr("mutations", f.Mutations)
		o.optStr("base_unit", f.BaseUnit)
		o.optStr("bytes", f.Bytes)
		o.optStr("text", f.Text)
		o.optStr("artifact", f.Artifact)
		o.optStr("base64", f.Base64)
		o.close('}')
	}
	if k := r.Kernel; k != nil {
		o.key("kernel")
		o.open('{')
		o.key("cpu")
		o.intPtr(k.CPU)
		o.optStr("comm", k.Comm)
		o.optStr("tainted", k.Tainted)
		o.optStr("release", k.Release)
		o.optStr("build_id", k.BuildID)
		o.optStr("hardware", k.Hardware)
		o.close('}')
	}
}

func (o *jsonOut) stacks(stacks []wire.Stack) {
	if stacks == nil {
		o.null()
		return
	}
	o.open('[')
	for i := range stacks {
		s := &stacks[i]
		o.elem()
		o.open('{')
		o.key("title")
		o.str(s.Title)
		o.key("role")
		o.str(s.Role)
		o.key("frames")
		o.frames(s.Frames)
		o.optStr("marker", s.Marker)
		o.optStr("possibly_truncated", s.PossiblyTruncated)
		o.close('}')
	}
	o.close(']')
}

func (o *jsonOut) frames(frames []wire.Frame) {
	if frames == nil {
		o.null()
		return
	}
	o.open('[')
	for i := range frames {
		f := &frames[i]
		o.elem()
		o.open('{')
		o.key("pc")
		o.strPtr(f.PC)
		o.key("function")
		o.strPtr(f.Function)
		o.key("file")
		o.strPtr(f.File)
		o.key("line")
		o.int(f.Line)
		o.key("column")
		o.int(f.Column)
		o.key("module")
		o.strPtr(f.Module)
		o.key("offset")
		o.strPtr(f.Offset)
		o.optStr("build_id", f.BuildID)
		o.key("inlined")
		o.bool(f.Inlined)
		o.key("symbolized")
		o.str(f.Symbolized)
		if f.SymbolOffset != nil {
			o.key("symbol_offset")
			o.str(*f.SymbolOffset)
		}
		if f.SymbolSize != nil {
			o.key("symbol_size")
			o.str(*f.SymbolSize)
		}
		if f.Unreliable {
			o.key("unreliable")
			o.bool(true)
		}
		o.optStr("context", f.Context)
		o.optStr("problem", f.Problem)
		if f.Unparsed {
			o.key("unparsed")
			o.bool(true)
		}
		o.optStr("raw", f.Raw)
		o.close('}')
	}
	o.close(']')
}

func (o *jsonOut) shadow(sh *wire.Shadow) {
	o.open('{')
	o.key("rows")
	if sh.Rows == nil {
		o.null()
	} else {
		o.open('[')
		for i := range sh.Rows {
			row := &sh.Rows[i]
			o.elem()
			o.open('{')
			o.key("address")
			o.str(row.Address)
			o.key("bytes")
			if row.Bytes == nil {
				o.null()
			} else {
				o.open('[')
				for _, s := range row.Bytes {
					o.elem()
					o.str(s)
				}
				o.close(']')
			}
			o.key("marked")
			o.intPtr(row.Marked)
			o.key("current")
			o.bool(row.Current)
			o.close('}')
		}
		o.close(']')
	}
	o.key("legend")
	if sh.Legend == nil {
		o.null()
	} else {
		// encoding/json writes a map's keys in sorted order.
		keys := make([]string, 0, len(sh.Legend))
		for k := range sh.Legend {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o.open('{')
		for _, k := range keys {
			o.dataKey(k)
			o.str(sh.Legend[k])
		}
		o.close('}')
	}
	o.close('}')
}

// jsonOut appends indented JSON: each member and element on a line of its
// own after jsonPrefix and one jsonIndent per level, empty objects and
// arrays as "{}" and "[]".
type jsonOut struct {
	b     []byte
	depth int
	// empty: nothing written yet in the object or array just opened.
	empty bool
}

// The decode writer's layout: a report is an element of the document's
// "reports" array, two levels in.
const (
	jsonPrefix = "    "
	jsonIndent = "  "
)

func (o *jsonOut) newline() {
	if n := 1 + len(jsonPrefix) + o.depth*len(jsonIndent); n <= len(blankLine) {
		o.b = append(o.b, blankLine[:n]...) // prefix and indents are blanks
		return
	}
	o.b = append(o.b, '\n')
	o.b = append(o.b, jsonPrefix...)
	for range o.depth {
		o.b = append(o.b, jsonIndent...)
	}
}

// blankLine is a newline and the blanks of the first levels' indentation.
var blankLine = "\n" + strings.Repeat(" ", 40)

func (o *jsonOut) open(c byte) {
	o.b = append(o.b, c)
	o.depth++
	o.empty = true
}

// close ends the object or array open; c is '}' or ']'.
func (o *jsonOut) close(c byte) {
	o.depth--
	if !o.empty {
		o.newline()
	}
	o.b = append(o.b, c)
	o.empty = false
}

// elem starts an element of the array open.
func (o *jsonOut) elem() {
	if !o.empty {
		o.b = append(o.b, ',')
	}
	o.empty = false
	o.newline()
}

// key starts a member of the object open. k is one of the document's
// own member names, which need no escaping.
func (o *jsonOut) key(k string) {
	o.elem()
	o.b = append(append(append(o.b, '"'), k...), '"', ':', ' ')
}

// dataKey starts a member whose name is the input's (a shadow legend's
// byte), escaped as any string.
func (o *jsonOut) dataKey(k string) {
	o.elem()
	o.str(k)
	o.b = append(o.b, ':', ' ')
}

func (o *jsonOut) optStr(k, s string) {
	if s != "" {
		o.key(k)
		o.str(s)
	}
}

// optInt writes member k unless n is 0 (omitempty).
func (o *jsonOut) optInt(k string, n int) {
	if n != 0 {
		o.key(k)
		o.int(n)
	}
}

func (o *jsonOut) null() { o.b = append(o.b, "null"...) }

func (o *jsonOut) int(n int) { o.b = strconv.AppendInt(o.b, int64(n), 10) }

func (o *jsonOut) bool(v bool) { o.b = strconv.AppendBool(o.b, v) }

func (o *jsonOut) intPtr(p *int) {
	if p == nil {
		o.null()
		return
	}
	o.int(*p)
}

func (o *jsonOut) strPtr(p *string) {
	if p == nil {
		o.null()
		return
	}
	o.str(*p)
}

func (o *jsonOut) str(s string) { o.b = appendJSONString(o.b, s) }

// appendJSONString appends s as a JSON string the way encoding/json spells
// it with HTML escaping off: '"' and '\\' after a backslash; the control
// bytes as \b, \f, \n, \r, \t or \u00xx; each byte that is not part of
// valid UTF-8 as \ufffd; U+2028 and U+2029 as \u2028 and \u2029 (they end
// a line in JavaScript); every other character as itself.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	done := 0 // s[:done] is in dst
	for i := plainRun(s); i < len(s); i += plainRun(s[i:]) {
		c := s[i]
		var esc string
		n := 1
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c < 0x20:
			esc = `\u00` + string(hexDigit[c>>4]) + string(hexDigit[c&0xf])
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			n = size
			switch {
			case r == utf8.RuneError && size == 1:
				esc = `\ufffd`
			case r == '\u2028':
				esc = `\u2028`
			case r == '\u2029':
				esc = `\u2029`
			default:
				i += size // a valid character: itself
				continue
			}
		}
		dst = append(append(dst, s[done:i]...), esc...)
		i += n
		done = i
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

// plainRun returns the length of the run of plain bytes (see jsonPlain)
// that s starts with: eight at a time while a word of them is, then a
// byte at a time. A report's strings are mostly plain ASCII, and a loop
// that tested each byte and went on to escape it was a sixth of decode's
// JSON.
func plainRun(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := s[i : i+8]
		w := uint64(v[0]) | uint64(v[1])<<8 | uint64(v[2])<<16 | uint64(v[3])<<24 |
			uint64(v[4])<<32 | uint64(v[5])<<40 | uint64(v[6])<<48 | uint64(v[7])<<56
		quote, backslash := w^('"'*ones), w^('\\'*ones) // zero where the byte is one
		// A byte below 0x20, a quote or a backslash (now zero), or from
		// 0x80 up sets its high bit in one of the terms; borrows only flag
		// more in a word already flagged.
		if ((w-0x20*ones)&^w|(quote-ones)&^quote|(backslash-ones)&^backslash|w)&highs != 0 {
			break
		}
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

const hexDigit = "0123456789abcdef"

// jsonPlain tells the ASCII bytes a JSON string holds as themselves: one
// look-up per byte of the common case.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
