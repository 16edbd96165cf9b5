package cfi

import (
	"debug/elf"
	"fmt"
)

// applyRelocations applies to data, the contents of section target of a
// relocatable object (ET_REL: a .o, a kernel module), the relocations that
// name it, as readelf does before dumping: a pointer in an object's
// .eh_frame or .debug_frame is only an addend until then. Only the types
// that CFI uses are handled (x86-64 RELA: 64, PC32, 32, 32S, PC64; i386
// REL: 32, PC32); others are reported and left alone. The section
// addresses of an object are 0, so a symbol's value is its offset.
func applyRelocations(f *elf.File, target *elf.Section, data []byte) error {
	if f.Type != elf.ET_REL {
		return nil
	}
	idx := -1
	for i, s := range f.Sections {
		if s == target {
			idx = i
		}
	}
	var syms []elf.Symbol
	var firstErr error
	for _, rs := range f.Sections {
		if rs.Info != uint32(idx) || rs.Type != elf.SHT_RELA && rs.Type != elf.SHT_REL {
			continue
		}
		if syms == nil {
			var err error
			if syms, err = f.Symbols(); err != nil {
				return fmt.Errorf("%s: symbols for %s: %v", target.Name, rs.Name, err)
			}
		}
		rd, err := rs.Data()
		if err != nil {
			return fmt.Errorf("%s: %v", rs.Name, err)
		}
		if err := relocate(f, rs, rd, syms, target.Addr, data); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// relocKind is what a relocation type does: the size of the field it
// writes (0: nothing, R_*_NONE) and whether its value is PC-relative.
type relocKind struct {
	size  int
	pcrel bool
}

// relocKinds are the relocation types compilers emit in CFI, by machine;
// the others are reported as unsupported. Read only.
var relocKinds = map[elf.Machine]map[uint32]relocKind{
	elf.EM_X86_64: {
		uint32(elf.R_X86_64_NONE): {},
		uint32(elf.R_X86_64_64):   {size: 8},
		uint32(elf.R_X86_64_PC32): {size: 4, pcrel: true},
		uint32(elf.R_X86_64_32):   {size: 4},
		uint32(elf.R_X86_64_32S):  {size: 4},
		uint32(elf.R_X86_64_PC64): {size: 8, pcrel: true},
	},
	elf.EM_386: {
		uint32(elf.R_386_NONE): {},
		uint32(elf.R_386_32):   {size: 4},
		uint32(elf.R_386_PC32): {size: 4, pcrel: true},
	},
}

func relocate(f *elf.File, rs *elf.Section, rd []byte, syms []elf.Symbol, base uint64, data []byte) error {
	bo := f.ByteOrder
	rela := rs.Type == elf.SHT_RELA
	var entSize int
	switch {
	case f.Class == elf.ELFCLASS64 && rela:
		entSize = 24
	case f.Class == elf.ELFCLASS64:
		entSize = 16
	case rela:
		entSize = 12
	default:
		entSize = 8
	}
	var firstErr error
	for p := 0; p+entSize <= len(rd); p += entSize {
		var off, symIdx uint64
		var typ uint32
		var addend int64
		if f.Class == elf.ELFCLASS64 {
			off = bo.Uint64(rd[p:])
			info := bo.Uint64(rd[p+8:])
			symIdx, typ = info>>32, uint32(info)
			if rela {
				addend = int64(bo.Uint64(rd[p+16:]))
			}
		} else {
			off = uint64(bo.Uint32(rd[p:]))
			info := bo.Uint32(rd[p+4:])
			symIdx, typ = uint64(info>>8), info&0xff
			if rela {
				addend = int64(int32(bo.Uint32(rd[p+8:])))
			}
		}
		k, known := relocKinds[f.Machine][typ]
		if known && k.size == 0 {
			continue // R_*_NONE
		}
		size, pcrel := k.size, k.pcrel
		if size == 0 {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: unsupported relocation type %d at 0x%x", rs.Name, typ, off)
			}
			continue
		}
		if off > uint64(len(data)) || uint64(len(data))-off < uint64(size) {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: relocation at 0x%x outside the section", rs.Name, off)
			}
			continue
		}
		var symVal uint64
		if symIdx > 0 {
			if symIdx > uint64(len(syms)) {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s: relocation at 0x%x names symbol %d of %d", rs.Name, off, symIdx, len(syms))
				}
				continue
			}
			symVal = syms[symIdx-1].Value // Symbols() leaves out the null symbol
		}
		field := data[off : off+uint64(size)]
		if !rela {
			// REL: the addend is the field's current contents.
			if size == 4 {
				addend = int64(int32(bo.Uint32(field)))
			} else {
				addend = int64(bo.Uint64(field))
			}
		}
		v := symVal + uint64(addend)
		if pcrel {
			v -= base + off
		}
		if size == 4 {
			bo.PutUint32(field, uint32(v))
		} else {
			bo.PutUint64(field, v)
		}
	}
	return firstErr
}
