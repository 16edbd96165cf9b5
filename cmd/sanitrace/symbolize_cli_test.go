package main

import "testing"

// TestFacesThroughSubcommands checks that "sanitrace symbolize|addr2line"
// behave exactly as the argv[0] faces (cobra hands the flags over as they
// are) and that exit codes come through.
func TestFacesThroughSubcommands(t *testing.T) {
	bin := fixtureDir + "/c-O2-dw5-pie"
	tests := []struct {
		face, sub string
		args      []string
		stdin     string
		code      int
	}{
		{"llvm-symbolizer", "symbolize", []string{"--obj=" + bin, "-a", "-p", "0x1090", "0"}, "", 0},
		{"llvm-symbolizer", "symbolize", []string{"-e", bin, "--output-style=JSON"}, "0x1090\nzz\n", 0},
		{"llvm-symbolizer", "symbolize", []string{"--bogus"}, "", 1},
		{"llvm-symbolizer", "symbolize", []string{"--help"}, "", 0},
		{"addr2line", "addr2line", []string{"-fiCa", "-e", bin}, "1090\n0\n", 0},
		{"addr2line", "addr2line", []string{"-Q"}, "", 1},
	}
	for _, tt := range tests {
		wantOut, wantErr, wantCode := runArgv0(t, tt.face, tt.args, tt.stdin)
		gotOut, gotErr, gotCode := runArgv0(t, "sanitrace", append([]string{tt.sub}, tt.args...), tt.stdin)
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode || gotCode != tt.code {
			t.Errorf("%s %q: subcommand gave (%q, %q, %d), argv[0] face (%q, %q, %d), want exit %d",
				tt.sub, tt.args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode, tt.code)
		}
	}
}
