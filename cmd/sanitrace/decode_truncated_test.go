package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeTruncatedLive builds testdata/src/truncated.c with gcc's
// AddressSanitizer without and with frame pointers, runs it (symbolize=0,
// the runtime's fast unwinder for malloc and free), and decodes the log:
// without frame pointers the allocation and free stacks end in the
// program's own code and are marked possibly truncated, saying why; with
// frame pointers they reach main and are not; the access stack (slow
// unwind at the error) is never marked.
func TestDecodeTruncatedLive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a sanitizer program")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skipf("gcc not installed: %v", err)
	}
	src, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "src", "truncated.c"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		fp        string
		truncated bool
	}{{"-fomit-frame-pointer", true}, {"-fno-omit-frame-pointer", false}} {
		t.Run(tc.fp, func(t *testing.T) {
			bin := filepath.Join(dir, "truncated"+tc.fp)
			build := exec.Command("gcc", "-g", "-O2", tc.fp, "-fsanitize=address",
				"-ffile-prefix-map="+filepath.Dir(src)+"=/build/ci/src", "-o", bin, src)
			if msg, err := build.CombinedOutput(); err != nil {
				t.Skipf("gcc -fsanitize=address cannot build here: %v\n%s", err, msg)
			}
			run := exec.Command(bin)
			run.Env = []string{"ASAN_OPTIONS=symbolize=0:detect_leaks=0", "PATH=/usr/bin:/bin"}
			logb, _ := run.CombinedOutput()
			if !strings.Contains(string(logb), "heap-use-after-free") {
				t.Skipf("the ASan program did not report (ptrace or ASLR restrictions?):\n%s", logb)
			}
			in := filepath.Join(dir, "asan"+tc.fp+".log")
			if err := os.WriteFile(in, logb, 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, _ := runCLI(t, "", "decode", "--format", "json", in)
			d := parseDecodeJSON(t, out)
			if len(d.Reports) != 1 {
				t.Fatalf("%d reports\n%s", len(d.Reports), stderr)
			}
			for _, s := range d.Reports[0].Stacks {
				if s.Role == "access" {
					if s.PossiblyTruncated != "" {
						t.Errorf("access stack marked: %s", s.PossiblyTruncated)
					}
					continue
				}
				if s.Role != "alloc" && s.Role != "free" {
					continue
				}
				last := s.Frames[len(s.Frames)-1]
				switch {
				case tc.truncated && !strings.Contains(s.PossiblyTruncated, "no frame-pointer prologue"):
					t.Errorf("%s stack ending in %s not marked truncated for a missing frame-pointer prologue: %q", s.Role, str(last.Function), s.PossiblyTruncated)
				case !tc.truncated && s.PossiblyTruncated != "":
					t.Errorf("%s stack ending in %s marked: %s", s.Role, str(last.Function), s.PossiblyTruncated)
				}
			}
		})
	}
}
