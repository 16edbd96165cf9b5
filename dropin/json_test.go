package dropin

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/symbolize"
)

// checkJSONCode holds the JSON printer's CODE answer, written member by
// member (appendCode), to the same answer built as maps (answer over
// symbol's objects) and printed by the generic writer: on stdin, one
// answer a line, and in argv's list, where each is an element.
func checkJSONCode(t *testing.T, cfg printConfig, r request, frames []symbolize.Frame) (want string) {
	t.Helper()
	ref := &jsonPrinter{cfg: cfg, out: io.Discard}
	ref.listBegin()
	syms := make([]jsonValue, 0, len(frames))
	for _, f := range frames {
		syms = append(syms, ref.symbol(f))
	}
	ref.answer(r, "Symbol", syms)
	want = string(appendJSON(nil, ref.list[0], 0, cfg.pretty)) + "\n"
	var line bytes.Buffer
	(&jsonPrinter{cfg: cfg, out: &line}).code(r, frames)
	if line.String() != want {
		t.Errorf("pretty=%v %+v %+v:\n got %q\nwant %q", cfg.pretty, r, frames, line.String(), want)
	}
	wantList := string(appendJSON(nil, []jsonValue{ref.list[0], ref.list[0]}, 0, cfg.pretty)) + "\n"
	var list bytes.Buffer
	p := &jsonPrinter{cfg: cfg, out: &list}
	p.listBegin()
	p.code(r, frames)
	p.code(r, frames)
	p.listEnd()
	if list.String() != wantList {
		t.Errorf("argv list, pretty=%v %+v %+v:\n got %q\nwant %q", cfg.pretty, r, frames, list.String(), wantList)
	}
	return want
}

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
					sources += strings.Count(checkJSONCode(t, cfg, r, fs), `"Source"`)
				}
			}
		}
	}
	if sources == 0 {
		t.Error("no answer had a Source member")
	}
}

// FuzzJSONCode is TestJSONCodeFast on any names and numbers.
func FuzzJSONCode(f *testing.F) {
	f.Add("main", "/src/a.c", "/bin/t", "", 12, 3, 4, uint64(0x1190), false)
	f.Add("inl<\"q\">\x01", "a\\b\n.h\xff", "t\x1b[0m", "sym", 0, -1, 0, uint64(0), true)
	f.Fuzz(func(t *testing.T, fn, file, module, symbol string, line, col, disc int, addr uint64, pretty bool) {
		r := request{module: module, addr: addr, hasAddr: addr != 0, symbol: symbol}
		checkJSONCode(t, printConfig{pretty: pretty}, r, []symbolize.Frame{
			{Function: fn, File: file, Line: line, Column: col, Discriminator: disc, StartFile: file, StartLine: line, StartAddress: addr, HasStartAddress: addr&1 == 0},
			{Function: file, File: fn, StartFile: invalidName},
		})
	})
}
