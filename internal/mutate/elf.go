package mutate

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// ELF is what the structured mutators know of an ELF file: where its
// headers, sections and notes are. It is read by hand, not with
// debug/elf, because the mutators need the offsets of the header fields
// themselves.
type ELF struct {
	Class    int // 32 or 64
	Sections []Section
	Notes    []Window // PT_NOTE segments, SHT_NOTE sections
	fields   []Field
}

// Section is a section header's name, type, flags and file extent.
type Section struct {
	Name       string
	Type       uint32
	Flags      uint64
	Off, Size  int
	Compressed bool // SHF_COMPRESSED or a .zdebug_ section
}

const (
	shtSymtab     = 2
	shtNote       = 7
	shtNobits     = 8
	shfCompressed = 0x800
	ptNote        = 4
	ntPrstatus    = 1
	ntFile        = 0x46494c45
)

// ParseELF reads the layout of the little-endian ELF file data. Damaged
// parts are skipped: the mutators want what is there, not a verdict.
func ParseELF(data []byte) (*ELF, error) {
	if len(data) < 52 || !bytes.HasPrefix(data, []byte("\x7fELF")) {
		return nil, errors.New("not an ELF file")
	}
	if data[5] != 1 {
		return nil, errors.New("not a little-endian ELF file")
	}
	e := &ELF{}
	le := binary.LittleEndian
	var phoff, shoff uint64
	var phentsize, phnum, shentsize, shnum, shstrndx int
	add := func(off, size int, name string) {
		if off >= 0 && off+max(size, 1) <= len(data) {
			e.fields = append(e.fields, Field{Off: off, Size: size, Name: name})
		}
	}
	add(4, 1, "e_ident[EI_CLASS]")
	add(5, 1, "e_ident[EI_DATA]")
	switch data[4] {
	case 2:
		if len(data) < 64 {
			return nil, errors.New("ELF64 header cut")
		}
		e.Class = 64
		for _, f := range []struct {
			off, size int
			name      string
		}{{16, 2, "e_type"}, {18, 2, "e_machine"}, {24, 8, "e_entry"}, {32, 8, "e_phoff"}, {40, 8, "e_shoff"},
			{52, 2, "e_ehsize"}, {54, 2, "e_phentsize"}, {56, 2, "e_phnum"}, {58, 2, "e_shentsize"}, {60, 2, "e_shnum"}, {62, 2, "e_shstrndx"}} {
			add(f.off, f.size, f.name)
		}
		phoff, shoff = le.Uint64(data[32:]), le.Uint64(data[40:])
		phentsize, phnum = int(le.Uint16(data[54:])), int(le.Uint16(data[56:]))
		shentsize, shnum, shstrndx = int(le.Uint16(data[58:])), int(le.Uint16(data[60:])), int(le.Uint16(data[62:]))
	case 1:
		e.Class = 32
		for _, f := range []struct {
			off, size int
			name      string
		}{{16, 2, "e_type"}, {18, 2, "e_machine"}, {24, 4, "e_entry"}, {28, 4, "e_phoff"}, {32, 4, "e_shoff"},
			{40, 2, "e_ehsize"}, {42, 2, "e_phentsize"}, {44, 2, "e_phnum"}, {46, 2, "e_shentsize"}, {48, 2, "e_shnum"}, {50, 2, "e_shstrndx"}} {
			add(f.off, f.size, f.name)
		}
		phoff, shoff = uint64(le.Uint32(data[28:])), uint64(le.Uint32(data[32:]))
		phentsize, phnum = int(le.Uint16(data[42:])), int(le.Uint16(data[44:]))
		shentsize, shnum, shstrndx = int(le.Uint16(data[46:])), int(le.Uint16(data[48:])), int(le.Uint16(data[50:]))
	default:
		return nil, fmt.Errorf("ELF class %d", data[4])
	}
	w := e.Class / 8 // the size of an address
	// Program headers.
	for i := range phnum {
		h := int(phoff) + i*phentsize
		if phoff > uint64(len(data)) || phentsize < phdrSize[w] || h+phentsize > len(data) {
			break
		}
		name := func(s string) string { return fmt.Sprintf("phdr[%d].%s", i, s) }
		var typ uint32
		var off, filesz uint64
		if e.Class == 64 {
			typ, off, filesz = le.Uint32(data[h:]), le.Uint64(data[h+8:]), le.Uint64(data[h+32:])
			add(h, 4, name("p_type"))
			add(h+4, 4, name("p_flags"))
			add(h+8, 8, name("p_offset"))
			add(h+16, 8, name("p_vaddr"))
			add(h+32, 8, name("p_filesz"))
			add(h+40, 8, name("p_memsz"))
			add(h+48, 8, name("p_align"))
		} else {
			typ, off, filesz = le.Uint32(data[h:]), uint64(le.Uint32(data[h+4:])), uint64(le.Uint32(data[h+16:]))
			add(h, 4, name("p_type"))
			add(h+4, 4, name("p_offset"))
			add(h+8, 4, name("p_vaddr"))
			add(h+16, 4, name("p_filesz"))
			add(h+20, 4, name("p_memsz"))
			add(h+24, 4, name("p_flags"))
		}
		if typ == ptNote && off < uint64(len(data)) && filesz <= uint64(len(data))-off {
			nw := Window{Lo: int(off), Hi: int(off + filesz), Name: fmt.Sprintf("PT_NOTE[%d]", i)}
			e.Notes = append(e.Notes, nw)
			e.noteFields(data, nw)
		}
	}
	// Section headers, then their names.
	var nameOffs []int
	for i := range shnum {
		h := int(shoff) + i*shentsize
		if shoff > uint64(len(data)) || shentsize < shdrSize[w] || h+shentsize > len(data) {
			break
		}
		name := func(s string) string { return fmt.Sprintf("shdr[%d].%s", i, s) }
		var s Section
		var nameOff uint32
		if e.Class == 64 {
			nameOff, s.Type, s.Flags = le.Uint32(data[h:]), le.Uint32(data[h+4:]), le.Uint64(data[h+8:])
			s.Off, s.Size = clampInt(le.Uint64(data[h+24:])), clampInt(le.Uint64(data[h+32:]))
			for _, f := range []struct {
				off, size int
				n         string
			}{{0, 4, "sh_name"}, {4, 4, "sh_type"}, {8, 8, "sh_flags"}, {16, 8, "sh_addr"}, {24, 8, "sh_offset"}, {32, 8, "sh_size"},
				{40, 4, "sh_link"}, {44, 4, "sh_info"}, {48, 8, "sh_addralign"}, {56, 8, "sh_entsize"}} {
				add(h+f.off, f.size, name(f.n))
			}
		} else {
			nameOff, s.Type, s.Flags = le.Uint32(data[h:]), le.Uint32(data[h+4:]), uint64(le.Uint32(data[h+8:]))
			s.Off, s.Size = int(le.Uint32(data[h+16:])), int(le.Uint32(data[h+20:]))
			for _, f := range []struct {
				off, size int
				n         string
			}{{0, 4, "sh_name"}, {4, 4, "sh_type"}, {8, 4, "sh_flags"}, {12, 4, "sh_addr"}, {16, 4, "sh_offset"}, {20, 4, "sh_size"},
				{24, 4, "sh_link"}, {28, 4, "sh_info"}, {32, 4, "sh_addralign"}, {36, 4, "sh_entsize"}} {
				add(h+f.off, f.size, name(f.n))
			}
		}
		e.Sections = append(e.Sections, s)
		nameOffs = append(nameOffs, int(nameOff))
	}
	if shstrndx < len(e.Sections) {
		strs := e.Sections[shstrndx]
		for i := range e.Sections {
			e.Sections[i].Name = cstring(data, strs.Off, strs.Off+strs.Size, nameOffs[i])
		}
	}
	for i, s := range e.Sections {
		if s.Type == shtNobits || s.Off < 0 || s.Size < 0 || s.Off > len(data) || s.Size > len(data)-s.Off {
			e.Sections[i].Size = 0
			continue
		}
		e.Sections[i].Compressed = s.Flags&shfCompressed != 0 || bytes.HasPrefix([]byte(s.Name), []byte(".zdebug"))
		if s.Flags&shfCompressed != 0 {
			add(s.Off, 4, s.Name+".ch_type")
			if e.Class == 64 {
				add(s.Off+8, 8, s.Name+".ch_size")
			} else {
				add(s.Off+4, 4, s.Name+".ch_size")
			}
		}
		switch {
		case s.Type == shtNote:
			nw := Window{Lo: s.Off, Hi: s.Off + s.Size, Name: s.Name}
			e.Notes = append(e.Notes, nw)
			e.noteFields(data, nw)
		case s.Type == shtSymtab && e.Class == 64:
			// st_value and st_size of up to 256 symbols, spread evenly.
			n := s.Size / 24
			step := max(1, n/256)
			for k := 0; k < n; k += step {
				p := s.Off + 24*k
				add(p+6, 2, fmt.Sprintf("%s[%d].st_shndx", s.Name, k))
				add(p+8, 8, fmt.Sprintf("%s[%d].st_value", s.Name, k))
				add(p+16, 8, fmt.Sprintf("%s[%d].st_size", s.Name, k))
			}
		}
	}
	return e, nil
}

// The sizes of a program and a section header by address size.
var (
	phdrSize = map[int]int{4: 32, 8: 56}
	shdrSize = map[int]int{4: 40, 8: 64}
)

func clampInt(v uint64) int {
	if v > 1<<40 {
		return -1
	}
	return int(v)
}

// cstring returns the NUL-terminated string at off in data[lo:hi].
func cstring(data []byte, lo, hi, off int) string {
	if lo < 0 || hi > len(data) || lo > hi || off < 0 || off >= hi-lo {
		return ""
	}
	s := data[lo+off : hi]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return string(s)
}

// noteFields adds the header fields of the notes in w, the table of an
// NT_FILE note and the pc, stack and frame pointers of an x86-64
// NT_PRSTATUS note (what a core's unwinder starts from).
func (e *ELF) noteFields(data []byte, w Window) {
	le := binary.LittleEndian
	add := func(off, size int, name string) {
		if off >= w.Lo && off+size <= w.Hi {
			e.fields = append(e.fields, Field{Off: off, Size: size, Name: name})
		}
	}
	for p, k := w.Lo, 0; p+12 <= w.Hi && k < 4096; k++ {
		namesz, descsz, typ := int(le.Uint32(data[p:])), int(le.Uint32(data[p+4:])), le.Uint32(data[p+8:])
		name := fmt.Sprintf("%s note[%d]", w.Name, k)
		add(p, 4, name+".namesz")
		add(p+4, 4, name+".descsz")
		add(p+8, 4, name+".type")
		desc := p + 12 + align4(namesz)
		if namesz < 0 || descsz < 0 || desc > w.Hi || descsz > w.Hi-desc {
			return
		}
		switch {
		case typ == ntFile && e.Class == 64 && descsz >= 16:
			add(desc, 8, name+".NT_FILE.count")
			add(desc+8, 8, name+".NT_FILE.page_size")
			for i := 0; i < 32 && desc+16+24*(i+1) <= desc+descsz; i++ {
				q := desc + 16 + 24*i
				add(q, 8, fmt.Sprintf("%s.NT_FILE[%d].start", name, i))
				add(q+8, 8, fmt.Sprintf("%s.NT_FILE[%d].end", name, i))
				add(q+16, 8, fmt.Sprintf("%s.NT_FILE[%d].offset", name, i))
			}
		case typ == ntPrstatus && e.Class == 64 && descsz >= 112+27*8:
			regs := desc + 112
			add(regs+32, 8, name+".rbp")
			add(regs+128, 8, name+".rip")
			add(regs+152, 8, name+".rsp")
		}
		p = desc + align4(descsz)
	}
}

func align4(n int) int { return (n + 3) &^ 3 }

// HeaderFields returns the fields of the file's headers: the file
// header, every program and section header, the notes (with a core's
// NT_FILE table and registers) and a sample of the symbol table.
func (e *ELF) HeaderFields() []Field { return e.fields }

// Windows returns the windows of the sections with one of the names that
// hold their bytes uncompressed in the file.
func (e *ELF) Windows(names ...string) []Window {
	var out []Window
	for _, s := range e.Sections {
		if s.Size == 0 || s.Compressed {
			continue
		}
		for _, n := range names {
			if s.Name == n {
				out = append(out, Window{Lo: s.Off, Hi: s.Off + s.Size, Name: s.Name})
			}
		}
	}
	return out
}

// SectionFields returns the fields of the units or entries of the
// uncompressed DWARF and CFI sections among ws (from Windows): unit
// lengths and versions, header offsets, LEB128 numbers.
func (e *ELF) SectionFields(data []byte, ws []Window) []Field {
	var out []Field
	for _, w := range ws {
		if w.Lo < 0 || w.Hi > len(data) || w.Lo > w.Hi {
			continue
		}
		out = append(out, sectionFields(w.Name, data[w.Lo:w.Hi], w.Lo, e.Class/8)...)
	}
	return out
}
