package dropin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// TestSymbolizeBuildIDQueries: "BUILDID:<hex> 0xOFF" (llvm-symbolizer 15's
// query form; 14 reads it as a file name) finds .build-id/xx/rest.debug
// under --debug-file-directory and answers as --obj on that file does;
// an unknown id gets llvm's error and an unknown answer.
func TestSymbolizeBuildIDQueries(t *testing.T) {
	faceChdir(t)
	dir, err := filepath.Abs(faceFixtureDir + "/buildid/debug")
	if err != nil {
		t.Fatal(err)
	}
	id, err := debuginfo.ReadBuildID(faceFixtureDir + "/buildid/prog")
	if err != nil || len(id) == 0 {
		t.Fatalf("build-id of the fixture: %v", err)
	}
	hexID := fmt.Sprintf("%x", id)
	debugFile := debuginfo.BuildIDPath(dir, id)
	addrs := faceHexList(faceFixtureAddresses(t, faceFixtureDir+"/cxx-O2-dw5", 10, 4), "0x")

	var byID, byObj strings.Builder
	for _, a := range addrs {
		byID.WriteString("BUILDID:" + strings.ToUpper(hexID) + " " + a + "\n")
		byObj.WriteString(a + "\n")
	}
	for _, style := range []string{"LLVM", "JSON"} {
		got, _, _ := faceRunFace(t, "llvm-symbolizer", []string{"--debug-file-directory=" + dir, "--output-style=" + style}, byID.String())
		want, _, _ := faceRunFace(t, "llvm-symbolizer", []string{"--obj=" + debugFile, "--output-style=" + style}, byObj.String())
		want = strings.ReplaceAll(want, `"ModuleName":"`+debugFile+`"`, `"ModuleName":"`+strings.ToUpper(hexID)+`"`)
		if got != want || got == "" {
			t.Errorf("%s: BUILDID answers differ from --obj on the debug file\n got: %.400s\nwant: %.400s", style, got, want)
		}
	}
	out, errOut, _ := faceRunFace(t, "llvm-symbolizer", []string{"--debug-file-directory=" + dir}, "BUILDID:ab12 0x10\n")
	if out != "??\n??:0:0\n\n" || !strings.Contains(errOut, "could not find build ID 'AB12'") {
		t.Errorf("unknown build-id: stdout %q, stderr %q", out, errOut)
	}
}
