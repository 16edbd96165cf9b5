package symbolize

import (
	"debug/elf"
	"sort"
)

// symbol is an ELF symbol-table entry the engine can name addresses with.
type symbol struct {
	addr, size uint64
	limit      uint64 // end of the symbol's section: bounds a size-0 symbol
	name       string
	file       string // the preceding STT_FILE name, for local symbols
	local      bool   // file applies for llvm too (it names locals only)
	kind       elf.SymType
}

// symtab is a symbol table sorted by address, as llvm-symbolizer keeps it.
type symtab struct {
	syms []symbol
}

// readSymtab reads .symtab, falling back to .dynsym when the file has no
// static symbols (stripped binaries), as llvm-symbolizer does.
func readSymtab(f *elf.File) (symtab, error) {
	syms, err := f.Symbols()
	if err != nil || len(syms) == 0 {
		dyn, derr := f.DynamicSymbols()
		if derr == nil {
			syms, err = dyn, nil
		}
	}
	var t symtab
	// file tracks the last STT_FILE symbol as llvm and bfd do: it names the
	// source of the local symbols that follow it. Global symbols after a
	// file symbol that itself followed other symbols get no file (bfd's
	// file_after_symbol_seen state).
	var file string
	haveFile, symbolSeen, fileAfterSymbol := false, false, false
	for _, s := range syms {
		typ := elf.ST_TYPE(s.Info)
		if typ == elf.STT_FILE {
			file, haveFile = s.Name, true
			if symbolSeen {
				fileAfterSymbol = true
			}
			continue
		}
		symbolSeen = true
		switch typ {
		case elf.STT_NOTYPE, elf.STT_FUNC, elf.STT_OBJECT, elf.STT_GNU_IFUNC, elf.STT_TLS, elf.STT_COMMON:
		default:
			continue
		}
		// Symbols in no (or a special) section are not addresses of this file.
		if s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE {
			continue
		}
		var limit uint64
		if int(s.Section) < len(f.Sections) {
			sec := f.Sections[s.Section]
			limit = sec.Addr + sec.Size
		}
		sym := symbol{addr: s.Value, size: s.Size, limit: limit, name: s.Name, kind: typ}
		if haveFile && (elf.ST_BIND(s.Info) == elf.STB_LOCAL || !fileAfterSymbol) {
			sym.file = file
			sym.local = elf.ST_BIND(s.Info) == elf.STB_LOCAL
		}
		t.syms = append(t.syms, sym)
	}
	// Sort by (address, size) and drop exact duplicates (a symbol present in
	// both tables, aliases with the same size keep the first name by table
	// order).
	sort.SliceStable(t.syms, func(i, j int) bool {
		a, b := t.syms[i], t.syms[j]
		if a.addr != b.addr {
			return a.addr < b.addr
		}
		return a.size < b.size
	})
	return t, err
}

// find returns the symbol containing addr: the last symbol starting at or
// below addr, provided addr lies inside its size; a size-0 symbol extends to
// the next symbol, and the last one only to the end of its section. Unlike
// llvm-symbolizer 14, the final marker (_end) therefore does not swallow
// every address above it (documented in differences.md).
func (t *symtab) find(addr uint64, ok func(*symbol) bool) (*symbol, bool) {
	i := sort.Search(len(t.syms), func(i int) bool { return t.syms[i].addr > addr })
	for i > 0 {
		i--
		s := &t.syms[i]
		if ok != nil && !ok(s) {
			continue
		}
		if s.size == 0 {
			// Like llvm, a size-0 symbol reaches up to the next symbol
			// (_init covers .plt); the last one only to its section's end.
			if i+1 < len(t.syms) || addr < s.limit {
				return s, true
			}
			return nil, false
		}
		if addr < s.addr+s.size {
			return s, true
		}
		return nil, false
	}
	return nil, false
}

// findData answers a DATA query: the data symbol containing addr.
func (t *symtab) findData(addr uint64) (*symbol, bool) {
	return t.find(addr, func(s *symbol) bool {
		return s.kind == elf.STT_OBJECT || s.kind == elf.STT_TLS || s.kind == elf.STT_COMMON || s.kind == elf.STT_NOTYPE
	})
}
