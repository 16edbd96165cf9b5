package cfi

import (
	"debug/elf"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// TestCorpusReadelf is the differential over every ELF file of the shared
// corpus (cases, cores, the cores' sysroot libraries and debug files, the
// symbolize sets): both dumps byte-identical to readelf 2.40's, every
// FDE's rows evaluated at its first and last byte without error, and
// RowAt equal to the dump's row at every row's location.
func TestCorpusReadelf(t *testing.T) {
	root := sharedtest.Dir(t, "corpus")
	needReadelf240(t)
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && debuginfo.IsELF(p) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no ELF files under %s", root)
	}
	fdes, rows := 0, 0
	for _, p := range files {
		compareWithReadelf(t, p)
		rows += checkRowsAgainstDump(t, p)
		f, err := elf.Open(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		tab, err := Load(f, nil)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else {
			for _, e := range tab.Errors() {
				t.Errorf("%s: %v", p, e)
			}
			for _, fde := range tab.fdes {
				fdes++
				for _, pc := range []uint64{fde.Begin, fde.End - 1} {
					if _, err := fde.RowAt(pc); err != nil {
						t.Errorf("%s: RowAt(%#x): %v", p, pc, err)
					}
				}
			}
		}
		f.Close()
	}
	t.Logf("%d ELF files, %d FDEs, %d rows checked against the dump", len(files), fdes, rows)
}
