package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

var cfiGolden = filepath.Join("..", "..", "testdata", "golden", "cfi")
var cfiElf = filepath.Join("..", "..", "testdata", "elf")

// TestCFIText: `sanitrace cfi` and `cfi --raw` print the goldens recorded
// from readelf -wN --debug-dump=frames-interp / frames -W.
func TestCFIText(t *testing.T) {
	for _, fx := range []string{"cfi/every", "cfi/i386-debugframe", "c-O2-dw5-pie"} {
		for _, raw := range []bool{false, true} {
			args := []string{"cfi", filepath.Join(cfiElf, fx)}
			name := strings.ReplaceAll(fx, "/", "_") + ".frames-interp.txt"
			if raw {
				args = []string{"cfi", "--raw", filepath.Join(cfiElf, fx)}
				name = strings.ReplaceAll(fx, "/", "_") + ".frames.txt"
			}
			out, stderr, code := runCLI(t, "", args...)
			if code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			want, err := os.ReadFile(filepath.Join(cfiGolden, name))
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("%v differs from %s: %s", args, name, golden.FirstDiff(string(want), out))
			}
		}
	}
}

// TestCFIFiles: several files get readelf's "File:" headers; an unreadable
// one is an error on stderr and exit 2, the others are still printed.
func TestCFIFiles(t *testing.T) {
	a, b := filepath.Join(cfiElf, "libfix.so"), filepath.Join(cfiElf, "cfi", "i386-eh")
	out, stderr, code := runCLI(t, "", "cfi", a, filepath.Join(cfiElf, "no-such-file"), b)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr, "no-such-file") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr should be one line naming the missing file:\n%s", stderr)
	}
	for _, f := range []string{a, b} {
		if !strings.Contains(out, "\nFile: "+f+"\nContents of the .eh_frame section:\n") {
			t.Errorf("no File: header for %s", f)
		}
	}
	if v, err := exec.Command("readelf", "--version").Output(); err == nil && strings.Contains(string(v), " 2.40") {
		out, _, _ := runCLI(t, "", "cfi", a, b)
		want, _ := exec.Command("readelf", "-wN", "--debug-dump=frames-interp", "-W", a, b).Output()
		if out != string(want) {
			t.Errorf("two files differ from readelf: %s", golden.FirstDiff(string(want), out))
		}
	}
	if _, _, code := runCLI(t, "", "cfi", "--format", "yaml", a); code != exitUsage {
		t.Errorf("--format yaml: exit %d, want %d", code, exitUsage)
	}
	if _, _, code := runCLI(t, "", "cfi"); code != exitUsage {
		t.Errorf("no file: exit %d, want %d", code, exitUsage)
	}
}

// TestCFIJSON: --format json holds the interpreted rows as data, matching
// the text dump's.
func TestCFIJSON(t *testing.T) {
	path := filepath.Join(cfiElf, "c-O2-dw5-pie")
	out, stderr, code := runCLI(t, "", "cfi", "--format", "json", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Version  int
		File     string
		Sections []struct {
			Name    string
			Entries []struct {
				Offset, Kind, CIE, Augmentation string
				PCBegin                         string  `json:"pc_begin"`
				PCEnd                           string  `json:"pc_end"`
				CodeAlign                       *uint64 `json:"code_align"`
				DataAlign                       *int64  `json:"data_align"`
				RA                              *uint64
				Rows                            []struct {
					Loc, CFA string
					Regs     map[string]string
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.Version != 1 || doc.File != path || len(doc.Sections) != 1 || doc.Sections[0].Name != ".eh_frame" {
		t.Fatalf("header: %+v", doc)
	}
	es := doc.Sections[0].Entries
	if len(es) != 8 {
		t.Fatalf("%d entries, want 2 CIEs and 6 FDEs", len(es))
	}
	c := es[0]
	if c.Kind != "CIE" || c.Offset != "0x0" || c.Augmentation != "zR" || *c.CodeAlign != 1 || *c.DataAlign != -8 || *c.RA != 16 {
		t.Errorf("CIE: %+v", c)
	}
	// readelf: 000000b8 ... FDE cie=00000030 pc=...1090..10fa, the row at
	// 109d: rbp+16 with rbx c-32, rbp c-16, r12 c-24, ra c-8.
	f := es[7]
	if f.Kind != "FDE" || f.Offset != "0xb8" || f.CIE != "0x30" || f.PCBegin != "0x1090" || f.PCEnd != "0x10fa" || len(f.Rows) != 6 ||
		f.Augmentation != "zR" || f.CodeAlign == nil || *f.DataAlign != -8 || *f.RA != 16 {
		t.Fatalf("FDE: %+v", f)
	}
	r := f.Rows[4]
	want := map[string]string{"rbx": "c-32", "rbp": "c-16", "r12": "c-24", "ra": "c-8"}
	if r.Loc != "0x109d" || r.CFA != "rbp+16" || len(r.Regs) != len(want) {
		t.Errorf("row: %+v", r)
	}
	for k, v := range want {
		if r.Regs[k] != v {
			t.Errorf("row %s = %q, want %q", k, r.Regs[k], v)
		}
	}
	if _, _, code := runCLI(t, "", "cfi", "--raw", "--format", "json", path); code != exitUsage {
		t.Errorf("--raw --format json: exit %d, want %d", code, exitUsage)
	}
}
