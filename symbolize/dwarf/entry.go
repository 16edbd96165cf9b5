package dwarf

import "iter"

// An Entry is one DIE with all its attribute values, for the readers of
// DIEs that the function index does not keep (a function's variables,
// their types, a unit's root).
type Entry struct {
	Offset uint64 // in .debug_info
	dw     *Data
	unit   *Unit
	a      *abbrev
	vals   []Value // aligned with a.attrs
}

// Unit returns the unit the DIE is in.
func (e *Entry) Unit() *Unit { return e.unit }

// Tag returns the DIE's tag.
func (e *Entry) Tag() uint32 { return e.a.tag }

// Children reports whether DIEs follow the DIE as its children.
func (e *Entry) Children() bool { return e.a.children }

// Attr returns the value of the DIE's first attribute at, and its form.
func (e *Entry) Attr(at uint32) (Value, uint32, bool) {
	for i, s := range e.a.attrs {
		if s.attr == at && i < len(e.vals) {
			return e.vals[i], s.form, true
		}
	}
	return Value{}, 0, false
}

// Attrs yields the DIE's attributes and their values in the DIE's order.
func (e *Entry) Attrs() iter.Seq2[uint32, Value] {
	return func(yield func(uint32, Value) bool) {
		for i, s := range e.a.attrs {
			if i >= len(e.vals) || !yield(s.attr, e.vals[i]) {
				return
			}
		}
	}
}

// Ref returns the offset of the DIE that the reference attribute at
// names.
func (e *Entry) Ref(at uint32) (uint64, bool) {
	v, _, ok := e.Attr(at)
	if !ok {
		return 0, false
	}
	return v.Ref()
}

// Str returns the string a value of the DIE names, "" when it names none.
func (e *Entry) Str(v Value) string {
	return e.dw.Str(e.dw.strOf(&e.unit.h, v))
}

// Addr resolves an address value of the DIE (DW_FORM_addr, or an index
// into .debug_addr).
func (e *Entry) Addr(v Value) (uint64, bool) {
	return e.dw.addrOf(&e.unit.h, v)
}

// Block returns a block or expression value's bytes, nil for other
// values.
func (e *Entry) Block(v Value) []byte { return e.dw.Block(v) }

// Entry decodes the DIE at the .debug_info offset off (of one of the
// Data's own units).
func (dw *Data) Entry(off uint64) (Entry, bool) {
	u := dw.units.unitAt(off)
	if u == nil {
		return Entry{}, false
	}
	r, err := dw.newDIEReader(&u.h)
	if err != nil {
		return Entry{}, false
	}
	r.seek(off)
	_, a, _ := r.next(decodeAll)
	if a == nil || r.b.Err() != nil {
		return Entry{}, false
	}
	return Entry{Offset: off, dw: dw, unit: u, a: a, vals: append([]Value(nil), r.vals...)}, true
}

// WalkChildren reads, in DIE order, the DIEs below e to the end of its
// subtree. visit gets each DIE (with its values when want(tag); the Entry
// is valid during the call only) with the state its parent handed down,
// top for e's children, and returns the state for the DIE's own
// children. It stops at the first DIE it cannot read, and says why.
func WalkChildren[S any](dw *Data, e *Entry, want func(tag uint32) bool, top S, visit func(e *Entry, parent S) S) error {
	if !e.a.children {
		return nil
	}
	r, err := dw.newDIEReader(&e.unit.h)
	if err != nil {
		return err
	}
	r.seek(e.Offset)
	if r.next(nil); r.b.Err() != nil {
		return r.b.Err()
	}
	d := Entry{dw: dw, unit: e.unit}
	return walkSubtree(r, byTag(want), top, func(off uint64, a *abbrev, parent S) S {
		d.Offset, d.a, d.vals = off, a, r.vals
		return visit(&d, parent)
	})
}

// Entries visits every DIE of u in section order, with its values when
// want(tag) (the Entry is valid during the call only), up to the end of
// the unit or the first DIE it cannot read, and says why it stopped there.
func (dw *Data) Entries(u *Unit, want func(tag uint32) bool, visit func(e *Entry)) error {
	r, err := dw.newDIEReader(&u.h)
	if err != nil {
		return err
	}
	d := Entry{dw: dw, unit: u}
	decode := byTag(want)
	for {
		off, a, done := r.next(decode)
		if done {
			return r.b.Err()
		}
		if a == nil {
			continue
		}
		d.Offset, d.a, d.vals = off, a, r.vals
		visit(&d)
	}
}

// UnitRanges returns the DW_AT_ranges value of u's root DIE (the last,
// when it has several, as the unit index reads it).
func (dw *Data) UnitRanges(u *Unit) (Value, error) {
	_, ranges, err := dw.readUnitRoot(u.h)
	return ranges[2], err
}

// Section returns the bytes of .debug_ranges or .debug_rnglists, for a
// caller replaying another reader's walk of a range list; nil for another
// name, or a section the file lacks.
func (dw *Data) Section(name string) []byte {
	switch name {
	case ".debug_ranges":
		return dw.sec.ranges
	case ".debug_rnglists":
		return dw.sec.rnglists
	}
	return nil
}

// byTag is next's decode for an API filter on tags (nil: none decoded).
func byTag(want func(tag uint32) bool) func(a *abbrev) bool {
	return func(a *abbrev) bool { return want != nil && want(a.tag) }
}
