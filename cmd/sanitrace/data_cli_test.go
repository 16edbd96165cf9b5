package main

import "testing"

// TestDataQueriesNameFunctions: a DATA query inside a function is answered
// with the function, as llvm-symbolizer 14 and 19 answer it (their
// symbolizeData looks in the one table of functions and objects); the
// answers were recorded from llvm-symbolizer-14 --obj=c-O2-dw5-pie (19
// prints the same and a "??:?" line for the declaration it has not got).
func TestDataQueriesNameFunctions(t *testing.T) {
	bin := fixtureDir + "/c-O2-dw5-pie"
	for _, tt := range []struct{ in, want string }{
		{"DATA 0x1090", "main\n4240 106\n\n"},     // main's first byte
		{"DATA 0x10f9", "main\n4240 106\n\n"},     // its last
		{"DATA 0x1220", "fill\n4640 132\n\n"},     // another function
		{"DATA 0x4038", "g_counter\n16440 8\n\n"}, // an object, as before
		{"DATA 0x4060", "g_table\n16480 256\n\n"},
	} {
		out, stderr, code := runCLI(t, tt.in+"\n", "symbolize", "--obj="+bin)
		if out != tt.want || stderr != "" || code != 0 {
			t.Errorf("%s: got (%q, %q, %d), want %q", tt.in, out, stderr, code, tt.want)
		}
	}
}
