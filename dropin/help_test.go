package dropin

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/modcache"
)

// TestLLVMHelp: the help is ours (docs/differences.md): it describes every
// option the face accepts, and no option llvm-symbolizer has that this
// face does not take.
func TestLLVMHelp(t *testing.T) {
	var out bytes.Buffer
	if code := RunLLVMSymbolizer([]string{"--help"}, Env{Stdout: &out, Stderr: &out}); code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	help := out.String()
	if help != LLVMSymbolizerHelp() || !strings.HasPrefix(help, "Usage: llvm-symbolizer [options]") {
		t.Errorf("--help printed:\n%s", help)
	}
	for _, o := range llvmOptions {
		name, _, _ := strings.Cut(o.name, "=")
		if !strings.Contains(help, o.prefix+name) {
			t.Errorf("the help does not describe %s%s", o.prefix, name)
		}
	}
	if !strings.Contains(help, "default "+strconv.Itoa(modcache.DefaultMaxBytes)) {
		t.Errorf("the help does not give --cache-size's default, %d", modcache.DefaultMaxBytes)
	}
	for _, s := range []string{"OVERVIEW:", "Mach-O", "Alias for"} {
		if strings.Contains(help, s) {
			t.Errorf("the help still holds llvm-symbolizer's %q", s)
		}
	}
}
