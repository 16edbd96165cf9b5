package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/usr/lib/libc.so.6: not found", "/usr/lib/libc.so.6: not found"},
		{"tab\tstays", "tab\tstays"},
		{"/tmp/zz\aq\rX: not found", `/tmp/zz\x07q\x0dX: not found`},
		{"two\nlines\r\n", `two lines\x0d `},
		{"\x1b[31mred\x1b[m", `\x1b[31mred\x1b[m`},
		{"\x1b]8;;https://x.test\x1b\\link", `\x1b]8;;https://x.test\x1b\link`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"c1 \u009b31m csi \u0085nel", `c1 \x9b31m csi \x85nel`},
		{"bare \x9b31m and \x80", `bare \x9b31m and \x80`},
		{"ünïcödé ok", "ünïcödé ok"},
		{"bad utf-8 \xff stays", "bad utf-8 \xff stays"},
		{"\u00a0nbsp, \u202e rlo: not controls", "\u00a0nbsp, \u202e rlo: not controls"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"session_id", "session_id"},
		{"two\nlines\r\n", `two\x0alines\x0d\x0a`},
		{"a\bb\vc\fd", `a\x08b\x0bc\x0cd`},
		{"\u0085\u009b", `\x85\x9b`},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"main.main()\n\t/src/a.go:20", "main.main()\n\t/src/a.go:20"},
		{"two\nlines\r\n", "two\nlines\\x0d\n"},
	} {
		if got := Lines(c.in); got != c.want {
			t.Errorf("Lines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAppendLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain line\n", "plain line\n"},
		{"crlf\r\n", "crlf\r\n"},
		{"bell\a and\rcr\r\n", `bell\x07 and\x0dcr` + "\r\n"},
		{"\x1b[31mred\x1b[0m\n", `\x1b[31mred\x1b[0m` + "\n"},
		{"last, no newline\x9b", `last, no newline\x9b`},
		{"\n", "\n"},
		{"", ""},
	} {
		if got := string(AppendLine([]byte("> "), []byte(c.in))); got != "> "+c.want {
			t.Errorf("AppendLine(%q) = %q, want %q", c.in, got, "> "+c.want)
		}
	}
}

// rawControl returns the first control character of out that the package
// promises never to leave raw, or -1.
func rawControl(out string) rune {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return r
		}
		if r == utf8.RuneError && n == 1 && out[i] >= 0x80 && out[i] < 0xa0 {
			return rune(out[i])
		}
		i += n
	}
	return -1
}

func FuzzLine(f *testing.F) {
	f.Add("/tmp/zz\aq\rX")
	f.Add("two lines\nof text\nand a \x1b")
	f.Add("lines\n\nonly\n")
	f.Add("\x1b[31m\u009b\x9b\xc2")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s), strings.ReplaceAll(Lines(s), "\n", "")} {
			if r := rawControl(out); r >= 0 {
				t.Fatalf("%q escaped as %q keeps control %U", s, out, r)
			}
		}
		if got, want := LinesClean(s), Lines(s) == s; got != want {
			t.Fatalf("LinesClean(%q) = %v, but Lines changes it: %v", s, got, !want)
		}
		line := string(AppendLine(nil, []byte(s)))
		body := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if r := rawControl(body); r >= 0 {
			t.Fatalf("AppendLine(%q) = %q keeps control %U", s, line, r)
		}
	})
}

// TestEveryPosition: a control character is found wherever it stands
// (the eight-byte test and the byte-wise one agree), after tabs and
// non-ASCII text too.
func TestEveryPosition(t *testing.T) {
	for _, ctl := range []string{"\x01", "\x1f", "\x7f", "\u0085", "\u009b", "\x9b", "\r"} {
		for _, fill := range []string{"a", "\t", "ü", "\u00a0"} {
			for n := 0; n < 20; n++ {
				s := strings.Repeat(fill, n) + ctl + strings.Repeat("z", 9)
				if got := firstControl(s); got != len(strings.Repeat(fill, n)) {
					t.Errorf("firstControl(%q) = %d", s, got)
				}
			}
		}
	}
	for _, s := range []string{"", "abcdefgh", "tab\tbed\ttext\twith\ttabs", "~~~~~~~~~", "\u00a0\u00a0\u00a0\u00a0\u00a0"} {
		if firstControl(s) != len(s) {
			t.Errorf("firstControl(%q) finds a control", s)
		}
	}
}

func BenchmarkText(b *testing.B) {
	s := "    #4 0x7f9855e45304 in __libc_start_main_impl ../csu/libc-start.c:360 (BuildId: 0123456789abcdef)"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if Text(s) != s {
			b.Fatal("escaped")
		}
	}
}
