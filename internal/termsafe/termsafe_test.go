package termsafe

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/usr/lib/libc.so.6: not found", "/usr/lib/libc.so.6: not found"},
		{"tab\tstays", "tab\tstays"},
		{"/tmp/zz\aq\rX: not found", `/tmp/zz\x07q X: not found`},
		{"two\nlines\r\n", "two lines  "},
		{"\x1b[31mred\x1b[m", `\x1b[31mred\x1b[m`},
		{"\x1b]8;;https://x.test\x1b\\link", `\x1b]8;;https://x.test\x1b\link`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"c1 \u009b31m csi", `c1 \x9b31m csi`},
		{"ünïcödé ok", "ünïcödé ok"},
		{"bad utf-8 \xff stays", "bad utf-8 \xff stays"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzLine(f *testing.F) {
	f.Add("/tmp/zz\aq\rX")
	f.Add("\x1b[31m\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		for _, r := range out {
			if isControl(r) {
				t.Fatalf("Line(%q) = %q keeps control %U", s, out, r)
			}
		}
	})
}
