package rules

import (
	"strings"
	"testing"
)

// FuzzParse: any text either parses or fails with a *SyntaxError naming a
// line, and a parsed set applies to a frame without panicking.
func FuzzParse(f *testing.F) {
	f.Add(DefaultsText())
	f.Add("function:\"operator new\" -app\n!module:**/lib*.so -group # c\n")
	f.Add("family:native,go,rust,kernel app:yes class:cxx +app\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse("f", strings.NewReader(text))
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok || se.Line < 1 || se.File != "f" {
				t.Fatalf("error %#v", err)
			}
			return
		}
		s.Apply(Frame{Function: "ns::f<int>(int)", Module: "/usr/lib/libx.so.1", Path: "../src/a.c"})
	})
}
