package resolve

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// TestModuleCFIDamaged: the call frame information of damaged module
// files (bytes of the fixtures changed, most in their headers, section
// headers and CFI sections) loads with errors or not at all, never with a
// panic: cfi and debug/elf return errors (core used to recover here).
func TestModuleCFIDamaged(t *testing.T) {
	paths, err := filepath.Glob("../testdata/elf/cfi/*")
	if err != nil {
		t.Fatal(err)
	}
	var seeds [][]byte
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 && debuginfo.IsELF(p) {
			seeds = append(seeds, b)
		}
	}
	if len(seeds) == 0 {
		t.Fatal("no fixtures under ../testdata/elf/cfi")
	}
	mutants := 2000
	if testing.Short() {
		mutants = 200
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < mutants; i++ {
		b := append([]byte(nil), seeds[rng.Intn(len(seeds))]...)
		for n := 1 + rng.Intn(6); n > 0; n-- {
			at := rng.Intn(len(b))
			if rng.Intn(2) == 0 {
				at = rng.Intn(64) // the ELF header
			}
			b[at] = byte(rng.Intn(256))
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					keep := filepath.Join(t.TempDir(), "mutant.elf")
					os.WriteFile(keep, b, 0o644)
					t.Fatalf("panic: %v (input kept as %s)", p, keep)
				}
			}()
			f, err := debuginfo.OpenMemory("mutant", b)
			if err != nil {
				return
			}
			defer f.Close()
			m, _ := openModuleCFI(f.ELF, nil, 0)
			if m == nil {
				return
			}
			for i, fn := range m.t.Functions() {
				if i == 8 {
					break
				}
				m.t.RowAt(fn.Begin)
				m.subName(fn.Begin)
			}
		}()
	}
}
