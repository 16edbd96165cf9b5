package cfi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// gccEH returns testdata/elf/c-O2-dw5-pie's .eh_frame: CIEs at 0x0 and
// 0x30; FDEs at 0x18, 0x48 (pc 0x1020..0x1080), 0x70, 0x88, 0x9c, 0xb8;
// the terminator at 0xdc.
func gccEH(t *testing.T) *section {
	t.Helper()
	f := fixture.OpenELF(t, "../testdata/elf/c-O2-dw5-pie")
	sh := f.Section(".eh_frame")
	data, err := sh.Data()
	if err != nil {
		t.Fatal(err)
	}
	return &section{name: ".eh_frame", addr: sh.Addr, eh: true, data: data, bo: binary.LittleEndian, addrSize: 8}
}

func tableOf(s *section) *Table {
	t := &Table{ehByOff: map[uint64]*FDE{}, addrSize: 8, secs: []*section{s}}
	t.build()
	return t
}

// TestMalformedEntries: each kind of damage costs one clear error for the
// entry it hits; the other entries are still read, and nothing panics.
func TestMalformedEntries(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(b []byte)
		wantErr string
		fdes    int // FDEs still indexed
	}{
		{"intact", func([]byte) {}, "", 6},
		{"length past the section", func(b []byte) { binary.LittleEndian.PutUint32(b[0x48:], 0x7fffffff) }, "runs past the end of the section", 1},
		{"CIE pointer before the section", func(b []byte) { binary.LittleEndian.PutUint32(b[0x4c:], 0x4000) }, "points before the section", 5},
		{"CIE pointer to an FDE", func(b []byte) { binary.LittleEndian.PutUint32(b[0x4c:], 4) }, "no CIE at 0x48", 5},
		{"unsupported CIE version", func(b []byte) { b[0x38] = 9 }, "unsupported version 9", 1},
		{"augmentation data past the entry", func(b []byte) { b[0x58] = 0x40 }, "augmentation data length 0x40", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := gccEH(t)
			tt.mutate(s.data)
			tab := tableOf(s)
			var msgs []string
			for _, e := range tab.Errors() {
				msgs = append(msgs, e.Error())
			}
			all := strings.Join(msgs, "\n")
			if tt.wantErr == "" && len(msgs) > 0 || tt.wantErr != "" && !strings.Contains(all, tt.wantErr) {
				t.Errorf("errors %q, want one containing %q", msgs, tt.wantErr)
			}
			if len(tab.fdes) != tt.fdes {
				t.Errorf("%d FDEs indexed, want %d", len(tab.fdes), tt.fdes)
			}
			// The dumps report the entry and go on.
			var warns []string
			var out bytes.Buffer
			w := bufioWriter(&out)
			dumpSection(w, s, regNames(regNamesX8664[:]), true, func(err error) { warns = append(warns, err.Error()) })
			w.Flush()
			if tt.wantErr != "" && !strings.Contains(strings.Join(warns, "\n"), tt.wantErr) {
				t.Errorf("dump warnings %q, want one containing %q", warns, tt.wantErr)
			}
			if tt.fdes > 1 && !strings.Contains(out.String(), "pc=0000000000001090..00000000000010fa") {
				t.Errorf("dump lost the intact FDE at 0xb8:\n%s", out.String())
			}
		})
	}
}

// TestMalformedRows: damage inside an instruction stream or an expression
// fails the row or the step of that FDE only.
func TestMalformedRows(t *testing.T) {
	tests := []struct {
		name    string
		fde     []byte
		wantErr string // from RowAt, or else from Step
	}{
		{"expression length runs off", []byte{0x0f, 0x7f, 0x77}, "corrupt length"},
		{"operand runs off", []byte{0x0c, 0x07}, "runs past the end"},
		{"unknown instruction", []byte{0x3a}, "call frame instruction 0x3a"},
		{"restore_state without remember", []byte{0x0b}, "without DW_CFA_remember_state"},
		{"remember_state flood", bytes.Repeat([]byte{0x0a}, 300), "nested deeper"},
		{"expression loop", []byte{0x0f, 0x03, 0x2f, 0xfd, 0xff}, "step limit"},
		{"expression underflow", []byte{0x0f, 0x01, 0x22}, "underflow"},
		{"expression branch outside", []byte{0x0f, 0x03, 0x2f, 0x00, 0x10}, "outside the expression"},
		{"register out of range", []byte{0x05, 0x80, 0x10, 0x01}, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := tableOf(rawSection(ehFrame(t0CIE, tt.fde), true))
			if len(tab.Errors()) > 0 {
				t.Fatalf("load: %v", tab.Errors())
			}
			var regs Regs
			regs.Set(RegRIP, 0x2000)
			regs.Set(RegRSP, 0x8000)
			_, err := tab.Step(regs, 0, zeroMem{})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Step: %v, want an error containing %q", err, tt.wantErr)
			}
			if errors.Is(err, ErrNoFDE) {
				t.Errorf("Step: %v: the FDE was lost", err)
			}
		})
	}
}

func bufioWriter(b *bytes.Buffer) *bufio.Writer { return bufio.NewWriter(b) }
