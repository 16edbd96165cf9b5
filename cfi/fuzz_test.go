package cfi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// rawSection wraps bytes as a little-endian x86-64 CFI section at 0x1000.
func rawSection(data []byte, eh bool) *section {
	name := ".debug_frame"
	if eh {
		name = ".eh_frame"
	}
	return &section{name: name, addr: 0x1000, eh: eh, data: data, bo: binary.LittleEndian, addrSize: 8}
}

// zeroMem is a Memory of zeros below 1<<32 and nothing above.
type zeroMem struct{}

func (zeroMem) ReadAt(p []byte, addr uint64) (int, error) {
	if addr >= 1<<32 {
		return 0, io.EOF
	}
	clear(p)
	return len(p), nil
}

// exercise runs everything the package does with a section: the index,
// rows at both ends of every FDE, a Step from each, both dumps and JSON.
func exercise(t *testing.T, s *section) {
	tab := &Table{ehByOff: map[uint64]*FDE{}, addrSize: 8, secs: []*section{s}}
	tab.build()
	for _, f := range tab.fdes {
		for _, pc := range []uint64{f.Begin, f.Begin + (f.End-f.Begin)/2, f.End - 1} {
			if _, ok := tab.FDEFor(pc); !ok {
				t.Fatalf("FDEFor(%#x) misses the FDE at 0x%x", pc, f.Offset)
			}
			row, err := f.RowAt(pc)
			if err != nil {
				continue
			}
			var regs Regs
			for n := uint64(0); n < NumRegs; n++ {
				regs.Set(n, 0x1000*n)
			}
			tab.StepRow(row, regs, zeroMem{})
		}
	}
	tab.Functions()
	w := bufio.NewWriter(io.Discard)
	for _, interp := range []bool{false, true} {
		dumpSection(w, s, regNames(regNamesX8664[:]), interp, func(error) {})
	}
	d := &dumper{sec: s, names: regNames(regNamesX8664[:]), interp: true, warn: func(error) {}, collect: true}
	d.entries(func(JSONEntry) {})
}

// FuzzSection feeds arbitrary bytes as an .eh_frame or .debug_frame.
// Seeds (testdata/fuzz/FuzzSection) are sections of the fixtures and
// hand-broken variants of them.
func FuzzSection(f *testing.F) {
	f.Add(ehFrame(t0CIE, []byte{0x41, 0x0e, 0x10, 0x86, 0x02}), true)
	f.Fuzz(func(t *testing.T, data []byte, eh bool) {
		exercise(t, rawSection(data, eh))
	})
}

// t0CIE are the initial instructions of gcc's x86-64 CIE: DW_CFA_def_cfa
// rsp 8, DW_CFA_offset rip at cfa-8.
var t0CIE = []byte{0x0c, 0x07, 0x08, 0x90, 0x01}

// ehFrame builds an .eh_frame (at 0x1000) of one "zR" CIE with the given
// initial instructions and one FDE covering [0x2000, 0x2100) with fde.
func ehFrame(cie, fde []byte) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	body := append([]byte{0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b}, cie...)
	b.Write(le.AppendUint32(nil, uint32(len(body))))
	b.Write(body)
	fdeOff := b.Len()
	fb := le.AppendUint32(nil, uint32(fdeOff+4)) // CIE pointer: back to 0
	pcAt := 0x1000 + fdeOff + 8
	fb = le.AppendUint32(fb, uint32(0x2000-pcAt))
	fb = le.AppendUint32(fb, 0x100)
	fb = append(fb, 0) // augmentation data length
	fb = append(fb, fde...)
	b.Write(le.AppendUint32(nil, uint32(len(fb))))
	b.Write(fb)
	b.Write([]byte{0, 0, 0, 0})
	return b.Bytes()
}

// FuzzRows runs arbitrary CIE and FDE instruction streams through the row
// evaluator and a Step, and arbitrary bytes as a DWARF expression.
func FuzzRows(f *testing.F) {
	f.Add(t0CIE, []byte{0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06}, uint8(5))
	f.Add(t0CIE, []byte{0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22}, uint8(0))
	f.Add(t0CIE, []byte{0x10, 0x03, 0x03, 0x2f, 0xfd, 0xff}, uint8(1))
	f.Fuzz(func(t *testing.T, cie, fde []byte, at uint8) {
		s := rawSection(ehFrame(cie, fde), true)
		tab := &Table{ehByOff: map[uint64]*FDE{}, addrSize: 8, secs: []*section{s}}
		tab.build()
		var regs Regs
		for n := uint64(0); n < NumRegs; n++ {
			regs.Set(n, 0x100*n)
		}
		regs.Set(RegRIP, 0x2000+uint64(at))
		tab.Step(regs, 0, zeroMem{})
		evalExpr(fde, []uint64{0x1000}, &regs, zeroMem{}, binary.LittleEndian, 8)
		exercise(t, s)
	})
}
