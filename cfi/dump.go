package cfi

import (
	"bufio"
	"debug/elf"
	"fmt"
	"io"
	"strconv"
)

// DumpOptions selects the dump's form.
type DumpOptions struct {
	// Interp prints the interpreted rows (readelf --debug-dump=frames-interp)
	// instead of the decoded instructions (--debug-dump=frames).
	Interp bool
	// Warn receives one error per entry that cannot be shown as readelf
	// shows valid CFI (readelf prints its warnings on stderr too).
	Warn func(error)
}

// frameSections are the sections readelf's frames dump shows.
func isFrameSection(name string) bool {
	return name == ".eh_frame" || name == ".debug_frame" || name == ".zdebug_frame"
}

// Dump writes what binutils 2.40 `readelf -wN --debug-dump=frames -W`
// (or frames-interp) prints for f: every .eh_frame and .debug_frame in
// section header order. The returned error is a write error; problems of
// the CFI go to opts.Warn.
func Dump(w io.Writer, f *elf.File, opts DumpOptions) error {
	bw := bufio.NewWriter(w)
	warn := opts.Warn
	if warn == nil {
		warn = func(error) {}
	}
	for _, sh := range f.Sections {
		if !isFrameSection(sh.Name) {
			continue
		}
		if sh.Type == elf.SHT_NOBITS {
			fmt.Fprintf(bw, "section '%s' has the NOBITS type - its contents are unreliable.\n", sh.Name)
			continue
		}
		if sh.Size == 0 {
			fmt.Fprintf(bw, "\nSection '%s' has no debugging data.\n", sh.Name)
			continue
		}
		s, err := sectionFor(f, sh, warn)
		if err != nil {
			warn(err)
			continue
		}
		dumpSection(bw, s, namesFor(f.Machine), opts.Interp, warn)
	}
	return bw.Flush()
}

// sectionFor loads one frame section of f for the dump.
func sectionFor(f *elf.File, sh *elf.Section, warn func(error)) (*section, error) {
	data, err := sectionData(sh)
	if err != nil {
		return nil, err
	}
	if err := applyRelocations(f, sh, data); err != nil {
		warn(err) // readelf too warns and dumps the section
	}
	as := 8
	if f.Class == elf.ELFCLASS32 {
		as = 4
	}
	s := &section{name: sh.Name, addr: sh.Addr, eh: sh.Name == ".eh_frame", data: data, bo: f.ByteOrder, addrSize: as}
	if got := f.Section(".got"); got != nil {
		s.dataBase = got.Addr
	}
	return s, nil
}

// maxJSONRows bounds the rows one entry keeps for JSON: a hostile FDE
// of advance instructions would otherwise hold a row per byte.
const maxJSONRows = 1 << 16

// dumpSection prints one loaded frame section.
func dumpSection(w *bufio.Writer, s *section, names regNames, interp bool, warn func(error)) {
	d := &dumper{w: w, sec: s, names: names, interp: interp, warn: warn}
	d.section()
}

type dumper struct {
	w      *bufio.Writer
	sec    *section
	names  regNames
	interp bool
	warn   func(error)
	cies   map[int]*CIE
	// rows collects the interpreted rows of the current entry for JSON.
	rows      []jsonRow
	collect   bool
	truncated bool
}

func (d *dumper) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

// hex prints v with 2*size digits, as readelf's dwarf_vmatoa_1 does.
func hex(v uint64, size int) string {
	if size < 8 {
		v &= 1<<(8*uint(size)) - 1
	}
	return fmt.Sprintf("%0*x", 2*size, v)
}

// regLimit: readelf rejects register numbers above its name table's size
// ("bad register: "), or 1024 for a machine without one.
func (d *dumper) badReg(reg uint64) bool {
	if len(d.names) > 0 {
		return reg > uint64(len(d.names))
	}
	return reg >= maxRegs
}

func (d *dumper) section() {
	d.printf("Contents of the %s section:\n\n", d.sec.name)
	d.walk(func(off int, c *CIE, f *FDE) {
		if c == nil && f == nil {
			d.printf("\n%08x ZERO terminator\n\n", off)
		}
	})
	d.printf("\n")
}

// walk reads the section's entries in order, as readelf does: each CIE
// and FDE is dumped (d.cie, d.fde, which also gather its JSON rows) and
// then handed to visit; a zero terminator is visited with neither, and
// the zeros after it are skipped. A CIE or FDE that cannot be read costs
// a warning and is not visited; a header that cannot be read ends the
// walk.
func (d *dumper) walk(visit func(off int, c *CIE, f *FDE)) {
	s := d.sec
	d.cies = map[int]*CIE{}
	off := 0
	for off < len(s.data) {
		e, err := s.readRaw(off)
		if err != nil {
			d.warn(err)
			return
		}
		d.rows = []jsonRow{}
		d.truncated = false
		switch e.kind {
		case kindZero:
			visit(off, nil, nil)
			off = e.end
			for off < len(s.data) && s.data[off] == 0 {
				off++
			}
			continue
		case kindCIE:
			c, err := s.cieAt(off, d.cies)
			if err != nil {
				d.warn(err)
				break
			}
			d.cie(c)
			visit(off, c, nil)
		case kindFDE:
			if f := d.fde(e); f != nil {
				visit(off, nil, f)
			}
		}
		off = e.end
	}
}

func (d *dumper) cie(c *CIE) {
	idSize := 4
	if c.Format64 {
		idSize = 8
	}
	d.printf("\n%08x %s %s ", c.Offset, hex(c.Length, int(c.AddrSize)), hex(c.ID, idSize))
	if d.interp {
		d.printf("CIE \"%s\" cf=%d df=%d ra=%d\n", c.Augmentation, int32(c.CodeAlign), int32(c.DataAlign), int32(c.RA))
	} else {
		d.printf("CIE\n")
		d.printf("  Version:               %d\n", c.Version)
		d.printf("  Augmentation:          \"%s\"\n", c.Augmentation)
		if c.Version >= 4 {
			d.printf("  Pointer Size:          %d\n", c.AddrSize)
			d.printf("  Segment Size:          %d\n", c.SegSize)
		}
		d.printf("  Code alignment factor: %d\n", uint32(c.CodeAlign))
		d.printf("  Data alignment factor: %d\n", int32(c.DataAlign))
		d.printf("  Return address column: %d\n", int32(c.RA))
		if len(c.AugData) > 0 {
			d.augData(c.AugData)
		}
		d.printf("\n")
	}
	cols := d.referenced(nil, c)
	st := &state{addrMask: addrMask(c.AddrSize)}
	d.run(c, c.sec, c.Instructions, c.insnOff, st, cols, fmt.Sprintf("%s CIE at 0x%x", c.sec.name, c.Offset))
}

func (d *dumper) augData(b []byte) {
	d.printf("  Augmentation data:    ")
	for _, c := range b {
		d.printf(" %02x", c)
	}
}

func (d *dumper) fde(e rawEntry) *FDE {
	s := d.sec
	cp, err := s.ciePointer(e)
	if err != nil {
		d.warn(err)
		return nil
	}
	c, err := s.cieAt(cp, d.cies)
	if err != nil {
		d.warn(fmt.Errorf("%s FDE at 0x%x: %v", s.name, e.off, err))
		return nil
	}
	f, err := s.parseFDE(e, c)
	if err != nil {
		d.warn(err)
		return nil
	}
	idSize := 4
	if f.Format64 {
		idSize = 8
	}
	length := f.Length
	if c.Offset > f.Offset {
		// readelf reads a CIE that follows its FDE into the variable that
		// holds the FDE's length, and prints the CIE's.
		length = c.Length
	}
	d.printf("\n%08x %s %s FDE cie=%08x pc=", f.Offset, hex(length, int(c.AddrSize)), hex(f.CIEPointer, idSize), c.Offset)
	if c.SegSize > 0 {
		d.printf("%04x:", f.Segment)
	}
	d.printf("%s..%s\n", hex(f.Begin, int(c.AddrSize)), hex(f.End, int(c.AddrSize)))
	if !d.interp && len(f.AugData) > 0 {
		d.augData(f.AugData)
		d.printf("\n")
	}
	st, _ := runCIE(c) // errors were reported with the CIE
	st.stack = nil
	var cols []bool
	if c.Offset > f.Offset && !d.collect {
		// readelf only parses the header of a CIE that follows its FDE:
		// the FDE's rows start from no rules at all (CFA r0+0, no
		// columns). The text keeps that; the JSON keeps the true rows.
		st = &state{addrMask: addrMask(c.AddrSize)}
	} else {
		cols = d.referenced(nil, c)
	}
	st.loc = f.Begin
	cols = d.referencedIn(cols, f.sec, f.Instructions, f.insnOff, c)
	d.run(c, f.sec, f.Instructions, f.insnOff, st, cols, fmt.Sprintf("%s FDE at 0x%x", s.name, f.Offset))
	return f
}

// referenced adds to cols the registers c's initial instructions give a
// rule (readelf's first pass, which decides the columns of the rows).
func (d *dumper) referenced(cols []bool, c *CIE) []bool {
	if c == nil {
		return cols
	}
	return d.referencedIn(cols, c.sec, c.Instructions, c.insnOff, c)
}

func (d *dumper) referencedIn(cols []bool, sec *section, insns []byte, off int, c *CIE) []bool {
	dec := newDecoder(sec, insns, off, c)
	for dec.more() {
		in, err := dec.next()
		if err != nil {
			break
		}
		switch in.op {
		case cfaOffset, cfaRestore, cfaOffsetExtended, cfaValOffset, cfaRestoreExtended,
			cfaUndefined, cfaSameValue, cfaRegister, cfaExpression, cfaValExpression,
			cfaOffsetExtendedSf, cfaValOffsetSf, cfaGNUNegOffsetExt:
			if in.bad != "" && in.op != cfaExpression && in.op != cfaValExpression {
				continue
			}
			if d.badReg(in.reg) {
				continue
			}
			for uint64(len(cols)) <= in.reg {
				cols = append(cols, false)
			}
			cols[in.reg] = true
		}
	}
	return cols
}

// run prints (or, interpreted, executes and prints the rows of) one
// entry's instructions.
func (d *dumper) run(c *CIE, sec *section, insns []byte, off int, st *state, cols []bool, what string) {
	dec := newDecoder(sec, insns, off, c)
	headers := true
	allNops := true
	ps := int(c.AddrSize)
	for dec.more() {
		in, err := dec.next()
		if err != nil {
			if in.op >= cfaLoUser && in.op <= cfaHiUser && in.op&0xc0 == 0 {
				d.printf("  DW_CFA_??? (User defined call frame op: %#x)\n", in.op)
			}
			d.warn(fmt.Errorf("%s: %v", what, err))
			break
		}
		if in.op != cfaNop {
			allNops = false
		}
		if loc, ok := st.advance(in, c); ok {
			if d.interp {
				d.row(c, st, cols, &headers)
			} else {
				d.printf("  %s\n", d.insnText(in, c, st.loc, ps))
			}
			st.loc = loc
			continue
		}
		bad := false
		switch in.op {
		case cfaOffset, cfaRestore, cfaOffsetExtended, cfaValOffset, cfaRestoreExtended,
			cfaUndefined, cfaSameValue, cfaRegister, cfaExpression, cfaValExpression,
			cfaOffsetExtendedSf, cfaValOffsetSf, cfaGNUNegOffsetExt:
			bad = d.badReg(in.reg)
		}
		if !d.interp || bad || in.bad != "" {
			if in.op != cfaNop || !d.interp {
				d.printf("  %s\n", d.insnText(in, c, st.loc, ps))
			}
		}
		if bad || in.bad != "" {
			if in.bad != "" {
				d.warn(fmt.Errorf("%s: %s", what, d.insnText(in, c, st.loc, ps)))
				break
			}
			continue
		}
		if err := st.apply(in, c); err != nil {
			if in.op == cfaRestoreState {
				if d.interp {
					d.printf("Mismatched DW_CFA_restore_state\n")
				}
				continue
			}
			d.warn(fmt.Errorf("%s: %v", what, err))
		}
	}
	if d.interp && !allNops {
		d.row(c, st, cols, &headers)
	}
}

// row prints one interpreted row (and the column headers before the first).
func (d *dumper) row(c *CIE, st *state, cols []bool, headers *bool) {
	as := d.sec.addrSize
	if *headers {
		*headers = false
		d.printf("%-*s CFA      ", 2*as, "   LOC")
		for r, used := range cols {
			if !used {
				continue
			}
			if uint64(r) == c.RA {
				d.printf("ra    ")
			} else {
				d.printf("%-5s ", d.names.name(uint64(r)))
			}
		}
		d.printf("\n")
	}
	d.printf("%s ", hex(st.loc, as))
	cfa := cfaString(st.cfa, d.names)
	d.printf("%-8s ", cfa)
	var jr jsonRow
	if d.collect {
		jr = jsonRow{Loc: "0x" + strconv.FormatUint(st.loc, 16), CFA: cfa, Regs: map[string]string{}}
	}
	for r, used := range cols {
		if !used {
			continue
		}
		var rule Rule
		if r < len(st.regs) {
			rule = st.regs[r]
		}
		s := ruleString(rule, d.names)
		d.printf("%-5s ", s)
		if d.collect {
			name := d.names.name(uint64(r))
			if uint64(r) == c.RA {
				name = "ra"
			}
			jr.Regs[name] = s
		}
	}
	d.printf("\n")
	if d.collect {
		if len(d.rows) < maxJSONRows {
			d.rows = append(d.rows, jr)
		} else if !d.truncated {
			d.truncated = true
			d.warn(fmt.Errorf("%s: more than %d rows in one entry; the JSON keeps the first ones", d.sec.name, maxJSONRows))
		}
	}
}

// insnText spells one instruction as readelf's raw dump does.
func (d *dumper) insnText(in insn, c *CIE, loc uint64, ps int) string {
	n := d.names
	prefix := ""
	switch in.op {
	case cfaOffset, cfaRestore, cfaOffsetExtended, cfaValOffset, cfaRestoreExtended,
		cfaUndefined, cfaSameValue, cfaRegister, cfaExpression, cfaValExpression,
		cfaOffsetExtendedSf, cfaValOffsetSf, cfaGNUNegOffsetExt:
		if d.badReg(in.reg) {
			prefix = "bad register: "
		}
	}
	reg := prefix + n.long(in.reg)
	da := c.DataAlign
	ca := c.CodeAlign
	switch in.op {
	case cfaAdvanceLoc:
		return fmt.Sprintf("DW_CFA_advance_loc: %d to %s", int32(in.u*ca), hex(loc+in.u*ca, ps))
	case cfaAdvanceLoc1:
		return fmt.Sprintf("DW_CFA_advance_loc1: %d to %s", in.u*ca, hex(loc+in.u*ca, ps))
	case cfaAdvanceLoc2:
		return fmt.Sprintf("DW_CFA_advance_loc2: %d to %s", in.u*ca, hex(loc+in.u*ca, ps))
	case cfaAdvanceLoc4:
		return fmt.Sprintf("DW_CFA_advance_loc4: %d to %s", in.u*ca, hex(loc+in.u*ca, ps))
	case cfaMIPSAdvanceLoc8:
		return fmt.Sprintf("DW_CFA_MIPS_advance_loc8: %d to %s", in.u*ca, hex(loc+in.u*ca, ps))
	case cfaSetLoc:
		return fmt.Sprintf("DW_CFA_set_loc: %s", hex(in.u, ps))
	case cfaOffset:
		return fmt.Sprintf("DW_CFA_offset: %s at cfa%+d", reg, int64(in.u)*da)
	case cfaRestore:
		return fmt.Sprintf("DW_CFA_restore: %s", reg)
	case cfaNop:
		return "DW_CFA_nop"
	case cfaOffsetExtended:
		return fmt.Sprintf("DW_CFA_offset_extended: %s at cfa%+d", reg, int64(in.u)*da)
	case cfaValOffset:
		return fmt.Sprintf("DW_CFA_val_offset: %s is cfa%+d", reg, int64(in.u)*da)
	case cfaRestoreExtended:
		return fmt.Sprintf("DW_CFA_restore_extended: %s", reg)
	case cfaUndefined:
		return fmt.Sprintf("DW_CFA_undefined: %s", reg)
	case cfaSameValue:
		return fmt.Sprintf("DW_CFA_same_value: %s", reg)
	case cfaRegister:
		return fmt.Sprintf("DW_CFA_register: %s in %s", reg, n.long(in.reg2))
	case cfaRememberState:
		return "DW_CFA_remember_state"
	case cfaRestoreState:
		return "DW_CFA_restore_state"
	case cfaDefCFA:
		return fmt.Sprintf("DW_CFA_def_cfa: %s ofs %d", n.long(in.reg), int32(in.u))
	case cfaDefCFARegister:
		return fmt.Sprintf("DW_CFA_def_cfa_register: %s", n.long(in.reg))
	case cfaDefCFAOffset:
		return fmt.Sprintf("DW_CFA_def_cfa_offset: %d", int32(in.u))
	case cfaDefCFAExpression:
		if in.bad != "" {
			return fmt.Sprintf("DW_CFA_def_cfa_expression: <corrupt len %d>", in.u)
		}
		return fmt.Sprintf("DW_CFA_def_cfa_expression (%s)", d.expr(in.exprOff, len(in.expr), 0))
	case cfaExpression:
		if in.bad != "" {
			return fmt.Sprintf("DW_CFA_expression: <corrupt len %d>", in.u)
		}
		return fmt.Sprintf("DW_CFA_expression: %s (%s)", reg, d.expr(in.exprOff, len(in.expr), 0))
	case cfaValExpression:
		if in.bad != "" {
			return fmt.Sprintf("DW_CFA_val_expression: <corrupt len %d>", in.u)
		}
		return fmt.Sprintf("DW_CFA_val_expression: %s (%s)", reg, d.expr(in.exprOff, len(in.expr), 0))
	case cfaOffsetExtendedSf:
		return fmt.Sprintf("DW_CFA_offset_extended_sf: %s at cfa%+d", reg, in.s*da)
	case cfaValOffsetSf:
		return fmt.Sprintf("DW_CFA_val_offset_sf: %s is cfa%+d", reg, in.s*da)
	case cfaDefCFASf:
		return fmt.Sprintf("DW_CFA_def_cfa_sf: %s ofs %d", n.long(in.reg), in.s*da)
	case cfaDefCFAOffsetSf:
		return fmt.Sprintf("DW_CFA_def_cfa_offset_sf: %d", in.s*da)
	case cfaGNUWindowSave:
		return "DW_CFA_GNU_window_save"
	case cfaGNUArgsSize:
		return fmt.Sprintf("DW_CFA_GNU_args_size: %d", int64(in.u))
	case cfaGNUNegOffsetExt:
		return fmt.Sprintf("DW_CFA_GNU_negative_offset_extended: %s at cfa%+d", reg, -int64(in.u)*da)
	}
	return fmt.Sprintf("DW_CFA_??? (0x%x)", in.op)
}
