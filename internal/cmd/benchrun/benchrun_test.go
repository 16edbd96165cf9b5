package main

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The published splitmix64 sequence for seed 0, and draws that
// ../shared/bench/gen-addresses.py makes for seed 1: the sampling rule is
// the same, so the same binary and seed give the same addresses.
func TestSplitMix64(t *testing.T) {
	s := newSplitMix64(0)
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := s.next(); got != want {
			t.Errorf("next #%d = %#x, want %#x", i, got, want)
		}
	}
	s = newSplitMix64(1)
	var got []uint64
	for range 10 {
		got = append(got, s.below(10))
	}
	want := []uint64{5, 9, 0, 5, 1, 8, 5, 3, 0, 0}
	if !equal(got, want) {
		t.Errorf("below(10) from seed 1 = %v, want %v", got, want)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Addresses fall inside function symbols, a longer file starts with a
// shorter one's lines, and ../shared/bench's generator (when present)
// writes the same bytes.
func TestSampleAddresses(t *testing.T) {
	bin := "../../../testdata/elf/cxx-O2-dw5"
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	spans, err := codeSpans(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var long, short bytes.Buffer
	if err := sampleAddresses(&long, spans, 2000, 7); err != nil {
		t.Fatal(err)
	}
	sampleAddresses(&short, spans, 100, 7)
	if !bytes.HasPrefix(long.Bytes(), short.Bytes()) {
		t.Error("the 100-address file is not the start of the 2,000-address one")
	}
	for _, l := range strings.Fields(long.String()) {
		var a uint64
		if _, err := fmtSscan(l, &a); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		in := false
		for _, s := range spans {
			in = in || s.lo <= a && a < s.hi
		}
		if !in {
			t.Fatalf("%s outside every function", l)
		}
	}
	gen := "../../../../shared/bench/gen-addresses.py"
	if _, err := os.Stat(gen); err != nil {
		t.Skipf("no %s to compare with", gen)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run the shared generator")
	}
	out, err := exec.Command(py, gen, bin, "2000", "7").Output()
	if err != nil {
		t.Fatalf("%s: %v", gen, err)
	}
	if !bytes.Equal(out, long.Bytes()) {
		t.Error("addresses differ from ../shared/bench/gen-addresses.py's for the same binary and seed")
	}
}

func TestLLVMBlocksAndAgreement(t *testing.T) {
	ref := []byte("f\na.c:1:2\n\ng\nb.c:3:0\nh\nb.c:4:1\n\n??\n??:0:0\n\n")
	if got := llvmBlocks(ref); len(got) != 3 || got[1] != "g\nb.c:3:0\nh\nb.c:4:1\n" {
		t.Fatalf("llvmBlocks = %q", got)
	}
	cand := []byte("f\na.c:1:2\n\ng\nb.c:3:0\n\n??\n??:0:0\n\n")
	a := compareLLVM(ref, cand, 3, 5)
	if a.same != 2 || a.total != 3 || len(a.diffs) != 1 || a.diffs[0].index != 1 {
		t.Errorf("compareLLVM = %+v", a)
	}
	if n, unk := frames(ref); n != 4 || unk != 1 {
		t.Errorf("frames = %d, %d unknown; want 4, 1", n, unk)
	}
	p := filepath.Join(t.TempDir(), "out")
	os.WriteFile(p, ref, 0o644)
	if n, err := countBlocks(p); err != nil || n != 3 {
		t.Errorf("countBlocks = %d, %v", n, err)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// A log is the same bytes for the same seed, holds the reports it says,
// and stops just past its size.
func TestWriteLog(t *testing.T) {
	dir := t.TempDir()
	rep := "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010\n    #0 0x4011d6 in main /build/ci/a.c:5:3\n"
	os.WriteFile(filepath.Join(dir, "a.log"), []byte(rep), 0o644)
	spec := logSpec{reports: []string{filepath.Join(dir, "a.log")}, maxGap: 4, size: 1 << 16, seed: 3}
	var a, b bytes.Buffer
	n, err := writeLog(&a, spec)
	if err != nil {
		t.Fatal(err)
	}
	writeLog(&b, spec)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two logs from one seed differ")
	}
	if got := strings.Count(a.String(), "AddressSanitizer"); got != n || n == 0 {
		t.Errorf("%d reports in the log, writeLog said %d", got, n)
	}
	if a.Len() < 1<<16 || a.Len() > 1<<16+4096 {
		t.Errorf("log is %d bytes for a size of %d", a.Len(), 1<<16)
	}
	spec.reports = nil
	var c bytes.Buffer
	if n, _ := writeLog(&c, spec); n != 0 || strings.Contains(c.String(), "Sanitizer") {
		t.Errorf("report-free log has %d reports", n)
	}
}

func fmtSscan(s string, a *uint64) (int, error) { return fmt.Sscanf(s, "0x%x", a) }
