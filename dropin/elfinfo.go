package dropin

import (
	"debug/elf"
	"fmt"
)

// preferredBase is the address an object prefers to be loaded at (LLVM's
// getPreferredBase for ELF): the lowest PT_LOAD address, aligned down.
func preferredBase(path string) (uint64, error) {
	f, err := elf.Open(path)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	base := ^uint64(0)
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		v := p.Vaddr
		if p.Align > 1 {
			v &^= p.Align - 1
		}
		base = min(base, v)
	}
	if base == ^uint64(0) {
		return 0, nil
	}
	return base, nil
}

// allocatedSection reports whether addr lies in an SHF_ALLOC section, the
// only places GNU addr2line looks for an address.
func allocatedSection(f *elf.File, addr uint64) bool {
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		if addr >= s.Addr && addr-s.Addr < s.Size {
			return true
		}
	}
	return false
}
