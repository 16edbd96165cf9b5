package symbolize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/ulikunitz/xz"
)

// MiniDebugInfo (gdb's manual, "MiniDebugInfo"): Fedora, RHEL, CentOS and
// others strip their binaries and libraries and add a .gnu_debugdata
// section, an xz-compressed ELF file whose .symtab holds the function
// symbols that .dynsym lacks (static functions, main, the crt functions).
// gdb and eu-addr2line name addresses from it; llvm-symbolizer (llvm
// issue 105542) and addr2line do not. sanitrace adds its symbols to the
// binary's own table wherever that table lacks them, for every policy
// (docs/differences.md).

// miniDebugSection is the section MiniDebugInfo is stored in.
const miniDebugSection = ".gnu_debugdata"

// maxMiniDebugDict bounds the dictionary an xz stream may ask for: the
// decoder allocates it before reading a byte, and xz's largest preset
// (-9) uses 64 MiB.
const maxMiniDebugDict = 64 << 20

// miniDebugLimit is how far a MiniDebugInfo payload of n compressed bytes
// may inflate: the bound of every compressed section (internal/dwarfbuf:
// a ratio of 256 and 64 KiB, at most 4 GiB). A real one inflates about
// fivefold.
func miniDebugLimit(n uint64) uint64 {
	return min(256*n+1<<16, 1<<32)
}

// readMiniDebug reads the symbol table of the MiniDebugInfo in f (whose
// bytes are data), its symbols' sections mapped onto f's. found is false
// when f has no .gnu_debugdata; err says why one could not be read.
func readMiniDebug(f *elf.File, data []byte) (t symtab, found bool, err error) {
	s := f.Section(miniDebugSection)
	if s == nil || s.Type == elf.SHT_NOBITS {
		return symtab{}, false, nil
	}
	fail := func(format string, args ...any) (symtab, bool, error) {
		return symtab{}, true, fmt.Errorf("%s (MiniDebugInfo): %s; its symbols are not used", miniDebugSection, fmt.Sprintf(format, args...))
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(len(data)) {
		return fail("goes past the end of the file (offset 0x%x, size 0x%x, file size 0x%x)", s.Offset, s.FileSize, len(data))
	}
	raw := data[s.Offset:end]
	if dict, ok := xzDictSize(raw); ok && dict > maxMiniDebugDict {
		return fail("its xz stream asks for a dictionary of %d bytes, more than the %d of xz's largest preset", dict, maxMiniDebugDict)
	}
	xr, err := xz.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fail("not an xz stream: %v", err)
	}
	limit := miniDebugLimit(uint64(len(raw)))
	inflated, err := io.ReadAll(io.LimitReader(xr, int64(limit)+1))
	if err != nil {
		return fail("xz: %v", err)
	}
	if uint64(len(inflated)) > limit {
		return fail("inflates to more than %d bytes from %d, past the bound of compressed sections", limit, len(raw))
	}
	mf, err := elf.NewFile(bytes.NewReader(inflated))
	if err != nil {
		return fail("its contents are not an ELF file: %v", err)
	}
	if mf.Section(".symtab") == nil {
		return fail("its ELF file has no .symtab")
	}
	t, err = readSymtab(mf, inflated)
	if err != nil {
		return fail("%v", err)
	}
	// Its section indices are those of a debug file of f (objcopy
	// --only-keep-debug): map them onto f's sections by name, else by
	// address, so that a section's end and bfd's section rule hold.
	secMap := make([]int32, len(mf.Sections))
	for i, ms := range mf.Sections {
		secMap[i] = -1
		if fs := f.Section(ms.Name); fs != nil && ms.Name != "" {
			secMap[i] = int32(slices.Index(f.Sections, fs))
			continue
		}
		for j, fs := range f.Sections {
			if fs.Flags&elf.SHF_ALLOC != 0 && ms.Addr >= fs.Addr && ms.Addr-fs.Addr < fs.Size {
				secMap[i] = int32(j)
				break
			}
		}
	}
	t.filter(func(sym *symbol) bool {
		if int(sym.section) >= len(secMap) || secMap[sym.section] < 0 {
			return false
		}
		sym.section = uint16(secMap[sym.section])
		return true
	})
	return t, true, nil
}

// xzDictSize returns the dictionary size the first block of the xz
// stream b asks for (its LZMA2 filter's property byte), when b is laid
// out as xz writes it; ok is false otherwise (the decoder then says what
// is wrong).
func xzDictSize(b []byte) (size uint64, ok bool) {
	const streamHeader = 12
	if len(b) < streamHeader+2 || !bytes.HasPrefix(b, []byte("\xfd7zXZ\x00")) {
		return 0, false
	}
	blk := b[streamHeader:]
	hsize := (int(blk[0]) + 1) * 4
	if blk[0] == 0 || len(blk) < hsize {
		return 0, false
	}
	h := blk[2:hsize]
	flags := blk[1]
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} { // compressed, uncompressed sizes
		if present {
			_, n := binary.Uvarint(h)
			if n <= 0 {
				return 0, false
			}
			h = h[n:]
		}
	}
	for range int(flags&3) + 1 {
		id, n := binary.Uvarint(h)
		if n <= 0 {
			return 0, false
		}
		h = h[n:]
		psize, n := binary.Uvarint(h)
		if n <= 0 || uint64(len(h[n:])) < psize {
			return 0, false
		}
		props := h[n : n+int(psize)]
		h = h[n+int(psize):]
		if id == 0x21 && len(props) == 1 { // LZMA2
			p := props[0]
			if p > 40 {
				return 0, false
			}
			if p == 40 {
				return 1<<32 - 1, true
			}
			return uint64(2|p&1) << (p/2 + 11), true
		}
	}
	return 0, false
}

// withMiniDebug returns t with the symbols of m (a MiniDebugInfo table
// whose sections are t's) that t lacks: those at an address where t has
// no symbol of the same name. The added ones come after t's own in table
// order.
func (t *symtab) withMiniDebug(m symtab) symtab {
	type entry struct {
		sym  symbol
		addr uint64
	}
	have := make(map[string][]uint64, len(t.syms))
	var all []entry
	for i, s := range t.syms {
		have[s.name] = append(have[s.name], t.addrs[i])
		all = append(all, entry{s, t.addrs[i]})
	}
	slices.SortFunc(all, func(a, b entry) int { return int(a.sym.order) - int(b.sym.order) })
	var extra []entry
	for i, s := range m.syms {
		if slices.Contains(have[s.name], m.addrs[i]) {
			continue
		}
		extra = append(extra, entry{s, m.addrs[i]})
	}
	if len(extra) == 0 {
		return *t
	}
	slices.SortFunc(extra, func(a, b entry) int { return int(a.sym.order) - int(b.sym.order) })
	files := slices.Concat(t.files, m.files)
	out := symtab{
		syms:    make([]symbol, 0, len(all)+len(extra)),
		addrs:   make([]uint64, 0, len(all)+len(extra)),
		secEnds: t.secEnds,
		files:   files,
		secs:    t.secs,
		dynamic: t.dynamic,
	}
	for _, e := range all {
		out.syms = append(out.syms, e.sym)
		out.addrs = append(out.addrs, e.addr)
	}
	for _, e := range extra {
		if e.sym.file >= 0 {
			e.sym.file += int32(len(t.files))
		}
		out.syms = append(out.syms, e.sym)
		out.addrs = append(out.addrs, e.addr)
	}
	for i := range out.syms {
		out.syms[i].order = int32(i)
	}
	out.finish()
	return out
}
