package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ want, got, has string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\n", "a\nc\n", `line 2:`},
		{"a\n", "a\nb\n", `line 2:`},
		{"a", "a\n", `line 1:`},
	} {
		d := FirstDiff(c.want, c.got)
		if (c.has == "") != (d == "") || !strings.Contains(d, c.has) {
			t.Errorf("FirstDiff(%q, %q) = %q, want it to say %q", c.want, c.got, d, c.has)
		}
	}
}

func TestCheck(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.txt")
	if err := os.WriteFile(p, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, p, []byte("same\n"))
	if !strings.HasSuffix(Dir("render"), filepath.Join("testdata", "golden", "render")) {
		t.Errorf("Dir = %s", Dir("render"))
	}
	if _, err := os.Stat(Dir("render")); err != nil {
		t.Errorf("Dir(render) does not exist: %v", err)
	}
}

func TestTable(t *testing.T) {
	comments, rows := Table(t, "t.tsv", []byte("# recorded by x\na\tb\n\nc\t\n"), 2)
	if len(comments) != 1 || comments[0] != "# recorded by x" {
		t.Errorf("comments %q", comments)
	}
	if len(rows) != 2 || strings.Join(rows[0], "|") != "a|b" || strings.Join(rows[1], "|") != "c|" {
		t.Errorf("rows %q", rows)
	}
	if _, rows := Table(t, "empty.tsv", nil, 4); rows != nil {
		t.Errorf("an empty table has rows %q", rows)
	}
}
