package symbolize

// SymbolAddresses returns where a query by symbol name leads, as
// llvm-symbolizer 18+ resolves "NAME" and "NAME+OFFSET"
// (SymbolizableObjectFile::findSymbol): the address of every symbol of
// the table named name, in address order, plus offset when offset lies
// inside the symbol. Of the symbols at one address only the one llvm keeps
// for it counts (the largest, of those the last in the table), so an
// alias it drops is not found; names are matched as the table spells them
// (mangled).
func (o *Object) SymbolAddresses(name string, offset uint64) []uint64 {
	if o == nil {
		return nil
	}
	t := &o.syms
	var addrs []uint64
	for i := range t.syms {
		s := &t.syms[i]
		if s.name != name || (i+1 < len(t.syms) && t.addrs[i+1] == t.addrs[i]) {
			continue
		}
		a := t.addrs[i]
		if offset < s.size {
			a += offset
		}
		addrs = append(addrs, a)
	}
	return addrs
}
