package dropin

import (
	"os"
	"strings"
)

// maxResponseFiles bounds how many @FILE arguments are expanded, so a file
// that names itself cannot loop forever.
const maxResponseFiles = 100

// expandResponseFiles replaces each "@FILE" argument by the arguments the
// file holds, recursively, as both reference tools do (LLVM's
// cl::ExpandResponseFiles, libiberty's expandargv). An @FILE that cannot be
// read stays as it is, as it does there. tokenize splits a file's text the
// way the tool does.
func expandResponseFiles(args []string, tokenize func(string) []string) []string {
	if !hasResponseFile(args) {
		return args
	}
	out := make([]string, 0, len(args))
	expanded := 0
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if len(a) < 2 || a[0] != '@' || expanded >= maxResponseFiles {
			out = append(out, a)
			continue
		}
		data, err := os.ReadFile(a[1:])
		if err != nil {
			out = append(out, a)
			continue
		}
		expanded++
		// The file's arguments take its place and are expanded in turn.
		args = append(tokenize(string(data)), args...)
	}
	return out
}

func hasResponseFile(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "@") && len(a) > 1 {
			return true
		}
	}
	return false
}

// tokenizeLibiberty splits a response file as libiberty's buildargv does.
func tokenizeLibiberty(s string) []string { return splitArgs(s, true) }

// splitArgs splits text into arguments the way both GNU-style tokenizers
// do: blanks separate arguments, a backslash escapes the next character
// (inside quotes too), single or double quotes group. They differ in one
// point: libiberty keeps an empty quoted argument ("" gives ""), LLVM drops
// it; libiberty also counts \v and \f as blanks.
func splitArgs(s string, libiberty bool) []string {
	var toks []string
	var cur strings.Builder
	in, escaped := false, false
	var quote byte
	blank := func(c byte) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || libiberty && (c == '\v' || c == '\f')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			cur.WriteByte(c)
			escaped = false
		case c == '\\':
			escaped, in = true, true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case blank(c):
			if in && (libiberty || cur.Len() > 0) {
				toks = append(toks, cur.String())
			}
			cur.Reset()
			in = false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if escaped && !libiberty {
		cur.WriteByte('\\') // LLVM keeps a backslash that ends the text
	}
	if in && (libiberty || cur.Len() > 0) {
		toks = append(toks, cur.String())
	}
	return toks
}
