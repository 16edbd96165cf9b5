package symbolize

import (
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// symbol is an ELF symbol-table entry the engine can name addresses with.
// A Go binary has tens of thousands, all kept for the session: the ELF
// fields are held at their width in the file (st_info's type is 4 bits;
// st_shndx 16, and the special indices are skipped), positions in 32 bits
// (readSymtab keeps at most maxSymbols), and a symbol's section end is
// looked up by its section, not stored with each, and its file name is
// an index into the table's STT_FILE names. Its address is in
// symtab.addrs (see funcRange).
type symbol struct {
	size       uint64
	name       string
	file       int32  // the preceding STT_FILE name (symtab.files), for local symbols; -1: none
	order      int32  // position in the table, for bfd's tie-breaking
	slot       int32  // its demangled-name slot in symtab.demangled; -1: not mangled
	section    uint16 // elf.SectionIndex, below SHN_LORESERVE
	kind       uint8  // elf.SymType
	local      bool   // file applies for llvm too (it names locals only)
	hiddenNote bool   // bfd skips it: local, hidden, untyped, size 0 (annobin)
}

// typ returns the symbol's ELF type.
func (s *symbol) typ() elf.SymType { return elf.SymType(s.kind) }

// maxSymbols is how many symbols readSymtab keeps: positions are int32.
const maxSymbols = math.MaxInt32

// symtab is a symbol table sorted by address, as llvm-symbolizer keeps it.
type symtab struct {
	syms      []symbol
	addrs     []uint64                  // addrs[i] is the address of syms[i]
	index     dwarf.AddrIndex           // over addrs
	secEnds   []uint64                  // by section index: end address, bounds a size-0 symbol
	files     []string                  // the STT_FILE names, in table order (symbol.file)
	secs      []allocSection            // SHF_ALLOC sections in header order, for GNU240
	demangled []atomic.Pointer[symName] // one per mangled name (symbol.slot), filled on use
	dynamic   bool                      // the symbols are .dynsym's: the file has no readable .symtab
}

// richerThan reports whether t names more than u, the table of the same
// program in another file: t is a .symtab where u is only .dynsym (strip
// --strip-all), or t keeps STT_FILE symbols u lost (objcopy
// --strip-debug drops them with the DWARF; the debug file keeps them).
func (t *symtab) richerThan(u *symtab) bool {
	if len(t.syms) == 0 || t.dynamic {
		return false
	}
	return u.dynamic || len(u.syms) == 0 || len(t.files) > len(u.files)
}

// allocSection is a loaded section's address range.
type allocSection struct {
	addr, size uint64
	idx        elf.SectionIndex
}

// releaseSymtab hands back the pages of the symbol tables and their
// string tables once readSymtab has read them: it copies every name it
// keeps (2.6 MB of go-large's resident pages otherwise).
func releaseSymtab(f *elf.File, m *dwarfbuf.File) {
	release := func(s *elf.Section) {
		if s.Type != elf.SHT_NOBITS && s.Offset+s.FileSize >= s.Offset {
			m.Release(s.Offset, s.Offset+s.FileSize)
		}
	}
	for _, s := range f.Sections {
		if s.Type == elf.SHT_SYMTAB || s.Type == elf.SHT_DYNSYM {
			release(s)
			if int(s.Link) < len(f.Sections) {
				release(f.Sections[s.Link])
			}
		}
	}
}

// symtabLoad is readSymtab (and releaseSymtab) running on a goroutine of
// its own; see readSymtabAsync. t and err are set once done is closed.
type symtabLoad struct {
	done chan struct{}
	t    symtab
	err  error
}

// wait returns the symbol table once read.
func (l *symtabLoad) wait() (symtab, error) {
	<-l.done
	return l.t, l.err
}

// readSymtabAsync reads f's symbol table on another goroutine while the
// caller goes on (with the DWARF); wait returns it. Not when f has legacy
// .zdebug_ sections: debug/elf's Section.Open rewrites such a section's
// header (its size) as it opens it, and readSymtab reads every header.
func readSymtabAsync(ef *elf.File, f *debuginfo.File) *symtabLoad {
	l := &symtabLoad{done: make(chan struct{})}
	read := func() {
		defer close(l.done)
		l.t, l.err = readSymtab(ef, f.Bytes())
		releaseSymtab(ef, f.Mapped())
	}
	for _, s := range ef.Sections {
		if strings.HasPrefix(s.Name, ".zdebug") {
			read()
			return l
		}
	}
	go read()
	return l
}

// readSymtab reads .symtab, falling back to .dynsym when the file has no
// static symbols (stripped binaries), as llvm-symbolizer does, or when
// .symtab cannot be read. err is .symtab's damage (not its absence), even
// when .dynsym took its place. data is the file's bytes.
func readSymtab(f *elf.File, data []byte) (symtab, error) {
	var syms []elf.Symbol
	var err error
	if storedPlain(f, data, elf.SHT_SYMTAB) {
		// What elf.File.Symbols reads, read where the file maps it: it
		// copies both tables and then each name, byte by byte (7% of
		// the CPU of a batch on go-large, whose tables are 4 MB).
		syms, err = rawSymbols(f, data, elf.SHT_SYMTAB)
	} else {
		syms, err = f.Symbols()
	}
	if errors.Is(err, elf.ErrNoSymbols) {
		err = nil
	}
	if err != nil {
		// debug/elf inflates a symbol or string table flagged
		// SHF_COMPRESSED; llvm reads them as they are (only debug
		// sections are compressed), and so does rawSymbols.
		raw, rerr := rawSymbols(f, data, elf.SHT_SYMTAB)
		if rerr == nil && len(raw) > 0 {
			syms, err = raw, nil
		} else if rerr != nil {
			err = rerr // says which part lies where
		}
	}
	dynamic := false
	if err != nil || len(syms) == 0 {
		if dyn, derr := f.DynamicSymbols(); derr == nil {
			syms, dynamic = dyn, true
		}
	}
	if len(syms) > maxSymbols {
		// Unreachable in practice (a table of 48 GiB): said, not truncated silently.
		err = errors.Join(err, fmt.Errorf("%d symbols: only the first %d are read", len(syms), maxSymbols))
		syms = syms[:maxSymbols]
	}
	t := symtab{syms: make([]symbol, 0, len(syms)), addrs: make([]uint64, 0, len(syms)), secEnds: make([]uint64, len(f.Sections)), dynamic: dynamic}
	for i, sec := range f.Sections {
		t.secEnds[i] = sec.Addr + sec.Size
	}
	// file tracks the last STT_FILE symbol as llvm and bfd do: it names the
	// source of the local symbols that follow it. Global symbols after a
	// file symbol that itself followed other symbols get no file (bfd's
	// file_after_symbol_seen state).
	haveFile, symbolSeen, fileAfterSymbol := false, false, false
	for _, s := range syms {
		typ := elf.ST_TYPE(s.Info)
		if typ == elf.STT_FILE {
			t.files, haveFile = append(t.files, s.Name), true
			if symbolSeen {
				fileAfterSymbol = true
			}
			continue
		}
		symbolSeen = true
		switch typ {
		case elf.STT_NOTYPE, elf.STT_FUNC, elf.STT_OBJECT, elf.STT_GNU_IFUNC, elf.STT_COMMON:
		default:
			// STT_TLS too: its value is an offset into the thread's TLS
			// block, not an address (llvm-symbolizer leaves them out; libc's
			// errno would otherwise answer DATA 0x10).
			continue
		}
		// Symbols in no (or a special) section are not addresses of this file.
		if s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE {
			continue
		}
		sym := symbol{size: s.Size, name: s.Name, kind: uint8(typ),
			section: uint16(s.Section), order: int32(len(t.syms)), file: -1}
		sym.hiddenNote = s.Size == 0 && typ == elf.STT_NOTYPE && elf.ST_BIND(s.Info) == elf.STB_LOCAL &&
			elf.ST_VISIBILITY(s.Other) == elf.STV_HIDDEN
		if haveFile && (elf.ST_BIND(s.Info) == elf.STB_LOCAL || !fileAfterSymbol) {
			sym.file = int32(len(t.files) - 1) // fewer files than symbols: fits
			sym.local = elf.ST_BIND(s.Info) == elf.STB_LOCAL
		}
		t.syms = append(t.syms, sym)
		t.addrs = append(t.addrs, s.Value)
	}
	for i, sec := range f.Sections {
		if sec.Flags&elf.SHF_ALLOC != 0 && sec.Size > 0 {
			t.secs = append(t.secs, allocSection{addr: sec.Addr, size: sec.Size, idx: elf.SectionIndex(i)})
		}
	}
	t.finish()
	return t, err
}

// finish sorts t's symbols, held in table order, by address (sortSymbols)
// and gives the mangled ones their demangled-name slots.
func (t *symtab) finish() {
	sortSymbols(t.syms, t.addrs)
	t.indexAddrs()
	// Slots for the mangled names only: none in a C or Go binary.
	n := int32(0)
	for i := range t.syms {
		t.syms[i].slot = -1
		if mangled(t.syms[i].name) {
			t.syms[i].slot = n
			n++
		}
	}
	t.demangled = make([]atomic.Pointer[symName], n)
}

// indexAddrs indexes t.addrs, sorted, for find: once sorted, and again
// when filter takes symbols out.
func (t *symtab) indexAddrs() { t.index = dwarf.NewAddrIndex(t.addrs) }

// filter keeps the symbols keep says yes to, in their order and with
// their addresses, and indexes the addresses left: symbols are taken out
// only here, so that find's index is always of t.addrs. keep may change
// the symbol it is given.
func (t *symtab) filter(keep func(*symbol) bool) {
	kept, addrs := t.syms[:0], t.addrs[:0]
	for i := range t.syms {
		if keep(&t.syms[i]) {
			kept = append(kept, t.syms[i])
			addrs = append(addrs, t.addrs[i])
		}
	}
	t.syms, t.addrs = kept, addrs
	t.indexAddrs()
}

// sortSymbols sorts syms, in table order (order is the index), and
// their addresses addrs by (address, size); table order breaks ties, so
// the sort is stable and of aliases with the same size the first in the
// table comes first. The keys are sorted apart and the symbols moved
// once, along the permutation's cycles: swapping the symbols themselves
// (a hundred bytes each then) was most of opening a Go binary's 36,000.
func sortSymbols(syms []symbol, addrs []uint64) {
	type key struct {
		addr, size uint64
		i          int // the symbol's index, -1 once moved
	}
	keys := make([]key, len(syms))
	for i := range syms {
		keys[i] = key{addrs[i], syms[i].size, i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(a.addr, b.addr); c != 0 {
			return c
		}
		if c := cmp.Compare(a.size, b.size); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for p := range keys {
		addrs[p] = keys[p].addr
	}
	// Position p takes the symbol at keys[p].i: follow each cycle.
	for start := range keys {
		if keys[start].i < 0 || keys[start].i == start {
			continue
		}
		held := syms[start]
		p := start
		for {
			from := keys[p].i
			keys[p].i = -1
			if from == start {
				syms[p] = held
				break
			}
			syms[p] = syms[from]
			p = from
		}
	}
}

// symAt is a symbol a search found, and its address.
type symAt struct {
	*symbol
	addr uint64
}

// find returns the symbol containing addr: the last symbol starting at or
// below addr, provided addr lies inside its size; a size-0 symbol extends to
// the next symbol, and the last one only to the end of its section. Unlike
// llvm-symbolizer 14, the final marker (_end) therefore does not swallow
// every address above it (documented in differences.md).
func (t *symtab) find(addr uint64, ok func(*symbol) bool) (symAt, bool) {
	i := t.index.UpperBound(t.addrs, addr)
	for i > 0 {
		i--
		s := symAt{&t.syms[i], t.addrs[i]}
		if ok != nil && !ok(s.symbol) {
			continue
		}
		if s.size == 0 {
			// Like llvm, a size-0 symbol reaches up to the next symbol
			// (_init covers .plt); the last one only to its section's end,
			// or its own address (_end, which lies just past .bss).
			if i+1 < len(t.syms) || addr < t.secEnd(s.symbol) || addr == s.addr {
				return s, true
			}
			return symAt{}, false
		}
		if addr < s.addr+s.size {
			return s, true
		}
		return symAt{}, false
	}
	return symAt{}, false
}

// fileOf returns the STT_FILE name that applies to s, and whether one
// does (it may be "": GNU ld's empty STT_FILE).
func (t *symtab) fileOf(s *symbol) (string, bool) {
	if s.file < 0 {
		return "", false
	}
	return t.files[s.file], true
}

// secEnd is the end of s's section (0 when the section does not exist).
func (t *symtab) secEnd(s *symbol) uint64 {
	if int(s.section) < len(t.secEnds) {
		return t.secEnds[s.section]
	}
	return 0
}

// lookup returns the symbol naming addr under rule: each tool's search
// of the table, with its choice among symbols at one address.
func (t *symtab) lookup(addr uint64, rule aliasRule) (symAt, bool) {
	switch rule {
	case aliasFirstLargest:
		return t.findGNU(addr)
	case aliasLastName:
		return t.findGDB(addr)
	default:
		return t.find(addr, nil)
	}
}

// findGDB is find with gdb's choice among aliases (minsyms.c: symbols at
// one address are sorted by name and the last is taken): "raise" rather
// than "gsignal", "__libc_start_main_impl" rather than "__libc_start_main".
func (t *symtab) findGDB(addr uint64) (symAt, bool) {
	s, ok := t.find(addr, nil)
	if !ok {
		return symAt{}, false
	}
	i, _ := slices.BinarySearch(t.addrs, s.addr)
	for ; i < len(t.syms) && t.addrs[i] == s.addr; i++ {
		if c := &t.syms[i]; c.name > s.name && (c.size == s.size || s.size == 0) {
			s.symbol = c
		}
	}
	return s, true
}

// findData answers a DATA query. llvm-symbolizer (14 and 19) answers it
// from the same symbols as code (SymbolizableObjectFile::symbolizeData
// calls getNameFromSymbolTable, whose table holds the functions and the
// objects alike): "DATA 0x1090" inside main is "main", with main's start
// and size.
func (t *symtab) findData(addr uint64) (symAt, bool) {
	return t.find(addr, nil)
}

// findGNU finds the symbol naming addr as binutils 2.40's elf_find_function
// does: among the symbols of the (first) allocated section containing addr
// that may be functions (not objects or annobin notes), the one with
// the highest address at or below addr; sizes only break ties (bfd's
// better_fit), so padding after a function still takes its name.
func (t *symtab) findGNU(addr uint64) (symAt, bool) {
	sec, ok := t.sectionOf(addr)
	if !ok {
		return symAt{}, false
	}
	i := t.index.UpperBound(t.addrs, addr)
	for i > 0 {
		at := t.addrs[i-1]
		j := i
		for j > 0 && t.addrs[j-1] == at {
			j--
		}
		var cands []*symbol
		for k := j; k < i; k++ {
			s := &t.syms[k]
			if elf.SectionIndex(s.section) == sec && s.typ() != elf.STT_OBJECT && s.typ() != elf.STT_COMMON && !s.hiddenNote {
				cands = append(cands, s)
			}
		}
		if len(cands) > 0 {
			// bfd walks the table in order; ties keep the earlier symbol.
			sort.SliceStable(cands, func(a, b int) bool { return cands[a].order < cands[b].order })
			best := cands[0]
			for _, s := range cands[1:] {
				if betterFit(s, best, addr) {
					best = s
				}
			}
			return symAt{best, at}, true
		}
		i = j
	}
	return symAt{}, false
}

// betterFit is binutils 2.40's choice between two symbols at the same
// address (elf_find_function): the larger one (size 0 counts as 1), else
// the first in table order. (2.41 changed this to prefer functions and the
// smaller symbol; addr2line 2.40 is the reference: Go's "runtime.text",
// size 0, loses to the function that starts with it.)
func betterFit(s, best *symbol, addr uint64) bool {
	return max(s.size, 1) > max(best.size, 1)
}

// sectionOf returns the first allocated section containing addr, as
// addr2line's find_address_in_section picks it.
func (t *symtab) sectionOf(addr uint64) (elf.SectionIndex, bool) {
	for _, s := range t.secs {
		if addr >= s.addr && addr-s.addr < s.size {
			return s.idx, true
		}
	}
	return 0, false
}

// storedPlain reports whether the symbol table of type typ and its string
// table are stored as they are, whole in data, and well formed where
// elf.File.Symbols would refuse them: rawSymbols then reads what Symbols
// reads.
func storedPlain(f *elf.File, data []byte, typ elf.SectionType) bool {
	sec := f.SectionByType(typ)
	if sec == nil || sec.Link == 0 || int(sec.Link) >= len(f.Sections) {
		return false
	}
	size := uint64(24)
	if f.Class == elf.ELFCLASS32 {
		size = 16
	}
	if sec.Size == 0 || sec.Size%size != 0 {
		return false
	}
	for _, s := range []*elf.Section{sec, f.Sections[sec.Link]} {
		end := s.Offset + s.Size
		if s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_COMPRESSED != 0 || s.Size == 0 ||
			s.FileSize != s.Size || end < s.Offset || end > uint64(len(data)) {
			return false
		}
	}
	return true
}

// rawSymbols reads the symbol table of type typ from the file's bytes as
// they are, ignoring compression flags: entry 0 left out, as
// elf.File.Symbols does; a name past its string table is "". The names
// share one copy of the string table.
func rawSymbols(f *elf.File, data []byte, typ elf.SectionType) ([]elf.Symbol, error) {
	var sec *elf.Section
	for _, s := range f.Sections {
		if s.Type == typ {
			sec = s
			break
		}
	}
	if sec == nil {
		return nil, elf.ErrNoSymbols
	}
	within := func(s *elf.Section) ([]byte, bool) {
		end := s.Offset + s.FileSize
		if end < s.Offset || end > uint64(len(data)) {
			return nil, false
		}
		return data[s.Offset:end], true
	}
	tab, ok := within(sec)
	if !ok {
		return nil, fmt.Errorf("the table goes past the end of the file (offset 0x%x, size 0x%x, file size 0x%x)", sec.Offset, sec.FileSize, len(data))
	}
	if int(sec.Link) >= len(f.Sections) || sec.Link == 0 {
		return nil, fmt.Errorf("its string table's section index %d is out of range", sec.Link)
	}
	ss := f.Sections[sec.Link]
	strs, ok := within(ss)
	if !ok {
		return nil, fmt.Errorf("its string table (section %d) goes past the end of the file (offset 0x%x, size 0x%x, file size 0x%x)", sec.Link, ss.Offset, ss.FileSize, len(data))
	}
	if len(strs) == 0 {
		return nil, fmt.Errorf("its string table (section %d) is empty", sec.Link)
	}
	bo := f.ByteOrder
	size := 24
	if f.Class == elf.ELFCLASS32 {
		size = 16
	}
	n := len(tab) / size
	out := make([]elf.Symbol, 0, max(n-1, 0))
	names := string(strs)
	for i := 1; i < n; i++ {
		e := tab[i*size:]
		var s elf.Symbol
		var name uint32
		if size == 24 {
			name = bo.Uint32(e)
			s.Info, s.Other = e[4], e[5]
			s.Section = elf.SectionIndex(bo.Uint16(e[6:]))
			s.Value, s.Size = bo.Uint64(e[8:]), bo.Uint64(e[16:])
		} else {
			name = bo.Uint32(e)
			s.Value, s.Size = uint64(bo.Uint32(e[4:])), uint64(bo.Uint32(e[8:]))
			s.Info, s.Other = e[12], e[13]
			s.Section = elf.SectionIndex(bo.Uint16(e[14:]))
		}
		if int(name) < len(strs) {
			if j := strings.IndexByte(names[name:], 0); j >= 0 {
				s.Name = names[name : int(name)+j]
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// symName caches a symbol's demangled name for one style.
type symName struct {
	style demangler
	name  string
}

// mangled reports whether name is one a style may demangle: an Itanium
// ("_Z") or Rust v0 ("_R") name.
func mangled(name string) bool {
	return strings.HasPrefix(name, "_Z") || strings.HasPrefix(name, "_R")
}
