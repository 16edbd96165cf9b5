package core

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// BuildIDAt reads the GNU build-id of the ELF image mapped at base from the
// core's own memory: its ELF header and program headers, then the
// NT_GNU_BUILD_ID note of a PT_NOTE segment. The kernel dumps the first
// page of every ELF mapping (coredump_filter bit 4) for this; the mapped
// files attached to the core are not consulted, so the answer says which
// file the process ran, not which one is on disk.
func (c *File) BuildIDAt(base uint64) ([]byte, error) {
	var h [64]byte
	if _, err := c.ReadCoreAt(h[:], base); err != nil {
		return nil, fmt.Errorf("ELF header at 0x%x not in the core: %w", base, err)
	}
	if string(h[:4]) != "\x7fELF" || h[4] != 2 || h[5] != 1 {
		return nil, fmt.Errorf("no 64-bit little-endian ELF header at 0x%x", base)
	}
	le := binary.LittleEndian
	phoff, phentsize, phnum := le.Uint64(h[32:]), uint64(le.Uint16(h[54:])), uint64(le.Uint16(h[56:]))
	if phentsize < 56 || phnum > 256 || phoff > 1<<20 {
		return nil, fmt.Errorf("ELF header at 0x%x: implausible program headers", base)
	}
	// The image's link-time base: the first PT_LOAD's page.
	var first uint64
	haveFirst := false
	type note struct{ vaddr, size uint64 }
	var notes []note
	var ph [56]byte
	for i := uint64(0); i < phnum; i++ {
		if _, err := c.ReadCoreAt(ph[:], base+phoff+i*phentsize); err != nil {
			return nil, fmt.Errorf("program headers at 0x%x not in the core: %w", base+phoff, err)
		}
		switch le.Uint32(ph[0:]) {
		case ptLoad:
			if !haveFirst {
				first, haveFirst = le.Uint64(ph[16:])&^0xfff, true
			}
		case ptNote:
			notes = append(notes, note{le.Uint64(ph[16:]), le.Uint64(ph[32:])})
		}
	}
	for _, n := range notes {
		if n.size > 1<<16 || n.vaddr < first {
			continue
		}
		buf := make([]byte, n.size)
		if _, err := c.ReadCoreAt(buf, base+n.vaddr-first); err != nil {
			continue
		}
		if id := gnuBuildID(buf); id != nil {
			return id, nil
		}
	}
	return nil, errNoBuildID
}

var errNoBuildID = errors.New("no build-id note in the core's copy of the module")

// gnuBuildID finds the NT_GNU_BUILD_ID note ("GNU", type 3) in notes.
func gnuBuildID(b []byte) []byte {
	le := binary.LittleEndian
	for len(b) >= 12 {
		namesz, descsz, typ := uint64(le.Uint32(b)), uint64(le.Uint32(b[4:])), le.Uint32(b[8:])
		nameEnd := 12 + align4(namesz)
		end := nameEnd + align4(descsz)
		if nameEnd > uint64(len(b)) || nameEnd+descsz > uint64(len(b)) {
			return nil
		}
		if typ == 3 && namesz == 4 && string(b[12:15]) == "GNU" && descsz > 0 {
			return append([]byte(nil), b[nameEnd:nameEnd+descsz]...)
		}
		if end > uint64(len(b)) {
			return nil
		}
		b = b[end:]
	}
	return nil
}
