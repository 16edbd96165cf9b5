package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeDamagedModule: decode under the engine's damage policy, from
// the CLI. A module whose program headers are damaged is used (its frames
// symbolized) and what was left out is said once, on one line; a module
// whose section header table lies past its end is "found <path> but
// unreadable", with the reason and where, not "not found".
func TestDecodeDamagedModule(t *testing.T) {
	pristine, err := os.ReadFile(filepath.Join(demoDir, "session"))
	if err != nil {
		t.Fatal(err)
	}
	log := demoLogAway(t)
	decode := func(data []byte) (bins string, symbolized bool, stderr string) {
		t.Helper()
		bins = t.TempDir()
		if err := os.WriteFile(filepath.Join(bins, "session"), data, 0o755); err != nil {
			t.Fatal(err)
		}
		symbolized, stderr = demoSessionSymbolized(t, "--binary-dir", bins, log)
		return bins, symbolized, stderr
	}
	linesAbout := func(stderr, what string) []string {
		var got []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, what) {
				got = append(got, l)
			}
		}
		return got
	}

	phdrs := append([]byte(nil), pristine...)
	binary.LittleEndian.PutUint16(phdrs[0x38:], 0xffff)
	bins, ok, errs := decode(phdrs)
	if !ok {
		t.Errorf("damaged program headers: frames not symbolized; stderr:\n%s", errs)
	}
	if got := linesAbout(errs, "program header table goes past the end of the file"); len(got) != 1 || !strings.Contains(got[0], filepath.Join(bins, "session")+": program header table goes past the end of the file (offset 0x40, size 0x37ffc8); program headers ignored") {
		t.Errorf("damaged program headers: want one line naming the file and the damage, got %q; stderr:\n%s", got, errs)
	}

	shdrs := append([]byte(nil), pristine...)
	binary.LittleEndian.PutUint64(shdrs[0x28:], uint64(len(shdrs))+0x10)
	bins, ok, errs = decode(shdrs)
	if ok {
		t.Errorf("section header table past the end: frames symbolized")
	}
	want := "found " + filepath.Join(bins, "session") + " but unreadable: section header table goes past the end of the file (offset 0x"
	if got := linesAbout(errs, "but unreadable"); len(got) != 1 || !strings.Contains(got[0], want) {
		t.Errorf("want one line with %q, got %q; stderr:\n%s", want, got, errs)
	}
}
