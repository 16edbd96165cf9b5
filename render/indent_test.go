package render

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendIndent: on any valid JSON, compacted as encoding/json writes
// it, appendIndent gives json.Indent's bytes.
func FuzzAppendIndent(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,{"b":"c\"]}{,:"}],"e":{},"f":[],"g":null}`,
		`[[],{},[[]],"\\",""]`,
		`{"tool":"AddressSanitizer","stacks":[{"frames":[{"pc":"0x1","function":"f(int, char const*)"}]}],"raw":"a\u0000b"}`,
		`"x"`, `1`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		var c bytes.Buffer
		if err := json.Compact(&c, in); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, c.Bytes(), "    ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndent(nil, c.Bytes(), "    ", "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("appendIndent(%s) =\n%s\njson.Indent:\n%s", c.Bytes(), got, want.Bytes())
		}
	})
}
