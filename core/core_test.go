package core

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// fixtureCore is the committed gcore core (testdata/Makefile's core target).
func fixtureCore(t testing.TB) []byte {
	t.Helper()
	return fixture.Gunzip(t, filepath.Join("..", "testdata", "core", "core.gz"))
}

func TestParseFixture(t *testing.T) {
	b := fixtureCore(t)
	c, err := Parse(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Errors) != 0 {
		t.Errorf("errors: %v", c.Errors)
	}
	if len(c.Threads) != 3 {
		t.Fatalf("%d threads, want 3", len(c.Threads))
	}
	crashed := c.CrashingThread()
	if crashed != c.Threads[0] || c.Signal == nil || c.Signal.Number != 11 || !c.Signal.HasAddr || c.Signal.Addr != 0 {
		t.Errorf("crashing thread %+v, signal %+v", crashed, c.Signal)
	}
	if c.Command != "/tmp/sanitrace/core/crash" {
		t.Errorf("command %q", c.Command)
	}
	if len(c.Mappings) == 0 || c.Mappings[0].Path != "/tmp/sanitrace/core/crash" || c.Mappings[0].Offset != 0 {
		t.Errorf("mappings %+v", c.Mappings)
	}
	if entry, ok := c.Aux(9); !ok || entry == 0 {
		t.Errorf("AT_ENTRY missing from %d auxv entries", len(c.Auxv))
	}
	// The build-id is read from the core's copy of the first page.
	id, err := c.BuildIDAt(c.Mappings[0].Start)
	if err != nil || len(id) != 20 {
		t.Errorf("build-id %x, %v", id, err)
	}
	// The stack pointer of every thread is readable memory.
	for _, th := range c.Threads {
		if _, err := c.Uint64(th.Regs.RSP); err != nil {
			t.Errorf("thread %d: rsp 0x%x: %v", th.TID, th.Regs.RSP, err)
		}
	}
	if _, err := c.Uint64(8); !errors.Is(err, ErrUnmapped) {
		t.Errorf("address 8: %v, want ErrUnmapped", err)
	}
}

// noCFI is a module map without CFI: unwinding falls back on frame
// pointers and stack scanning.
func fixtureModules(c *File) Modules {
	var ms Modules
	for _, m := range c.Mappings {
		if len(ms) > 0 && ms[len(ms)-1].Path == m.Path {
			ms[len(ms)-1].End = m.End
			continue
		}
		ms = append(ms, &Module{Path: m.Path, Start: m.Start, End: m.End})
	}
	for _, m := range ms {
		m.Text = c.ExecRanges(m.Start, m.End)
	}
	return ms
}

// TestUnwindWithoutCFI: with no CFI at all, the walk still ends (by frame
// pointers, scanning, the signal frame) and says how each frame was found.
func TestUnwindWithoutCFI(t *testing.T) {
	b := fixtureCore(t)
	c, err := Parse(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	mods := fixtureModules(c)
	for _, th := range c.Threads {
		frames, _ := Unwind(th, mods, c, UnwindOptions{})
		if len(frames) < 2 || frames[0].UnwoundBy != ByRegisters {
			t.Errorf("thread %d: %d frames", th.TID, len(frames))
		}
		for _, f := range frames[1:] {
			if f.UnwoundBy == ByCFI {
				t.Errorf("thread %d: a frame found by CFI without CFI", th.TID)
			}
		}
	}
	// The crashing thread crosses the signal frame by the kernel's layout.
	frames, _ := Unwind(c.Threads[0], mods, c, UnwindOptions{})
	sig := -1
	for i, f := range frames {
		if f.Kind == KindSigtramp {
			sig = i
		}
	}
	if sig < 0 || sig+1 >= len(frames) || frames[sig+1].UnwoundBy != ByRegisters || frames[sig+1].LookupPC != frames[sig+1].PC {
		t.Errorf("no signal frame followed by the interrupted frame (pc not adjusted): %+v", frames)
	}
}

// cyclicMemory is a stack whose frame-pointer chain points to itself.
type cyclicMemory struct{ sp uint64 }

func (m cyclicMemory) ReadAt(p []byte, addr uint64) (int, error) {
	for i := range p {
		p[i] = 0
	}
	// [sp] = sp (saved rbp), [sp+8] = a "return address" after a call.
	if addr == m.sp && len(p) >= 16 {
		binary.LittleEndian.PutUint64(p, m.sp)
		binary.LittleEndian.PutUint64(p[8:], 0x1005)
		return len(p), nil
	}
	if addr >= 0x1000-7 && addr < 0x2000 { // code: every byte a call rel32
		for i := range p {
			p[i] = 0xe8
		}
		return len(p), nil
	}
	return len(p), nil
}

// TestUnwindCyclic: a stack that loops ends with an error, not a hang.
func TestUnwindCyclic(t *testing.T) {
	mods := Modules{{Path: "x", Start: 0x1000, End: 0x2000, Text: [][2]uint64{{0x1000, 0x2000}}}}
	var regs RegSet
	regs.Set(RegRIP, 0x1100)
	regs.Set(RegRSP, 0x8000)
	regs.Set(RegRBP, 0x8000)
	frames, err := UnwindFrom(regs, mods, cyclicMemory{sp: 0x8000}, UnwindOptions{MaxFrames: 100})
	if err == nil || len(frames) > 100 {
		t.Errorf("cyclic stack: %d frames, err %v", len(frames), err)
	}
}

// TestMutatedCores: truncated notes, wrong sizes and garbage in the
// headers give errors, never a panic or a hang; every thread either
// unwinds or says why not.
func TestMutatedCores(t *testing.T) {
	orig := fixtureCore(t)
	c0, err := Parse(bytes.NewReader(orig), int64(len(orig)))
	if err != nil {
		t.Fatal(err)
	}
	noteOff := noteOffset(t, orig)
	mutations := map[string]func([]byte) []byte{
		"truncated in the notes":      func(b []byte) []byte { return b[:noteOff+100] },
		"truncated after the headers": func(b []byte) []byte { return b[:64+56*4] },
		"first note size huge": func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[noteOff+4:], 0xfffffff0)
			return b
		},
		"prstatus too small": func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[noteOff+4+20+0x88:], 16) // after NT_PRPSINFO
			return b
		},
		"phnum huge": func(b []byte) []byte {
			binary.LittleEndian.PutUint16(b[56:], 0xfff0)
			return b
		},
		"segments past the end": func(b []byte) []byte {
			for i := 0; i < 30; i++ {
				binary.LittleEndian.PutUint64(b[64+i*56+8:], 1<<40)
			}
			return b
		},
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			b := mutate(append([]byte(nil), orig...))
			c, err := Parse(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				return // refused as a whole, with a reason
			}
			if len(c.Errors) == 0 && len(b) == len(orig) && name != "prstatus too small" {
				t.Errorf("no error reported")
			}
			mods := fixtureModules(c)
			for _, th := range c.Threads {
				frames, err := Unwind(th, mods, c, UnwindOptions{})
				if len(frames) == 0 && err == nil {
					t.Errorf("thread %d: no frames and no error", th.TID)
				}
			}
		})
	}
	// Garbage stacks: every word of every thread's stack overwritten.
	b := append([]byte(nil), orig...)
	for _, th := range c0.Threads {
		if s := c0.segment(th.Regs.RSP); s != nil {
			for o := s.off; o < s.off+s.filesz && o+8 <= uint64(len(b)); o += 8 {
				binary.LittleEndian.PutUint64(b[o:], th.Regs.RSP+uint64(o-s.off)%64)
			}
		}
	}
	c, _ := Parse(bytes.NewReader(b), int64(len(b)))
	for _, th := range c.Threads {
		Unwind(th, fixtureModules(c), c, UnwindOptions{})
	}
}

// notesOnly rebuilds a core as its ELF header, one PT_NOTE and the notes:
// the part the reader parses, small enough for a fuzzer to mutate.
func notesOnly(t testing.TB, b []byte) []byte {
	le := binary.LittleEndian
	phoff, phnum := le.Uint64(b[32:]), int(le.Uint16(b[56:]))
	var off, size uint64
	for i := 0; i < phnum; i++ {
		ph := b[int(phoff)+i*56:]
		if le.Uint32(ph) == ptNote {
			off, size = le.Uint64(ph[8:]), le.Uint64(ph[32:])
		}
	}
	out := append([]byte(nil), b[:64]...)
	le.PutUint64(out[32:], 64) // e_phoff
	le.PutUint16(out[56:], 1)  // e_phnum
	le.PutUint64(out[40:], 0)  // e_shoff
	le.PutUint16(out[60:], 0)  // e_shnum
	ph := make([]byte, 56)
	le.PutUint32(ph, ptNote)
	le.PutUint64(ph[8:], 120)
	le.PutUint64(ph[32:], size)
	out = append(out, ph...)
	return append(out, b[off:off+size]...)
}

func noteOffset(t testing.TB, b []byte) int {
	le := binary.LittleEndian
	phoff, phnum := le.Uint64(b[32:]), int(le.Uint16(b[56:]))
	for i := 0; i < phnum; i++ {
		ph := b[int(phoff)+i*56:]
		if le.Uint32(ph) == ptNote {
			return int(le.Uint64(ph[8:]))
		}
	}
	t.Fatal("no PT_NOTE")
	return 0
}

// FuzzParseCore fuzzes the core reader: headers, notes and memory reads,
// and an unwind of every thread over the result.
func FuzzParseCore(f *testing.F) {
	orig := fixtureCore(f)
	f.Add(notesOnly(f, orig))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		c.CrashingThread()
		for _, m := range c.Mappings {
			c.BuildIDAt(m.Start)
		}
		mods := fixtureModules(c)
		for i, th := range c.Threads {
			if i >= 4 {
				break
			}
			Unwind(th, mods, c, UnwindOptions{MaxFrames: 64, ScanWords: 64})
		}
	})
}
