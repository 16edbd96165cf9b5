package symbolize

import (
	"debug/dwarf"
	"encoding/binary"
	"sort"
	"sync"
)

// llvm-symbolizer 14 prints an empty StartFileName for a function whose
// DW_AT_decl_file uses DW_FORM_implicit_const (gcc 12 emits it in DWARF 5
// for abbreviations shared by DIEs of one file): its DWARFFormValue for an
// implicit constant is created from the signed value, and toUnsigned() on it
// yields nothing, so getDeclFile() finds no index. debug/dwarf hides the
// form, so declForms reads it from the DIE's abbreviation.

const (
	attrDeclFile      = 0x3a
	attrRanges        = 0x55
	formImplicitConst = 0x21
	formRnglistx      = 0x23
)

// Form facts about an abbreviation that debug/dwarf does not expose.
const (
	declFileImplicit uint8 = 1 << iota // DW_AT_decl_file is DW_FORM_implicit_const
	rangesIndexed                      // DW_AT_ranges is DW_FORM_rnglistx
)

// declForms answers questions about the forms of a DIE's attributes,
// reading unit headers and abbreviation tables on first use.
type declForms struct {
	once  sync.Once
	info  []byte
	bo    binary.ByteOrder
	units []unitHeader // sorted by start

	mu     sync.Mutex
	tables map[uint64]map[uint64]uint8 // abbrev offset -> code -> form facts
	abbrev []byte
}

type unitHeader struct {
	start, end uint64 // [start,end) in .debug_info, header included
	abbrevOff  uint64
}

func (d *declForms) init(info, abbrev []byte, bo binary.ByteOrder) {
	d.once.Do(func() {
		d.info, d.abbrev, d.bo = info, abbrev, bo
		d.tables = map[uint64]map[uint64]uint8{}
		for off := uint64(0); off+11 <= uint64(len(info)); {
			b := &buf{name: ".debug_info", data: info[off:], off: int(off), bo: bo}
			n := uint64(b.u32())
			offSize, lenSize := 4, uint64(4)
			if n == 0xffffffff {
				n, offSize, lenSize = b.u64(), 8, 12
			}
			version := b.u16()
			var ab uint64
			if version >= 5 {
				b.u8() // unit type
				b.u8() // address size
				ab = b.uintN(offSize)
			} else {
				ab = b.uintN(offSize)
			}
			if b.err != nil || n == 0 || n > uint64(len(info))-off-lenSize {
				break
			}
			end := off + lenSize + n
			d.units = append(d.units, unitHeader{start: off, end: end, abbrevOff: ab})
			off = end
		}
	})
}

// has reports whether the DIE at off has all the form facts in want.
func (d *declForms) has(off dwarf.Offset, want uint8) bool {
	o := uint64(off)
	i := sort.Search(len(d.units), func(i int) bool { return d.units[i].end > o })
	if i == len(d.units) || o < d.units[i].start || o >= uint64(len(d.info)) {
		return false
	}
	b := &buf{name: ".debug_info", data: d.info[o:], off: int(o), bo: d.bo}
	code := b.uleb()
	if b.err != nil {
		return false
	}
	return d.table(d.units[i].abbrevOff)[code]&want == want
}

func (d *declForms) table(off uint64) map[uint64]uint8 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t, ok := d.tables[off]; ok {
		return t
	}
	t := map[uint64]uint8{}
	d.tables[off] = t
	if off >= uint64(len(d.abbrev)) {
		return t
	}
	b := &buf{name: ".debug_abbrev", data: d.abbrev[off:], off: int(off), bo: d.bo}
	for b.err == nil {
		code := b.uleb()
		if code == 0 {
			break
		}
		b.uleb() // tag
		b.u8()   // children
		for b.err == nil {
			attr, form := b.uleb(), b.uleb()
			if attr == 0 && form == 0 {
				break
			}
			if form == formImplicitConst {
				b.sleb()
				if attr == attrDeclFile {
					t[code] |= declFileImplicit
				}
			}
			if attr == attrRanges && form == formRnglistx {
				t[code] |= rangesIndexed
			}
		}
	}
	return t
}
