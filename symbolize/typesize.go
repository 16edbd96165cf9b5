package symbolize

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
	t, ok := o.readRawDIE(off)
	if !ok {
		return 0, false
	}
	if v, _, ok := t.attr(atByteSize); ok {
		if n, ok := unsignedConst(v); ok {
			return n, true
		}
	}
	switch t.a.tag {
	case tagPointerType, tagReferenceType, tagRvalueRefType:
		return ptrSize, true
	case tagPtrToMemberType:
		if b, ok := t.ref(atType); ok {
			if bt, ok := o.readRawDIE(b); ok && bt.a.tag == tagSubroutineType {
				return 2 * ptrSize, true
			}
		}
		return ptrSize, true
	case tagArrayType:
		b, ok := t.ref(atType)
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
	if b, ok := t.ref(atType); ok {
		return o.typeSize(b, ptrSize, hops+1)
	}
	return 0, false
}

// arraySize multiplies an array's element size by the extent of each of
// its DW_TAG_subrange_type children.
func (o *Object) arraySize(t *rawDIE, size uint64) uint64 {
	if !t.a.children {
		return size
	}
	r, err := o.newDIEReader(&t.u.h)
	if err != nil {
		return size
	}
	r.seek(t.off)
	r.next(nil)
	depth := 1
	for depth > 0 {
		off, a, done := r.next(func(tag uint32) bool { return tag == tagSubrangeType })
		if r.b.Err() != nil || done && a == nil {
			break
		}
		if a == nil {
			depth--
			continue
		}
		if depth == 1 && a.tag == tagSubrangeType {
			d := rawDIE{off: off, u: t.u, a: a, vals: r.vals}
			if v, _, ok := d.attr(atCount); ok {
				if n, ok := unsignedConst(v); ok {
					size *= n
				}
			}
			if v, form, ok := d.attr(atUpperBound); ok {
				if hi, ok := signedConst(v, form); ok {
					lo := int64(0)
					if lv, lform, ok := d.attr(atLowerBound); ok {
						lo, _ = signedConst(lv, lform)
					}
					size *= uint64(hi - lo + 1)
				}
			}
		}
		if a.children {
			depth++
		}
	}
	return size
}
