package dropin

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/symbolize"
)

// TestJSONCodeFast holds the JSON printer's CODE answer, written member by
// member (appendCode), to the same answer built as maps and printed by the
// generic writer (the path argv lists still take).
func TestJSONCodeFast(t *testing.T) {
	source := func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("one\n\"two\"\tthree\nfour\x01\n")), nil
	}
	frames := [][]symbolize.Frame{
		nil,
		{{}},
		{{Function: "main", File: "/src/a.c", Line: 12, Column: 3, StartFile: "/src/a.c", StartLine: 10, StartAddress: 0x1130, HasStartAddress: true}},
		{
			{Function: "inl<\"q\">", File: "a\\b\n.h", Line: 1, Discriminator: 4, StartFile: invalidName},
			{Function: "caller\xff", File: "", Line: 0, StartLine: -1},
			{Function: "outer", File: "/s/o.c", Line: 99, Column: 70000, HasStartAddress: true},
		},
	}
	reqs := []request{
		{module: "/bin/t", addr: 0x1190, hasAddr: true},
		{module: "t\x1b[0m", symbol: "main"},
		{module: ""},
	}
	sources := 0
	for _, pretty := range []bool{false, true} {
		for _, ctx := range []int{0, 3} {
			cfg := printConfig{pretty: pretty, contextLines: ctx, readSource: source}
			for _, r := range reqs {
				for _, fs := range frames {
					var fast bytes.Buffer
					(&jsonPrinter{cfg: cfg, out: &fast}).code(r, fs)
					var list bytes.Buffer
					p := &jsonPrinter{cfg: cfg, out: &list}
					p.listBegin()
					p.code(r, fs)
					want := string(appendJSON(nil, p.list[0], 0, pretty)) + "\n"
					sources += strings.Count(want, `"Source"`)
					if fast.String() != want {
						t.Errorf("pretty=%v context=%d %+v %+v:\n got %q\nwant %q", pretty, ctx, r, fs, fast.String(), want)
					}
				}
			}
		}
	}
	if sources == 0 {
		t.Error("no answer had a Source member")
	}
}
