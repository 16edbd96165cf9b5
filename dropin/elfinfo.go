package dropin

import "debug/elf"

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
