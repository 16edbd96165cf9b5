package symbolize

import "github.com/sanitrace/sanitrace/internal/dwarfbuf"

// Footprint estimates the bytes of memory the object can keep resident,
// for a cache that bounds the modules it keeps open (modcache): the sizes
// of the files it maps (the binary, its debug file, a dwz supplementary
// file, the .dwo and .dwp files its lookups opened), whose pages become
// resident as lookups read them, plus the unpacked size of the DWARF
// sections of the file its DWARF is in, which stands for what is built
// on the heap: inflated sections and the decoded indexes (units, line
// tables, function trees, names). Measured on the project's bench
// binaries, the live heap plus the resident mapped pages of an object
// stayed under this estimate from its first lookup to its 100,000th
// (docs/performance.md). It changes only when a lookup opens a split-DWARF
// file. Both sums are kept as they change, not taken when asked: the
// module cache asks at the end of every lease, i.e. of every query of a
// batch, where summing the section headers cost 2-3% of the CPU.
func (o *Object) Footprint() int64 {
	n := o.mapped.Load()
	if o.dw != nil {
		n += o.dw.UnpackedSize()
	}
	return n
}

// addFile makes the mapped file m the object's, to be closed with it.
func (o *Object) addFile(m *dwarfbuf.File) {
	o.filesMu.Lock()
	o.files = append(o.files, m)
	o.mapped.Add(int64(len(m.Bytes())))
	o.filesMu.Unlock()
}
