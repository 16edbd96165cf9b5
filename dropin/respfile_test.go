package dropin

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTokenizeLibiberty(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"-f -i\n-e prog", []string{"-f", "-i", "-e", "prog"}},
		{`"a b" 'c d' e\ f`, []string{"a b", "c d", "e f"}},
		{`'it\'s' "say \"hi\""`, []string{"it's", `say "hi"`}},
		{`"" x`, []string{"", "x"}},
		{"  \t\n", nil},
	} {
		if got := tokenizeLibiberty(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokenizeLibiberty(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTokenizeGNU checks LLVM's rules where they differ from libiberty's,
// each checked against llvm-symbolizer 14 with a response file: a
// backslash escapes inside single quotes too, and "" is no argument.
func TestTokenizeGNU(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`--obj='/a/p\ie' 0x10`, []string{"--obj=/a/pie", "0x10"}},
		{`-e x "" 0x10`, []string{"-e", "x", "0x10"}},
		{`"a b" c\ d`, []string{"a b", "c d"}},
		{`end\`, []string{`end\`}},
	} {
		if got := tokenizeGNU(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokenizeGNU(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandResponseFiles(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	inner := write("inner", "0x10 '0x20'")
	outer := write("outer", "-e prog @"+inner+" -f")
	self := write("self", "x @"+filepath.Join(dir, "self"))
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"nested, in place", []string{"-C", "@" + outer, "0x30"}, []string{"-C", "-e", "prog", "0x10", "0x20", "-f", "0x30"}},
		{"unreadable stays", []string{"@" + filepath.Join(dir, "missing"), "@"}, []string{"@" + filepath.Join(dir, "missing"), "@"}},
		{"none", []string{"-f"}, []string{"-f"}},
	} {
		if got := expandResponseFiles(tt.args, tokenizeLibiberty); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	// A file that names itself is expanded a bounded number of times.
	got := expandResponseFiles([]string{"@" + self}, tokenizeLibiberty)
	if len(got) != maxResponseFiles+1 || got[len(got)-1] != "@"+self {
		t.Errorf("self-reference: %d args, last %q", len(got), got[len(got)-1])
	}
}

func TestResponseFilesThroughFaces(t *testing.T) {
	dir := t.TempDir()
	rf := filepath.Join(dir, "args")
	if err := os.WriteFile(rf, []byte("-e testdata/t\n0x1190"), 0o644); err != nil {
		t.Fatal(err)
	}
	help := filepath.Join(dir, "help")
	if err := os.WriteFile(help, []byte("--help"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runA2L([]string{"@" + help}, ""); code != 0 || !strings.Contains(out, "Usage: addr2line") {
		t.Errorf("addr2line @FILE with --help: exit %d, %q", code, out)
	}
	if out, _, _ := runLLVM([]string{"@" + rf}, "", nil); out != "inl\n/src/t.c:3:48\nfoo\n/src/t.c:4:33\n\n" {
		t.Errorf("llvm-symbolizer @FILE: %q", out)
	}
}

// FuzzResponseFile: a response file's text (which may name itself or
// another response file) expanded with each tool's tokenizer. No panic or
// hang; text that names no @FILE expands to its tokens exactly; a file
// that names itself stops after maxResponseFiles expansions.
func FuzzResponseFile(f *testing.F) {
	f.Add("-e prog 0x10 \"a b\"", false)
	f.Add("@SELF 0x10", true)
	f.Add("'it\\'s' @SELF @SELF", false)
	f.Add("@", true)
	dir := f.TempDir()
	path := filepath.Join(dir, "args")
	f.Fuzz(func(t *testing.T, text string, libiberty bool) {
		text = strings.ReplaceAll(text, "@SELF", "@"+path)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		tokenize := tokenizeGNU
		if libiberty {
			tokenize = tokenizeLibiberty
		}
		got := expandResponseFiles([]string{"first", "@" + path, "last"}, tokenize)
		if len(got) < 2 || got[0] != "first" || got[len(got)-1] != "last" {
			t.Fatalf("expansion lost the arguments around @FILE: %q", got)
		}
		toks := tokenize(text)
		if !hasResponseFile(toks) && !reflect.DeepEqual(got[1:len(got)-1], toks) && !(len(toks) == 0 && len(got) == 2) {
			t.Fatalf("expanded %q, want %q", got[1:len(got)-1], toks)
		}
		if len(got) > 2+maxResponseFiles*(len(toks)+1) {
			t.Fatalf("%d arguments from %d tokens: unbounded expansion", len(got), len(toks))
		}
	})
}

// fileWriter returns a function that writes a file named name holding
// text into dir and returns its path.
func fileWriter(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}
