// Package elfbuild writes small ELF64 little-endian files with the
// sections a test gives, so fuzz targets can put arbitrary bytes in one
// section (a compressed DWARF section, a symbol table, a debug link) of an
// otherwise well-formed file. Test helper only.
package elfbuild

import (
	"debug/elf"
	"encoding/binary"
)

// A Section is one section of the file: its bytes are written as they
// are (compress them yourself for SHF_COMPRESSED).
type Section struct {
	Name  string
	Type  elf.SectionType
	Flags elf.SectionFlag
	Addr  uint64
	Link  uint32
	Data  []byte
}

// Build returns an ET_DYN x86-64 file holding sections after the null
// section, followed by .shstrtab.
func Build(sections ...Section) []byte {
	const ehsize, shentsize = 64, 64
	le := binary.LittleEndian
	names := []byte{0}
	nameOff := make([]uint32, len(sections)+1)
	for i, s := range sections {
		nameOff[i] = uint32(len(names))
		names = append(append(names, s.Name...), 0)
	}
	nameOff[len(sections)] = uint32(len(names))
	names = append(names, ".shstrtab\x00"...)
	all := append(append([]Section(nil), sections...), Section{Type: elf.SHT_STRTAB, Data: names})

	out := make([]byte, ehsize)
	offs := make([]uint64, len(all))
	for i, s := range all {
		for len(out)%8 != 0 {
			out = append(out, 0)
		}
		offs[i] = uint64(len(out))
		out = append(out, s.Data...)
	}
	for len(out)%8 != 0 {
		out = append(out, 0)
	}
	shoff := uint64(len(out))
	out = append(out, make([]byte, shentsize*(len(all)+1))...)
	for i, s := range all {
		h := out[shoff+uint64(i+1)*shentsize:]
		le.PutUint32(h[0:], nameOff[i])
		le.PutUint32(h[4:], uint32(s.Type))
		le.PutUint64(h[8:], uint64(s.Flags))
		le.PutUint64(h[16:], s.Addr)
		le.PutUint64(h[24:], offs[i])
		le.PutUint64(h[32:], uint64(len(s.Data)))
		le.PutUint32(h[40:], s.Link)
		if s.Type == elf.SHT_SYMTAB || s.Type == elf.SHT_DYNSYM {
			le.PutUint64(h[56:], 24)
		}
		le.PutUint64(h[48:], 1)
	}
	copy(out, elf.ELFMAG)
	out[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	out[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	out[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	le.PutUint16(out[0x10:], uint16(elf.ET_DYN))
	le.PutUint16(out[0x12:], uint16(elf.EM_X86_64))
	le.PutUint32(out[0x14:], uint32(elf.EV_CURRENT))
	le.PutUint64(out[0x28:], shoff)
	le.PutUint16(out[0x34:], ehsize)
	le.PutUint16(out[0x3a:], shentsize)
	le.PutUint16(out[0x3c:], uint16(len(all)+1))
	le.PutUint16(out[0x3e:], uint16(len(all)))
	return out
}

// Chdr returns an ELF64 compression header for data of size inflated
// bytes compressed with typ, to be followed by the compressed stream.
func Chdr(typ elf.CompressionType, size uint64) []byte {
	h := make([]byte, 24)
	binary.LittleEndian.PutUint32(h[0:], uint32(typ))
	binary.LittleEndian.PutUint64(h[8:], size)
	binary.LittleEndian.PutUint64(h[16:], 1)
	return h
}
