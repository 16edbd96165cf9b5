package dropin

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestNoSymbolsSilent: for a file with neither DWARF nor any symbol table
// (testdata/elf/c-nosym: static, without libc, stripped) the reference
// tools answer ?? and print nothing on stderr; so do the faces. The
// recorded answers are the tools' (llvm-symbolizer 14.0.6 and 19.1.7,
// addr2line 2.40); where a tool is installed it is asked again.
func TestNoSymbolsSilent(t *testing.T) {
	bin := filepath.Join("..", "testdata", "elf", "c-nosym")
	tests := []struct {
		name, tool string
		args       []string // for the reference tool and the face alike
		face       []string // extra arguments for the face only
		a2l        bool
		want       string
	}{
		{name: "llvm14", tool: "llvm-symbolizer-14", args: []string{"--obj=" + bin, "0x401000"},
			want: "??\n??:0:0\n\n"},
		{name: "llvm14 json", tool: "llvm-symbolizer-14", args: []string{"--obj=" + bin, "--output-style=JSON", "0x401000"},
			want: `[{"Address":"0x401000","ModuleName":"` + bin + `","Symbol":[{"Column":0,"Discriminator":0,"FileName":"","FunctionName":"","Line":0,"StartAddress":"","StartFileName":"","StartLine":0}]}]` + "\n"},
		{name: "llvm19", tool: "llvm-symbolizer-19", args: []string{"--obj=" + bin, "0x401000"}, face: []string{"--llvm-version=19"},
			want: "??\n??:0:0\n\n"},
		{name: "addr2line", tool: "addr2line", args: []string{"-f", "-e", bin, "0x401000"}, a2l: true,
			want: "??\n??:0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := tt.want, ""
			if reftool.Installed(tt.tool) {
				var code int
				want, wantErr, code = reftool.RunAs(t, strings.TrimSuffix(tt.tool, "-14"), tt.tool, tt.args, "")
				if code != 0 {
					t.Fatalf("%s exited %d: %s", tt.tool, code, wantErr)
				}
				if want != tt.want {
					t.Errorf("%s now answers %q; the recorded answer is %q", tt.tool, want, tt.want)
				}
			}
			var o, e bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Open: OpenEngine, Version: "test"}
			if tt.a2l {
				env.Name = "addr2line"
				RunAddr2line(tt.args, env)
			} else {
				RunLLVMSymbolizer(append(append([]string{}, tt.face...), tt.args...), env)
			}
			if o.String() != want || e.String() != wantErr {
				t.Errorf("stdout %q, stderr %q; want %q, %q", o.String(), e.String(), want, wantErr)
			}
		})
	}
}
