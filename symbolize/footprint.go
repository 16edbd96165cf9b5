package symbolize

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
// file; it is cheap (a sum over the files and the section headers).
func (o *Object) Footprint() int64 {
	var n int64
	o.filesMu.Lock()
	for _, f := range o.files {
		n += int64(len(f.Bytes()))
	}
	o.filesMu.Unlock()
	if o.dw != nil {
		n += o.dw.UnpackedSize()
	}
	return n
}
