package mutate

import (
	"encoding/binary"
	"fmt"
)

// maxUnits bounds the units or entries walked in one section: enough to
// spread the fields over a section without making a big one slow.
const maxUnits = 512

// sectionFields returns the fields of one DWARF or CFI section, sec,
// found at file offset base, in a file with addresses of addrSize bytes.
func sectionFields(name string, sec []byte, base, addrSize int) []Field {
	f := &fields{sec: sec, base: base, name: name}
	switch name {
	case ".debug_info":
		f.units(func(u, hdr, version int) {
			if version >= 5 {
				f.add(hdr, 1, "unit_type")
				f.add(hdr+1, 1, "address_size")
				f.add(hdr+2, 4, "debug_abbrev_offset")
				if f.byteAt(hdr) == 1 { // DW_UT_compile: the first DIE's abbreviation code
					f.add(hdr+6, 0, "abbrev code")
				}
			} else {
				f.add(hdr, 4, "debug_abbrev_offset")
				f.add(hdr+4, 1, "address_size")
				f.add(hdr+5, 0, "abbrev code")
			}
		})
	case ".debug_line":
		f.units(func(u, hdr, version int) {
			p := hdr
			if version >= 5 {
				f.add(p, 1, "address_size")
				f.add(p+1, 1, "segment_selector_size")
				p += 2
			}
			f.add(p, 4, "header_length")
			f.add(p+4, 1, "minimum_instruction_length")
			p += 5
			if version >= 4 {
				f.add(p, 1, "maximum_operations_per_instruction")
				p++
			}
			f.add(p+1, 1, "line_base")
			f.add(p+2, 1, "line_range")
			f.add(p+3, 1, "opcode_base")
			if version >= 5 {
				// The directory entry format: a count, then LEB128 pairs.
				q := p + 4 + max(0, int(f.byteAt(p+3))-1)
				f.add(q, 1, "directory_entry_format_count")
				f.lebRun(q+1, 6, "entry format")
			}
		})
	case ".debug_rnglists", ".debug_loclists":
		f.units(func(u, hdr, version int) {
			f.add(hdr, 1, "address_size")
			f.add(hdr+2, 4, "offset_entry_count")
			f.listEntries(hdr+6+4*int(f.u32(hdr+2)), u, name == ".debug_loclists", addrSize)
		})
	case ".debug_str_offsets", ".debug_addr":
		f.units(func(u, hdr, version int) {
			size := 4
			if name == ".debug_addr" {
				f.add(hdr, 1, "address_size")
				size = addrSize
			}
			for i, p := 0, hdr+2; p+size <= u && i < 64; i, p = i+1, p+size {
				f.add(p, size, fmt.Sprintf("entry[%d]", i))
			}
		})
	case ".debug_aranges":
		f.units(func(u, hdr, version int) {
			f.add(hdr, 4, "debug_info_offset")
			f.add(hdr+4, 1, "address_size")
			for i, p := 0, (hdr-6)+16; p+2*addrSize <= u && i < 16; i, p = i+1, p+2*addrSize {
				f.add(p, addrSize, fmt.Sprintf("tuple[%d].address", i))
				f.add(p+addrSize, addrSize, fmt.Sprintf("tuple[%d].length", i))
			}
		})
	case ".debug_abbrev":
		f.abbrevs()
	case ".debug_ranges":
		for i, p := 0, 0; p+2*addrSize <= len(sec) && i < maxUnits; i, p = i+1, p+2*addrSize {
			f.add(p, addrSize, fmt.Sprintf("pair[%d].begin", i))
			f.add(p+addrSize, addrSize, fmt.Sprintf("pair[%d].end", i))
		}
	case ".eh_frame", ".debug_frame":
		f.cfiEntries(name == ".eh_frame", addrSize)
	case ".eh_frame_hdr":
		f.add(0, 1, "version")
		f.add(1, 1, "eh_frame_ptr_enc")
		f.add(2, 1, "fde_count_enc")
		f.add(3, 1, "table_enc")
		f.add(4, 4, "eh_frame_ptr")
		f.add(8, 4, "fde_count")
		n := (len(sec) - 12) / 8
		step := max(1, n/64)
		for i := 0; i < n; i += step {
			f.add(12+8*i, 4, fmt.Sprintf("table[%d].initial_location", i))
			f.add(16+8*i, 4, fmt.Sprintf("table[%d].address", i))
		}
	}
	return f.out
}

type fields struct {
	sec  []byte
	base int
	name string
	unit int // the unit being walked, for names
	out  []Field
}

func (f *fields) add(off, size int, what string) {
	if off < 0 || off+max(size, 1) > len(f.sec) {
		return
	}
	f.out = append(f.out, Field{Off: f.base + off, Size: size, Name: fmt.Sprintf("%s unit[%d].%s", f.name, f.unit, what)})
}

func (f *fields) byteAt(off int) byte {
	if off < 0 || off >= len(f.sec) {
		return 0
	}
	return f.sec[off]
}

func (f *fields) u32(off int) uint32 {
	if off < 0 || off+4 > len(f.sec) {
		return 0
	}
	return binary.LittleEndian.Uint32(f.sec[off:])
}

// units walks the length-prefixed units of a DWARF section, adding their
// unit_length and version and calling each with the unit's end, the
// offset just past the version and the version.
func (f *fields) units(each func(end, hdr, version int)) {
	for p, k := 0, 0; p+6 <= len(f.sec) && k < maxUnits; k++ {
		f.unit = k
		f.add(p, 4, "unit_length")
		length := int(f.u32(p))
		hdr := p + 4
		if uint32(length) == 0xffffffff { // DWARF64
			if p+12 > len(f.sec) {
				return
			}
			f.add(p+4, 8, "unit_length64")
			l64 := binary.LittleEndian.Uint64(f.sec[p+4:])
			if l64 > uint64(len(f.sec)) {
				return
			}
			length, hdr = int(l64), p+12
		}
		end := hdr + length
		if length < 2 || end > len(f.sec) || end < hdr {
			return
		}
		f.add(hdr, 2, "version")
		version := int(binary.LittleEndian.Uint16(f.sec[hdr:]))
		each(end, hdr+2, version)
		p = end
	}
}

// lebRun marks n LEB128 numbers in a row from off.
func (f *fields) lebRun(off, n int, what string) {
	for i := 0; i < n && off < len(f.sec); i++ {
		f.add(off, 0, fmt.Sprintf("%s[%d]", what, i))
		_, l := uleb(f.sec[off:])
		off += l
	}
}

// listEntries walks the entries of a DWARF 5 range or location list from
// p to end, marking their operands.
func (f *fields) listEntries(p, end int, loc bool, addrSize int) {
	end = min(end, len(f.sec))
	for k := 0; p < end && k < maxUnits; k++ {
		kind := f.sec[p]
		f.add(p, 1, fmt.Sprintf("entry[%d].kind", k))
		p++
		lebs, addrs, expr := 0, 0, false
		switch kind {
		case 0: // end_of_list
		case 1: // base_addressx
			lebs = 1
		case 2, 3, 4: // startx_endx, startx_length, offset_pair
			lebs, expr = 2, loc
		case 5:
			if loc { // DW_LLE_default_location
				expr = true
			} else { // DW_RLE_base_address
				addrs = 1
			}
		case 6:
			if loc { // DW_LLE_base_address
				addrs = 1
			} else { // DW_RLE_start_end
				addrs = 2
			}
		case 7:
			if loc { // DW_LLE_start_end
				addrs, expr = 2, true
			} else { // DW_RLE_start_length
				addrs, lebs = 1, 1
			}
		case 8: // DW_LLE_start_length
			addrs, lebs, expr = 1, 1, true
		default:
			return
		}
		for range addrs {
			f.add(p, addrSize, fmt.Sprintf("entry[%d].address", k))
			p += addrSize
		}
		for range lebs {
			if p >= end {
				return
			}
			f.add(p, 0, fmt.Sprintf("entry[%d].operand", k))
			_, l := uleb(f.sec[p:end])
			p += l
		}
		if expr && p < end {
			f.add(p, 0, fmt.Sprintf("entry[%d].expression length", k))
			n, l := uleb(f.sec[p:end])
			p += l
			if n > uint64(end-p) {
				return
			}
			p += int(n)
		}
	}
}

// abbrevs marks every LEB128 number of .debug_abbrev: codes, tags,
// attribute names and forms, implicit constants.
func (f *fields) abbrevs() {
	sec := f.sec
	p := 0
	next := func(what string) uint64 {
		f.add(p, 0, what)
		v, l := uleb(sec[p:])
		p += l
		return v
	}
	for k := 0; p < len(sec) && k < 8*maxUnits; k++ {
		f.unit = k
		if next("code") == 0 || p >= len(sec) {
			continue // the end of one unit's table
		}
		next("tag")
		if p >= len(sec) {
			return
		}
		f.add(p, 1, "children")
		p++
		for p < len(sec) {
			name := next("attribute")
			if p >= len(sec) {
				return
			}
			form := next("form")
			if form == 0x21 && p < len(sec) { // DW_FORM_implicit_const
				next("implicit_const")
			}
			if name == 0 && form == 0 {
				break
			}
		}
	}
}

// cfiEntries walks the CIEs and FDEs of .eh_frame or .debug_frame.
func (f *fields) cfiEntries(eh bool, addrSize int) {
	sec := f.sec
	for p, k := 0, 0; p+8 <= len(sec) && k < 4*maxUnits; k++ {
		f.unit = k
		f.add(p, 4, "length")
		length := int(f.u32(p))
		if length == 0 {
			p += 4 // a terminator (or padding) in .eh_frame
			continue
		}
		if uint32(length) == 0xffffffff || length > len(sec)-p-4 {
			return
		}
		end := p + 4 + length
		f.add(p+4, 4, "CIE_id/CIE_pointer")
		id := f.u32(p + 4)
		isCIE := eh && id == 0 || !eh && id == 0xffffffff
		q := p + 8
		if isCIE {
			f.add(q, 1, "version")
			version := f.byteAt(q)
			q++
			for q < end && sec[q] != 0 { // augmentation string
				q++
			}
			q++
			if !eh && version >= 4 {
				f.add(q, 1, "address_size")
				f.add(q+1, 1, "segment_selector_size")
				q += 2
			}
			f.lebRun(q, 3, "alignment/return register")
		} else {
			size := addrSize
			if eh {
				size = 4 // pc-relative sdata4, what every toolchain here writes
			}
			f.add(q, size, "initial_location")
			f.add(q+size, size, "address_range")
			if eh {
				f.add(q+2*size, 0, "augmentation length")
			}
		}
		p = end
	}
}
