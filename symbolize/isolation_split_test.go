package symbolize

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// chains is the inline chain of every address, llvm style.
func chains(t *testing.T, o *Object, addrs []uint64) [][]Frame {
	t.Helper()
	out := make([][]Frame, len(addrs))
	for i, a := range addrs {
		fr, err := o.Symbolize(a, LookupOptions{Inlines: true, Demangle: true})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = fr
	}
	return out
}

// funcAddrs is the middle of every function of the ELF file at path.
func funcAddrs(t testing.TB, path string) []uint64 {
	t.Helper()
	var out []uint64
	for _, s := range fx.Funcs(t, path) {
		out = append(out, s.Value+s.Size/2)
	}
	return out
}

// TestIsolationSplit: damage in a .dwo or .dwp costs what depends on the
// damaged part, as in the binary itself, instead of the split unit as a
// whole: the file is still used for the rest, and SplitDWARFErrors holds
// one *DamageError for it (no split unit is reported lost). Each case says
// what must stay the intact file's answer and what must be lost; in every
// case some answers differ from those without the file.
func TestIsolationSplit(t *testing.T) {
	depth := func(c []Frame) string { return strings.Repeat("+", len(c)) }
	names := func(c []Frame) string {
		var b strings.Builder
		for _, f := range c {
			b.WriteString(f.Function + "|")
		}
		return b.String()
	}
	outer := func(c []Frame) string { return c[len(c)-1].Function }
	pastEOF := func(sec string) func(d *damaged) {
		return func(d *damaged) {
			_, h := d.sec(sec)
			d.put64(h+24, 0x7fff0000)
		}
	}
	cases := []struct {
		name       string
		dir, file  string // the fixture's directory and the file damaged in it
		damage     func(d *damaged)
		wantDamage []string // "" when nothing is reported
		kept, lost func([]Frame) string
	}{{
		name: ".dwo: .debug_str_offsets.dwo past the end of the file: names lost, inline chains kept",
		dir:  "split-dw5", file: "split-tmpl.dwo",
		damage:     pastEOF(".debug_str_offsets.dwo"),
		wantDamage: []string{"split-tmpl.dwo: .debug_str_offsets.dwo: section goes past the end of the file (offset 0x7fff0000"},
		kept:       depth, lost: names,
	}, {
		name: ".dwo: .debug_str.dwo with a bad name index, repaired at open: names lost, inline chains kept",
		dir:  "split-dw5", file: "split-tmpl.dwo",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_str.dwo")
			d.put32(h, 0xffffff)
		},
		wantDamage: []string{"split-tmpl.dwo: section header 7 (at ", "bad section name index 0xffffff; the section has no name"},
		kept:       depth, lost: names,
	}, {
		name: ".dwo: compressed .debug_rnglists.dwo with a bad checksum: inlined calls with range lists lost",
		dir:  "split-dw5", file: "split-tmpl.dwo",
		damage: func(d *damaged) {
			s := d.compressSection(".debug_rnglists.dwo")
			d.data[s.Offset+s.FileSize-1] ^= 0xff
		},
		wantDamage: []string{"split-tmpl.dwo: .debug_rnglists.dwo: zlib decompression: zlib: invalid checksum; section ignored"},
		kept:       outer, lost: depth,
	}, {
		name: ".dwo: .debug_line.dwo damaged: not read, nothing lost",
		dir:  "split-dw5", file: "split-tmpl.dwo",
		damage: pastEOF(".debug_line.dwo"),
		kept:   names,
	}, {
		name: ".dwp: .debug_str_offsets.dwo past the end of the file: names lost, inline chains kept",
		dir:  "split-dw5-dwp", file: "prog.dwp",
		damage:     pastEOF(".debug_str_offsets.dwo"),
		wantDamage: []string{"prog.dwp: .debug_str_offsets.dwo: section goes past the end of the file (offset 0x7fff0000"},
		kept:       depth, lost: names,
	}, {
		name: "DWARF 4 .dwo: .debug_str.dwo past the end of the file: names lost, inline chains kept",
		dir:  "split-dw4", file: "split-prog.dwo",
		damage:     pastEOF(".debug_str.dwo"),
		wantDamage: []string{"split-prog.dwo: .debug_str.dwo: section goes past the end of the file (offset 0x7fff0000"},
		kept:       depth, lost: names,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := filepath.Join("..", "testdata", "elf", tc.dir)
			open := func(t *testing.T, data []byte) *Object {
				dir := t.TempDir()
				fx.Copy(t, filepath.Join(src, "prog"), filepath.Join(dir, "prog"))
				if data != nil {
					if err := os.WriteFile(filepath.Join(dir, tc.file), data, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				o := openObject(t, filepath.Join(dir, "prog"), noDebugDirs())
				return o
			}
			addrs := funcAddrs(t, filepath.Join(src, "prog"))
			d := damage(t, filepath.Join(tc.dir, tc.file))
			full := chains(t, open(t, d.data), addrs)
			none := chains(t, open(t, nil), addrs)
			tc.damage(d)
			o := open(t, d.data)
			got := chains(t, o, addrs)
			errs := o.SplitDWARFErrors()
			var line string
			for _, err := range errs {
				var de *DamageError
				if !errors.As(err, &de) {
					t.Errorf("a split unit was lost: %v", err)
					continue
				}
				if line != "" {
					t.Errorf("damage reported twice: %q, %q", line, de.Error())
				}
				line = de.Error()
			}
			if strings.Contains(line, "\n") {
				t.Errorf("damage spans lines: %q", line)
			}
			if len(tc.wantDamage) == 0 && line != "" {
				t.Errorf("damage %q, want none reported", line)
			}
			for _, w := range tc.wantDamage {
				if !strings.Contains(line, w) {
					t.Errorf("damage %q, want it to contain %q", line, w)
				}
			}
			lost, used, intact := false, 0, 0
			for i := range got {
				if tc.kept != nil && tc.kept(got[i]) != tc.kept(full[i]) {
					t.Errorf("0x%x: %q, intact %q: that part does not depend on the damage", addrs[i], tc.kept(got[i]), tc.kept(full[i]))
				}
				if tc.lost != nil && tc.lost(got[i]) != tc.lost(full[i]) {
					lost = true
				}
				if names(got[i])+depth(got[i]) != names(none[i])+depth(none[i]) {
					used++
				}
				if names(got[i])+depth(got[i]) == names(full[i])+depth(full[i]) {
					intact++
				}
			}
			if tc.lost != nil && !lost {
				t.Error("nothing was lost: the damage shows nothing")
			}
			if used == 0 {
				t.Error("every address answers as without the file: the rest of it was not used")
			}
			t.Logf("%d addresses: %d answer as with the intact file, %d otherwise than without it", len(addrs), intact, used)
		})
	}
}
