package resolve

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// TestOpenDamage: a module with damaged headers opens with a warning (one
// line naming the file and what was left out) and still answers, in
// decode, core and batch alike; lws's PCSymbolizer the same.
func TestOpenDamage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "elf", "c-O2-dw5-pie"))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(data[0x38:], 0xffff) // program headers past the end
	p := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := modcache.Engine(&debuginfo.Finder{})(p)
	if o == nil {
		t.Fatalf("no object: %v", err)
	}
	defer o.Close()
	err = openError(p, o, err)
	want := p + ": program header table goes past the end of the file (offset 0x40, size 0x37ffc8); program headers ignored"
	if err == nil || err.Error() != want {
		t.Errorf("warning %v, want %q", err, want)
	}
	frs := o.SymbolizeMany([]uint64{0x10a0}, symbolize.LookupOptions{})
	fr := frs[0]
	if len(fr) == 0 || fr[len(fr)-1].Function != "main" || fr[len(fr)-1].Line == 0 {
		t.Errorf("frames %+v, want main with a line", fr)
	}

	m, err := OpenPCSymbolizer(p, 0x1000, nil)
	if m == nil {
		t.Fatalf("lws: no symbolizer: %v", err)
	}
	defer m.Close()
	if err == nil || !strings.Contains(err.Error(), "program headers ignored") {
		t.Errorf("lws warning %v", err)
	}
	// Without program headers, the executable sections bound the pcs.
	if fr := m.Lookup(0x1000+0x10a0, 0); len(fr) == 0 || fr[len(fr)-1].Function != "main" {
		t.Errorf("lws frames %+v, want main", fr)
	}
}
