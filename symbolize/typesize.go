package symbolize

import "github.com/sanitrace/sanitrace/symbolize/dwarf"

// typeSize is llvm 14's getTypeSize (DWARFContext.cpp): DW_AT_byte_size
// when it is a constant, else by tag: pointers and references are one
// address, a pointer to member function two, arrays multiply their element
// size by each subrange's count (or upper - lower + 1), qualifiers,
// typedefs and any other DIE with a DW_AT_type follow it. hops bounds the
// chain, which llvm would follow into a cycle forever.
func (o *Object) typeSize(off, ptrSize uint64, hops int) (uint64, bool) {
	if hops > maxTypeChainHops {
		return 0, false
	}
	t, ok := o.dw.Entry(off)
	if !ok {
		return 0, false
	}
	if v, _, ok := t.Attr(dwarf.AttrByteSize); ok {
		if n, ok := unsignedConst(v); ok {
			return n, true
		}
	}
	switch t.Tag() {
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueRefType:
		return ptrSize, true
	case dwarf.TagPtrToMemberType:
		if b, ok := t.Ref(dwarf.AttrType); ok {
			if bt, ok := o.dw.Entry(b); ok && bt.Tag() == dwarf.TagSubroutineType {
				return 2 * ptrSize, true
			}
		}
		return ptrSize, true
	case dwarf.TagArrayType:
		b, ok := t.Ref(dwarf.AttrType)
		if !ok {
			return 0, false
		}
		size, ok := o.typeSize(b, ptrSize, hops+1)
		if !ok {
			return 0, false
		}
		return o.arraySize(&t, size), true
	}
	// const, volatile, restrict, immutable, typedef and the rest.
	if b, ok := t.Ref(dwarf.AttrType); ok {
		return o.typeSize(b, ptrSize, hops+1)
	}
	return 0, false
}

// arraySize multiplies an array's element size by the extent of each of
// its DW_TAG_subrange_type children.
func (o *Object) arraySize(t *dwarf.Entry, size uint64) uint64 {
	isSubrange := func(tag uint32) bool { return tag == dwarf.TagSubrangeType }
	// The state handed down is the depth below the array: only its own
	// children count. A DIE that cannot be read ends the walk; what was
	// read counts.
	_ = dwarf.WalkChildren(o.dw, t, isSubrange, 1, func(d *dwarf.Entry, depth int) int {
		if depth == 1 && d.Tag() == dwarf.TagSubrangeType {
			if v, _, ok := d.Attr(dwarf.AttrCount); ok {
				if n, ok := unsignedConst(v); ok {
					size *= n
				}
			}
			if v, form, ok := d.Attr(dwarf.AttrUpperBound); ok {
				if hi, ok := signedConst(v, form); ok {
					lo := int64(0)
					if lv, lform, ok := d.Attr(dwarf.AttrLowerBound); ok {
						lo, _ = signedConst(lv, lform)
					}
					size *= uint64(hi - lo + 1)
				}
			}
		}
		return depth + 1
	})
	return size
}
