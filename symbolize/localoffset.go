package symbolize

import (
	"encoding/binary"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// frameOffset is llvm 14's getExpressionFrameOffset over the expressions
// of a DW_AT_location (DWARFDie::getLocations): the first that is a single
// DW_OP_fbreg, or DW_OP_breg of the frame-base register, optionally
// followed by DW_OP_deref. A location list that cannot be read whole gives
// no offset, as llvm drops it on any error.
func (w *frameWalk) frameOffset(d *dwarf.Entry, v dwarf.Value, fbReg int) (int64, bool) {
	if e := d.Block(v); e != nil {
		return exprFrameOffset(e, fbReg)
	}
	var exprs [][]byte
	var err error
	if off, ok := v.SectionOffset(); ok {
		exprs, err = w.o.dw.LocationList(w.u, off, w.hasBase)
	} else if idx, ok := v.LoclistIndex(); ok {
		if !w.hasLoclists {
			return 0, false
		}
		off, ok := w.o.dw.LoclistOffset(w.u, w.loclistsBase, idx)
		if !ok {
			return 0, false
		}
		exprs, err = w.o.dw.LocationList(w.u, off, w.hasBase)
	} else {
		return 0, false
	}
	if err != nil {
		return 0, false
	}
	for _, e := range exprs {
		if off, ok := exprFrameOffset(e, fbReg); ok {
			return off, true
		}
	}
	return 0, false
}

func exprFrameOffset(e []byte, fbReg int) (int64, bool) {
	if len(e) == 0 || !(e[0] == opFbreg || fbReg >= 0 && int(e[0]) == opBreg0+fbReg) {
		return 0, false
	}
	b := dwarfbuf.NewReader("location expression", 0, e[1:], binary.LittleEndian)
	off := b.Sleb()
	if b.Err() != nil {
		return 0, false
	}
	switch rest := e[1+b.Pos():]; {
	case len(rest) == 0:
		return off, true
	case len(rest) == 1 && rest[0] == opDeref:
		return off, true
	}
	return 0, false
}
