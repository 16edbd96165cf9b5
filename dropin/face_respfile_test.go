package dropin

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestResponseFilesLive: @FILE arguments (nested, quoted, one unreadable)
// give the reference tools' output, compared live when they are installed.
func TestResponseFilesLive(t *testing.T) {
	faceChdir(t)
	bin, err := filepath.Abs(faceFixtureDir + "/cxx-O2-dw5")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := fileWriter(t, dir)
	inner := write("inner", "0x1929 '0x11d0'\n")
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct{ tool, argv0, file string }{
		{"addr2line", "addr2line", write("a2l", "-f -i\n-C \"-e\" "+bin+"\n0x1241 @"+inner+"\n")},
		// A backslash escapes inside single quotes too, and "" is no argument.
		{"llvm-symbolizer", "llvm-symbolizer", write("llvm", "--obj='"+bin[:len(bin)-1]+"\\"+bin[len(bin)-1:]+"' --output-style=JSON \"\"\n0x1241 @"+inner+" @"+missing+"\n")},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			reftool.Need(t, tc.tool)
			want, wantErr, wantCode := reftool.Run(t, tc.tool, []string{"@" + tc.file}, "")
			got, gotErr, gotCode := faceRunFace(t, tc.argv0, []string{"@" + tc.file}, "")
			if got != want || gotCode != wantCode {
				t.Errorf("stdout/exit differ\nsanitrace (%d):\n%s\nstderr: %s\n%s (%d):\n%s\nstderr: %s", gotCode, got, gotErr, tc.tool, wantCode, want, wantErr)
			}
		})
	}
}
