package symbolize

import (
	"bytes"
	"debug/elf"

	"github.com/sanitrace/sanitrace/cfi"
)

// FuncStart returns the start of the FDE (.eh_frame, .debug_frame, or the
// separate debug file's .debug_frame) covering the link-time address addr:
// the bounds of a function that neither DWARF nor a symbol names, which
// decode, core and batch call sub_<start>. The drop-in faces never ask.
func (o *Object) FuncStart(addr uint64) (start uint64, ok bool) {
	if o == nil {
		return 0, false
	}
	o.fdeOnce.Do(o.loadFDEs)
	if o.fdes.table == nil {
		return 0, false
	}
	f, ok := o.fdes.table.FuncAt(addr)
	return f.Begin, ok
}

// CFI returns the object's call frame information (read once), nil when
// it has none.
func (o *Object) CFI() *cfi.Table {
	if o == nil {
		return nil
	}
	o.fdeOnce.Do(o.loadFDEs)
	return o.fdes.table
}

// CodeAt returns up to n bytes of the binary's loaded image at the
// link-time address addr (from its PT_LOAD segments), nil when addr is
// not in one.
func (o *Object) CodeAt(addr uint64, n int) []byte {
	if o == nil {
		return nil
	}
	o.filesMu.Lock()
	defer o.filesMu.Unlock()
	if len(o.files) == 0 {
		return nil
	}
	bin := o.files[0].Bytes()
	ef, err := elf.NewFile(bytes.NewReader(bin))
	if err != nil {
		return nil
	}
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD || addr < p.Vaddr || addr-p.Vaddr >= p.Filesz {
			continue
		}
		off := p.Off + (addr - p.Vaddr)
		end := min(off+uint64(n), p.Off+p.Filesz, uint64(len(bin)))
		if off >= end {
			return nil
		}
		return append([]byte(nil), bin[off:end]...)
	}
	return nil
}

func (o *Object) loadFDEs() {
	o.filesMu.Lock()
	var bin, dbg []byte
	if len(o.files) > 0 {
		bin = o.files[0].Bytes()
	}
	if o.debugPath != o.path && len(o.files) > 1 {
		dbg = o.files[1].Bytes()
	}
	o.filesMu.Unlock()
	if bin == nil {
		return
	}
	ef, err := elf.NewFile(bytes.NewReader(bin))
	if err != nil {
		o.fdes.err = err
		return
	}
	var def *elf.File
	if dbg != nil {
		def, _ = elf.NewFile(bytes.NewReader(dbg))
	}
	o.fdes.table, o.fdes.err = cfi.Load(ef, def)
}
