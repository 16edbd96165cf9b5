package symbolize

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
)

// compressSection rewrites section name of d in place as an ELF compressed
// section (Elf64_Chdr, zlib), as objcopy --compress-debug-sections=zlib
// writes it; the stream is shorter than the bytes it replaces.
func (d *damaged) compressSection(name string) *elf.Section {
	d.t.Helper()
	s, h := d.sec(name)
	raw, err := s.Data()
	if err != nil {
		d.t.Fatal(err)
	}
	var z bytes.Buffer
	chdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(chdr, uint32(elf.COMPRESS_ZLIB))
	binary.LittleEndian.PutUint64(chdr[8:], uint64(len(raw)))
	binary.LittleEndian.PutUint64(chdr[16:], 1)
	z.Write(chdr)
	w := zlib.NewWriter(&z)
	w.Write(raw)
	w.Close()
	if uint64(z.Len()) >= s.FileSize {
		d.t.Fatalf("%s: compressed %d bytes, no shorter than %d", name, z.Len(), s.FileSize)
	}
	copy(d.data[s.Offset:], z.Bytes())
	d.put64(h+8, uint64(s.Flags|elf.SHF_COMPRESSED))
	d.put64(h+32, uint64(z.Len()))
	s.FileSize = uint64(z.Len())
	return s
}

// frameAnswers is the inline chains of addrs under both policies, frame by
// frame.
func frameAnswers(t *testing.T, o *Object, addrs []uint64) []Frame {
	t.Helper()
	var out []Frame
	for _, policy := range []*Policy{LLVM14, GNU240} {
		for _, a := range addrs {
			fr, err := o.Symbolize(a, LookupOptions{Inlines: true, Demangle: true, Policy: policy})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fr...)
		}
	}
	return out
}

// TestIsolationSupplementary: damage in a dwz supplementary file costs
// what depends on the damaged part, as in the file itself: the file is
// still used for the rest, the damage is in the object's Damage line under
// the supplementary file's path, and SupplementaryError stays nil (the
// file was found). Each case says which part of the answers must stay
// those of the intact pair and which must be lost; every case answers
// better than no supplementary file at all.
func TestIsolationSupplementary(t *testing.T) {
	fn := func(f Frame) string { return f.Function }
	decl := func(f Frame) string { return f.StartFile }
	cases := []struct {
		name       string
		damage     func(d *damaged)
		wantDamage []string
		kept, lost func(Frame) string // kept equal to the intact answers everywhere; lost somewhere
	}{{
		name: ".debug_str past the end of the file: the names kept there lost, the shared DIEs still read",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_str")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: []string{"common.debug: .debug_str: section goes past the end of the file (offset 0x7fff0000, size 0xbc99"},
		kept:       decl, lost: fn,
	}, {
		name: ".debug_info section header damaged: the shared DIEs lost, its strings still name the file's own DIEs",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_info")
			d.put64(h+24, 0x7fff0000)
		},
		wantDamage: []string{"common.debug: .debug_info: section goes past the end of the file (offset 0x7fff0000, size 0x317d"},
		lost:       fn,
	}, {
		name: "compressed .debug_line with a bad checksum: declaration files lost, names kept",
		damage: func(d *damaged) {
			s := d.compressSection(".debug_line")
			d.data[s.Offset+s.FileSize-1] ^= 0xff // the Adler-32 trailer
		},
		wantDamage: []string{"common.debug: .debug_line: zlib decompression: zlib: invalid checksum; section ignored"},
		kept:       fn, lost: decl,
	}, {
		name: "section header with a bad name index, repaired at open: that section lost",
		damage: func(d *damaged) {
			_, h := d.sec(".debug_line")
			d.put32(h, 0xffffff)
		},
		wantDamage: []string{"common.debug: section header ", "bad section name index 0xffffff; the section has no name"},
		kept:       fn, lost: decl,
	}, {
		name: "a partial unit with an unsupported version: that unit lost",
		damage: func(d *damaged) {
			s, _ := d.sec(".debug_info")
			d.put16(s.Offset+4, 0)
		},
		wantDamage: []string{"common.debug: .debug_info unit at 0x0: unsupported version 0; unit ignored"},
		lost:       fn,
	}}
	for _, variant := range []string{"gnu", "sup"} {
		bin := filepath.Join(dwzDir, variant, "tmpl")
		addrs := dwzAddrs(t, "tmpl")
		open := func(t *testing.T, sup []byte) *Object {
			dir := t.TempDir()
			fx.Copy(t, bin, filepath.Join(dir, "tmpl"))
			if sup != nil {
				if err := os.WriteFile(filepath.Join(dir, "common.debug"), sup, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			o := openObject(t, filepath.Join(dir, "tmpl"), noDebugDirs())
			return o
		}
		pristine := damage(t, filepath.Join("dwz", variant, "common.debug")).data
		full := frameAnswers(t, open(t, pristine), addrs)
		none := frameAnswers(t, open(t, nil), addrs)
		equalFull := func(got []Frame) int {
			n := 0
			for i := range got {
				if got[i] == full[i] {
					n++
				}
			}
			return n
		}
		for _, tc := range cases {
			t.Run(variant+"/"+tc.name, func(t *testing.T) {
				d := damage(t, filepath.Join("dwz", variant, "common.debug"))
				tc.damage(d)
				o := open(t, d.data)
				if err := o.SupplementaryError(); err != nil {
					t.Errorf("SupplementaryError() = %v; the damaged file should still be used", err)
				}
				got := ""
				if derr := o.Damage(); derr != nil {
					got = derr.Error()
				}
				for _, w := range tc.wantDamage {
					if !strings.Contains(got, w) || strings.Contains(got, "\n") {
						t.Errorf("Damage() = %q, want one line containing %q", got, w)
					}
				}
				ans := frameAnswers(t, o, addrs)
				if len(ans) != len(full) {
					t.Fatalf("%d frames, the intact pair gives %d", len(ans), len(full))
				}
				lost := false
				for i := range ans {
					if tc.kept != nil && tc.kept(ans[i]) != tc.kept(full[i]) {
						t.Errorf("frame %d: %q, the intact pair answers %q: that part does not depend on the damage", i, tc.kept(ans[i]), tc.kept(full[i]))
					}
					lost = lost || tc.lost(ans[i]) != tc.lost(full[i])
				}
				if !lost {
					t.Error("nothing was lost: the damage shows nothing")
				}
				if g, n := equalFull(ans), equalFull(none); g <= n {
					t.Errorf("%d frames answer as with the intact pair, %d without any supplementary file: the rest of the file was not used", g, n)
				}
			})
		}
	}
}
