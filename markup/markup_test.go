package markup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// show renders nodes compactly: T"text" S"esc" E{tag|f1|f2}.
func show(nodes []Node) string {
	var b strings.Builder
	for _, n := range nodes {
		switch n.Kind {
		case Text:
			fmt.Fprintf(&b, "T%q@%d ", n.Text, n.Pos)
		case SGR:
			fmt.Fprintf(&b, "S%q@%d ", n.Text, n.Pos)
		case Elem:
			fmt.Fprintf(&b, "E{%s|%s}@%d ", n.Tag, strings.Join(n.Fields, "|"), n.Pos)
		}
	}
	return strings.TrimSpace(b.String())
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"plain text\n", `T"plain text\n"@0`},
		{"{{{reset}}}\n", `E{reset|}@0 T"\n"@11`},
		{"{{{bt:0:0x10}}}", `E{bt|0|0x10}@0`},
		{"SUMMARY: x {{{bt:0:0x1}}} y", `T"SUMMARY: x "@0 E{bt|0|0x1}@11 T" y"@25`},
		{"{{{bt:}}}", `E{bt|}@0`},                     // one empty field
		{"{{{bt::}}}", `E{bt||}@0`},                   // two
		{"{{{}}}{{{pc:1}}}", `T"{{{}}}"@0 E{pc|1}@6`}, // an empty tag is text
		{"{{{:x}}} a", `T"{{{:x}}} a"@0`},
		{"{{{bt:2:0x", `T"{{{bt:2:0x"@0`}, // never closed
		{"{{{{bt:1}}}}", `E{{bt|1}@0 T"}"@11`},
		{"{{{a}}}{{{b:c}}}", `E{a|}@0 E{b|c}@7`},
		{"a\033[31mred\033[0m b", `T"a"@0 S"\x1b[31m"@1 T"red"@6 S"\x1b[0m"@9 T" b"@13`},
		{"\033[38m\033[1m", `T"\x1b[38m"@0 S"\x1b[1m"@5`}, // 38 is not one of them
		{"\033[3", `T"\x1b[3"@0`},
		{"x{{{bt:1:0x2}}}\033[1m{{{pc:0x3:ra}}}\r\n", `T"x"@0 E{bt|1|0x2}@1 S"\x1b[1m"@15 E{pc|0x3|ra}@19 T"\r\n"@34`},
	} {
		var p Parser
		if got := show(p.Parse(c.line)); got != c.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", c.line, got, c.want)
		}
	}
}

// TestParseRoundTrip: the nodes of a line give the line back, and the
// fields and tags lie where the positions say.
func TestParseRoundTrip(t *testing.T) {
	var p Parser
	for _, line := range sampleLines(t) {
		checkNodes(t, line, p.Parse(line))
	}
}

func checkNodes(t *testing.T, line string, nodes []Node) {
	t.Helper()
	var b strings.Builder
	for i := range nodes {
		n := &nodes[i]
		if line[n.Pos:n.Pos+len(n.Text)] != n.Text {
			t.Fatalf("%q: node %d is not at %d", line, i, n.Pos)
		}
		b.WriteString(n.Text)
		if n.Kind != Elem {
			continue
		}
		if line[n.TagPos():n.TagEnd()] != n.Tag {
			t.Fatalf("%q: tag %q not at %d", line, n.Tag, n.TagPos())
		}
		for j, f := range n.Fields {
			if p := n.FieldPos(j); line[p:p+len(f)] != f {
				t.Fatalf("%q: field %d %q not at %d", line, j, f, p)
			}
		}
	}
	if b.String() != line {
		t.Fatalf("nodes of %q give %q", line, b.String())
	}
}

// sampleLines are the lines of the real clang-19 markup logs.
func sampleLines(t testing.TB) []string {
	t.Helper()
	var lines []string
	for _, dir := range []string{"logs", "damaged"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "samples", "markup", dir, "*.markup.log"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, strings.SplitAfter(string(b), "\n")...)
		}
	}
	if len(lines) == 0 {
		t.Fatal("no sample logs")
	}
	return lines
}

// decodeOne parses line and decodes its first element.
func decodeOne(t *testing.T, line string) (Element, error) {
	t.Helper()
	var p Parser
	for _, n := range p.Parse(line) {
		if n.Kind == Elem {
			return Decode(&n, 7)
		}
	}
	t.Fatalf("no element in %q", line)
	return Element{}, nil
}

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // the decoded fields, or the error (with its byte, from 1)
	}{
		{"{{{reset}}}", "reset"},
		{"{{{reset:x}}}", "reset warn(byte 9: expected 0 field(s); found 1)"},
		{"{{{module:0:/bin/a:elf:0A1b}}}", "module id=0 name=/bin/a build=0a1b"},
		{"{{{module:0x1f:a:elf:abc}}}", "module id=31 name=a build=0abc"},
		{"{{{module:010:a:elf:ab:extra}}}", "module id=8 name=a build=ab warn(byte 10: expected 4 field(s); found 5)"},
		{"{{{module:0:a}}}", "error(byte 10: expected at least 3 field(s); found 2)"},
		{"{{{module:x:a:elf:ab}}}", "error(byte 11: expected module ID; found 'x')"},
		{"{{{module:0:a:coff:ab}}}", "error(byte 15: unknown module type)"},
		{"{{{module:0:a:elf}}}", "error(byte 10: expected 4 field(s); found 3)"},
		{"{{{module:0:a:elf:}}}", "error(byte 19: expected build ID; found '')"},
		{"{{{module:0:a:elf:xy}}}", "error(byte 19: expected build ID; found 'xy')"},
		{"{{{mmap:0x1000:0x20:load:0:RX:0x0}}}", "mmap addr=0x1000 size=0x20 mod=0 perms=rx vaddr=0x0"},
		{"{{{mmap:0:32:load:1:w:0}}}", "mmap addr=0x0 size=0x20 mod=1 perms=w vaddr=0x0"},
		{"{{{mmap:0x10:0x20:load:0:xr:0x0}}}", "error(byte 26: expected mode; found 'xr')"},
		{"{{{mmap:0x10:0x20:load:0::0x0}}}", "error(byte 26: expected mode; found '')"},
		{"{{{mmap:0x10:0x20:load:0:r:bad}}}", "mmap addr=0x10 size=0x20 mod=0 perms=r vaddr=0x0"}, // reported by Map
		{"{{{mmap:0X10:0x20:load:0:r:0}}}", "error(byte 9: expected address; found '0X10')"},
		{"{{{mmap:0x10:z:load:0:r:0}}}", "error(byte 14: expected size; found 'z')"},
		{"{{{mmap:0x10:1:store:0:r:0}}}", "error(byte 16: unknown mmap type)"},
		{"{{{mmap:0x10:1:load:0:r}}}", "error(byte 8: expected 6 field(s); found 5)"},
		{"{{{bt:3:0x10}}}", "bt frame=3 addr=0x10 code=0xf"},
		{"{{{bt:3:0x10:pc}}}", "bt frame=3 addr=0x10 code=0x10"},
		{"{{{bt:3:0x10:ra}}}", "bt frame=3 addr=0x10 code=0xf"},
		{"{{{bt:3:0x10:ra:x}}}", "bt frame=3 addr=0x10 code=0xf warn(byte 6: expected at most 3 field(s); found 4)"},
		{"{{{bt:3:0x10:xx}}}", "error(byte 14: expected PC type; found 'xx')"},
		{"{{{bt:0x3:0x10}}}", "error(byte 7: expected frame number; found '0x3')"},
		{"{{{bt:3}}}", "error(byte 6: expected at least 2 field(s); found 1)"},
		{"{{{bt:1:0x}}}", "error(byte 9: expected address; found '0x')"},
		{"{{{bt:1:000}}}", "bt frame=1 addr=0x0 code=0xffffffffffffffff"},
		{"{{{pc:0x10}}}", "pc addr=0x10 code=0x10"},
		{"{{{pc:0x10:ra}}}", "pc addr=0x10 code=0xf"},
		{"{{{pc}}}", "error(byte 6: expected at least 1 field(s); found 0)"},
		{"{{{data:0x20}}}", "data addr=0x20"},
		{"{{{data:0x20:1}}}", "data addr=0x20 warn(byte 8: expected 1 field(s); found 2)"},
		{"{{{symbol:_Z1fv}}}", "symbol name=_Z1fv"},
		{"{{{symbol}}}", "error(byte 10: expected 1 field(s); found 0)"},
		{"{{{hexdict:a:b}}}", "hexdict"},
		{"{{{dumpfile:sancov:x}}}", "dumpfile"},
		{"{{{backtrace:1:0x1}}}", "unknown"},
	} {
		e, err := decodeOne(t, c.line)
		if got := describe(e, err); got != c.want {
			t.Errorf("Decode(%s)\n got %s\nwant %s", c.line, got, c.want)
		}
	}
}

func describe(e Element, err error) string {
	var ee *Error
	if err != nil {
		if !errors.As(err, &ee) || ee.Line != 7 {
			return fmt.Sprintf("untyped error %v", err)
		}
		return fmt.Sprintf("error(byte %d: %s)", ee.Col+1, ee.Msg)
	}
	var s string
	switch e.Kind {
	case KindReset:
		s = "reset"
	case KindModule:
		s = fmt.Sprintf("module id=%d name=%s build=%x", e.ModuleID, e.Name, e.BuildID)
	case KindMMap:
		s = fmt.Sprintf("mmap addr=%#x size=%#x mod=%d perms=%s vaddr=%#x", e.Addr, e.Size, e.ModuleID, e.Perms, e.VAddr)
	case KindBT:
		s = fmt.Sprintf("bt frame=%d addr=%#x code=%#x", e.Frame, e.Addr, e.CodeAddr())
	case KindPC:
		s = fmt.Sprintf("pc addr=%#x code=%#x", e.Addr, e.CodeAddr())
	case KindData:
		s = fmt.Sprintf("data addr=%#x", e.Addr)
	case KindSymbol:
		s = "symbol name=" + e.Name
	case KindHexdict:
		s = "hexdict"
	case KindDumpfile:
		s = "dumpfile"
	default:
		s = "unknown"
	}
	if e.Warn != nil {
		s += fmt.Sprintf(" warn(byte %d: %s)", e.Warn.Col+1, e.Warn.Msg)
	}
	return s
}

// context runs lines through a Context as a filter would, and returns
// what each contextual element and each bt/pc/data resolves to.
func context(t *testing.T, lines ...string) []string {
	t.Helper()
	var p Parser
	var c Context
	var out []string
	for _, l := range lines {
		for _, n := range p.Parse(l) {
			if n.Kind != Elem {
				continue
			}
			e, err := Decode(&n, p.Line())
			if err != nil {
				out = append(out, "decode: "+err.Error())
				continue
			}
			switch e.Kind {
			case KindReset:
				c.Reset()
				out = append(out, "reset")
			case KindModule:
				m, err := c.Declare(&e)
				if err != nil {
					out = append(out, err.Error())
					continue
				}
				out = append(out, fmt.Sprintf("module %d", m.ID))
			case KindMMap:
				m, err := c.Map(&e)
				if err != nil {
					out = append(out, err.Error())
					continue
				}
				out = append(out, fmt.Sprintf("mmap %s of %d", m, m.Module.ID))
			case KindBT, KindPC, KindData:
				loc, err := c.Locate(&e)
				if err != nil {
					out = append(out, err.Error())
					continue
				}
				out = append(out, fmt.Sprintf("%s -> module %d build %x +%#x", n.Tag, loc.Module().ID, loc.Module().BuildID, loc.Offset))
			}
		}
	}
	return out
}

func TestContext(t *testing.T) {
	got := context(t,
		"{{{module:0:a:elf:aa}}}",
		"{{{mmap:0x1000:0x1000:load:0:r:0x0}}}",
		"{{{mmap:0x3000:0x1000:load:0:rx:0x2000}}}",
		"{{{module:1:b:elf:bb}}}",
		"{{{mmap:0x2000:0x800:load:1:rx:0x0}}}",
		"{{{bt:0:0x3010}}} {{{bt:1:0x1000}}} {{{pc:0x1000}}} {{{data:0x2010}}} {{{pc:0x2800}}}",
		"{{{mmap:0x2400:0x10:load:1:r:0}}}",  // inside b's
		"{{{mmap:0x0ff0:0x20:load:1:r:0}}}",  // reaches into a's
		"{{{mmap:0x5000:0x10:load:2:r:0}}}",  // module 2 undeclared
		"{{{mmap:0x5000:0x10:load:1:r:zz}}}", // bad vaddr, reported after the module
		"{{{module:1:again:elf:cc}}}",
		"{{{reset}}}",
		"{{{bt:0:0x3010}}}",
	)
	want := []string{
		"module 0",
		"mmap [0x1000-0x1fff](r) of 0",
		"mmap [0x3000-0x3fff](rx) of 0",
		"module 1",
		"mmap [0x2000-0x27ff](rx) of 1",
		"bt -> module 0 build aa +0x200f",
		"markup line 6, byte 25: error: no mmap covers address", // 0x1000-1 is below every mmap
		"pc -> module 0 build aa +0x0",
		"data -> module 1 build bb +0x10",
		"markup line 6, byte 77: error: no mmap covers address",
		"markup line 7, byte 9: error: overlapping mmap: #0x1 [0x2000-0x27ff]",
		"markup line 8, byte 9: error: overlapping mmap: #0x0 [0x1000-0x1fff]",
		"markup line 9, byte 26: error: unknown module ID",
		"markup line 10, byte 30: error: expected address; found 'zz'",
		"markup line 11, byte 11: error: duplicate module ID",
		"reset",
		"markup line 13, byte 7: error: no mmap covers address",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestContextEmptyMMaps: a segment of size 0 contains nothing, overlaps
// nothing, and a second one at its address is the same segment (llvm's map
// by address keeps the first); an address just past the top of the address
// space wraps as llvm's does.
func TestContextEmptyMMaps(t *testing.T) {
	got := context(t,
		"{{{module:0:a:elf:aa}}}",
		"{{{mmap:0x1000:0x1000:load:0:r:0x0}}}",
		"{{{mmap:0x1800:0:load:0:r:0x0}}}", // inside a segment: overlaps it
		"{{{mmap:0x2000:0:load:0:r:0x0}}}",
		"{{{mmap:0x2000:0:load:0:w:0x0}}}",
		"{{{mmap:0x2000:0x10:load:0:x:0x0}}}",
		"{{{pc:0x2000}}} {{{pc:0x1fff}}}",
		"{{{mmap:0xfffffffffffffff0:0x20:load:0:r:0x0}}}",
		"{{{pc:0xfffffffffffffff8}}}",
	)
	want := []string{
		"module 0",
		"mmap [0x1000-0x1fff](r) of 0",
		"markup line 3, byte 9: error: overlapping mmap: #0x0 [0x1000-0x1fff]",
		"mmap [0x2000-0x1fff](r) of 0",
		"mmap [0x2000-0x1fff](r) of 0",
		"mmap [0x2000-0x1fff](r) of 0",
		"markup line 7, byte 7: error: no mmap covers address",
		"pc -> module 0 build aa +0xfff",
		"mmap [0xfffffffffffffff0-0xf](r) of 0",
		"markup line 9, byte 7: error: no mmap covers address",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestContextManyMMaps: segments declared in any order are all found, and
// each overlap is caught, also with thousands of them.
func TestContextManyMMaps(t *testing.T) {
	var c Context
	var p Parser
	declare := func(line string) error {
		n := p.Parse(line)[0]
		e, err := Decode(&n, p.Line())
		if err != nil {
			return err
		}
		switch e.Kind {
		case KindModule:
			_, err = c.Declare(&e)
		case KindMMap:
			_, err = c.Map(&e)
		}
		return err
	}
	if err := declare("{{{module:0:a:elf:aa}}}"); err != nil {
		t.Fatal(err)
	}
	const n = 5000
	for i := n - 1; i >= 0; i-- { // descending: the worst order for a sorted slice
		a := uint64(i) * 0x100
		if err := declare(fmt.Sprintf("{{{mmap:%#x:0x80:load:0:r:%#x}}}", a, a)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		a := uint64(i)*0x100 + 0x7f
		m, ok := c.Lookup(a)
		if !ok || m.Offset(a) != a {
			t.Fatalf("Lookup(%#x) = %v, %v", a, m, ok)
		}
		if _, ok := c.Lookup(a + 1); ok {
			t.Fatalf("Lookup(%#x) found a segment in a gap", a+1)
		}
	}
	if err := declare("{{{mmap:0x1f0:0x20:load:0:r:0}}}"); err == nil || !strings.Contains(err.Error(), "overlapping mmap: #0x0 [0x200-0x27f]") {
		t.Errorf("overlap with the next segment: %v", err)
	}
	if len(c.mmaps.all()) != n {
		t.Errorf("%d segments, want %d", len(c.mmaps.all()), n)
	}
}

func TestLint(t *testing.T) {
	var p Parser
	line := "a {{{backtrace:1:0x2}}} {{{Bt:1}}} {{{}}} {{{bt:0:0x1}}} {{{bt:2:0x"
	var got []string
	for _, e := range Lint(p.Parse(line), p.Line()) {
		got = append(got, fmt.Sprintf("%d@%d %s", e.Code, e.Col, e.Msg))
	}
	want := []string{
		fmt.Sprintf(`%d@2 unknown element "backtrace"`, ErrUnknownElement),
		fmt.Sprintf(`%d@27 tags must be all lowercase characters`, ErrBadTag),
		fmt.Sprintf(`%d@35 element "{{{}}}" has no tag`, ErrEmptyTag),
		fmt.Sprintf(`%d@57 "{{{bt:2:0x" is never closed with "}}}"`, ErrTruncated),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSamples: every sample log decodes and resolves without an error but
// those its damage explains, and every frame of an undamaged log lands in
// a declared module.
func TestSamples(t *testing.T) {
	for _, dir := range []string{"logs", "damaged"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "samples", "markup", dir, "*.markup.log"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			codes := map[Code]int{}
			frames := 0
			var p Parser
			var c Context
			for _, l := range strings.SplitAfter(string(b), "\n") {
				nodes := p.Parse(l)
				for _, e := range Lint(nodes, p.Line()) {
					codes[e.Code]++
				}
				for _, n := range nodes {
					if n.Kind != Elem {
						continue
					}
					e, err := Decode(&n, p.Line())
					if err == nil {
						switch e.Kind {
						case KindReset:
							c.Reset()
						case KindModule:
							_, err = c.Declare(&e)
						case KindMMap:
							_, err = c.Map(&e)
						case KindBT:
							frames++
							_, err = c.Locate(&e)
						}
					}
					var me *Error
					if errors.As(err, &me) {
						codes[me.Code]++
					} else if err != nil {
						t.Errorf("%s: untyped error %v", f, err)
					}
				}
			}
			name := filepath.Base(f)
			want := map[Code]int{}
			switch {
			case dir == "logs" && strings.HasPrefix(name, "ubsan"), name == "multi.markup.log":
				want[ErrUnmapped] = 3 // the runtime's three {{{bt:0:0x000000000000}}} SUMMARY lines
			case name == "unknown-element.markup.log":
				want[ErrUnknownElement] = 1
			case name == "truncated.markup.log":
				want[ErrTruncated] = 1
			case name == "undeclared-module.markup.log":
				want[ErrUndeclaredModule], want[ErrUnmapped] = 4, 4
			case name == "unmapped-pc.markup.log":
				want[ErrUnmapped] = 1
			case name == "overlapping-mmap.markup.log":
				want[ErrOverlappingMMap] = 1
			}
			if fmt.Sprint(codes) != fmt.Sprint(want) {
				t.Errorf("%s/%s: problems %v, want %v", dir, name, codes, want)
			}
			if frames == 0 {
				t.Errorf("%s: no bt element", name)
			}
		}
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Code: ErrUnmapped, Line: 3, Col: 6, Msg: "no mmap covers address"}
	if got := e.Error(); got != "markup line 3, byte 7: error: no mmap covers address" {
		t.Errorf("Error() = %q", got)
	}
	e.Warning = true
	if got := e.Error(); !strings.Contains(got, "warning: ") {
		t.Errorf("Error() = %q", got)
	}
}

// FuzzParse: no line makes the parser, the decoder or the context panic;
// the nodes always give the line back; every error is typed and points
// inside the line.
func FuzzParse(f *testing.F) {
	for _, l := range []string{"{{{bt:0:0x1}}}", "{{{mmap:0x0:0x10:load:0:r:0}}}", "\033[1m{{{pc:0x1:ra}}}"} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var p Parser
		var c Context
		for _, line := range strings.SplitAfter(text, "\n") {
			nodes := p.Parse(line)
			checkNodes(t, line, nodes)
			errs := Lint(nodes, p.Line())
			for i := range nodes {
				n := &nodes[i]
				if n.Kind != Elem {
					continue
				}
				e, err := Decode(n, p.Line())
				if err == nil {
					switch e.Kind {
					case KindReset:
						c.Reset()
					case KindModule:
						_, err = c.Declare(&e)
					case KindMMap:
						_, err = c.Map(&e)
					case KindBT, KindPC, KindData:
						_, err = c.Locate(&e)
					}
				}
				if err != nil {
					var me *Error
					if !errors.As(err, &me) {
						t.Fatalf("untyped error %v", err)
					}
					errs = append(errs, me)
				}
				if e.Warn != nil {
					errs = append(errs, e.Warn)
				}
			}
			for _, e := range errs {
				if e.Col < 0 || e.Col > len(line) || e.Line != p.Line() {
					t.Fatalf("%q: error %v points outside the line", line, e)
				}
			}
		}
	})
}

// BenchmarkParse: parsing and decoding the lines of a real log allocates
// nothing once the Parser's buffers have grown (but a module's build-id).
func BenchmarkParse(b *testing.B) {
	lines := sampleLines(b)
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var p Parser
	for b.Loop() {
		for _, l := range lines {
			nodes := p.Parse(l)
			for i := range nodes {
				if nodes[i].Kind == Elem && nodes[i].Tag == "bt" {
					Decode(&nodes[i], p.Line())
				}
			}
		}
	}
}
