package markup

import (
	"fmt"
	"strings"
)

// Module is a module a {{{module}}} element declared.
type Module struct {
	ID      uint64
	Name    string // only informative: a path, a soname, or ""
	BuildID []byte
}

// MMap is a segment an {{{mmap}}} element loaded.
type MMap struct {
	Addr, Size uint64
	Module     *Module
	Perms      string // lower-case
	VAddr      uint64 // the module-relative address of Addr
}

// Contains reports whether a lies in the segment (a segment of size 0, or
// one that wraps past the top of the address space, contains nothing).
func (m *MMap) Contains(a uint64) bool { return m.Addr <= a && a < m.Addr+m.Size }

// Last is the segment's last address, as llvm prints ranges.
func (m *MMap) Last() uint64 { return m.Addr + m.Size - 1 }

// Offset is the module-relative address of a, which the segment contains.
func (m *MMap) Offset(a uint64) uint64 { return a - m.Addr + m.VAddr }

// Location is where a code or data address lies.
type Location struct {
	MMap   *MMap
	Addr   uint64 // the address looked up (a return address moved into its call)
	Offset uint64 // module-relative: what a symbolizer is asked for
}

// Module is the module of the location.
func (l Location) Module() *Module { return l.MMap.Module }

// Context is the address space the contextual elements describe: the
// modules declared since the last reset, by ID, and their mmaps, by
// address. The zero Context is empty and ready to use.
type Context struct {
	modules map[uint64]*Module
	mmaps   mmapIndex
}

// Reset forgets every module and mmap ({{{reset}}}: a new process).
func (c *Context) Reset() {
	c.modules = nil
	c.mmaps = mmapIndex{}
}

// Empty reports whether no module or mmap is declared.
func (c *Context) Empty() bool { return len(c.modules) == 0 && c.mmaps.n == 0 }

// Module returns the module with id.
func (c *Context) Module(id uint64) (*Module, bool) {
	m, ok := c.modules[id]
	return m, ok
}

// Declare adds the module a decoded module element declares. A second
// module with the same ID is an ErrDuplicateModule and is not added.
func (c *Context) Declare(e *Element) (*Module, error) {
	if _, dup := c.modules[e.ModuleID]; dup {
		return nil, newError(ErrDuplicateModule, e.Line, e.Node.FieldPos(0), "duplicate module ID")
	}
	if c.modules == nil {
		c.modules = map[uint64]*Module{}
	}
	m := &Module{ID: e.ModuleID, Name: e.Name, BuildID: e.BuildID}
	c.modules[m.ID] = m
	return m, nil
}

// Map adds the segment a decoded mmap element loads. Its module must be
// declared (ErrUndeclaredModule), its VADDR valid (checked only then, as
// llvm does), and it must not overlap a segment already mapped
// (ErrOverlappingMMap: it is dropped). A segment of size 0 at the address
// of another one is that one, as in llvm's map of segments by address.
func (c *Context) Map(e *Element) (*MMap, error) {
	mod, ok := c.modules[e.ModuleID]
	if !ok {
		return nil, newError(ErrUndeclaredModule, e.Line, e.Node.FieldPos(3), "unknown module ID")
	}
	if e.vaddrErr != nil {
		return nil, e.vaddrErr
	}
	m := &MMap{Addr: e.Addr, Size: e.Size, Module: mod, Perms: e.Perms, VAddr: e.VAddr}
	if o := c.overlapping(m); o != nil {
		return nil, newError(ErrOverlappingMMap, e.Line, e.Node.FieldPos(0),
			"overlapping mmap: #%#x [%#x-%#x]", o.Module.ID, o.Addr, o.Last())
	}
	return c.mmaps.insert(m), nil
}

// overlapping returns a segment m overlaps: one that starts inside m, or
// the last one starting at or below m's start if it contains it.
func (c *Context) overlapping(m *MMap) *MMap {
	below, above := c.mmaps.around(m.Addr)
	if above != nil && m.Contains(above.Addr) {
		return above
	}
	if below != nil && below.Contains(m.Addr) {
		return below
	}
	return nil
}

// Lookup returns the segment containing a.
func (c *Context) Lookup(a uint64) (*MMap, bool) {
	below, _ := c.mmaps.around(a)
	if below != nil && below.Contains(a) {
		return below, true
	}
	if below != nil && below.Addr == a && a > 0 {
		// An empty segment at a: the one before it may still reach a.
		if prev, _ := c.mmaps.around(a - 1); prev != nil && prev.Contains(a) {
			return prev, true
		}
	}
	return nil, false
}

// Locate returns where a decoded bt, pc or data element's address lies
// (a bt or pc return address moved back into its call first); an address
// no segment contains is an ErrUnmapped pointing at the first field.
func (c *Context) Locate(e *Element) (Location, error) {
	a := e.Addr
	if e.Kind != KindData {
		a = e.CodeAddr()
	}
	m, ok := c.Lookup(a)
	if !ok {
		return Location{Addr: a}, newError(ErrUnmapped, e.Line, e.Node.FieldPos(0), "no mmap covers address")
	}
	return Location{MMap: m, Addr: a, Offset: m.Offset(a)}, nil
}

// Lint reports the problems of a parsed line that llvm-symbolizer passes
// over without a word but a reader of the log should hear of: elements
// with tags the format does not define (ErrUnknownElement) or that are
// not lower-case letters (ErrBadTag), elements with an empty tag
// (ErrEmptyTag), and a "{{{" never closed on its line (ErrTruncated).
func Lint(nodes []Node, line int) []*Error {
	var errs []*Error
	for i := range nodes {
		n := &nodes[i]
		switch n.Kind {
		case Elem:
			if !ValidTag(n.Tag) {
				errs = append(errs, newError(ErrBadTag, line, n.TagPos(), "tags must be all lowercase characters"))
			} else if KindOf(n.Tag) == KindUnknown {
				errs = append(errs, newError(ErrUnknownElement, line, n.Pos, "unknown element %q", n.Tag))
			}
		case Text:
			errs = lintText(errs, n, line)
		}
	}
	return errs
}

// lintText reports the empty-tag elements and the unclosed "{{{" of a
// text node (which holds no element with a tag: the Parser took those).
func lintText(errs []*Error, n *Node, line int) []*Error {
	s := n.Text
	for off := 0; ; {
		b := strings.Index(s[off:], "{{{")
		if b < 0 {
			return errs
		}
		b += off
		e := strings.Index(s[b+3:], "}}}")
		if e < 0 {
			return append(errs, newError(ErrTruncated, line, n.Pos+b, "%q is never closed with \"}}}\"", abbreviate(s[b:])))
		}
		e += b + 3
		errs = append(errs, newError(ErrEmptyTag, line, n.Pos+b, "element %q has no tag", abbreviate(s[b:e+3])))
		off = e + 3
	}
}

// abbreviate keeps a message about a piece of a line short.
func abbreviate(s string) string {
	const most = 40
	if len(s) > most {
		return s[:most] + "…"
	}
	return s
}

// String describes the segment as llvm's module summary lists it.
func (m *MMap) String() string {
	return fmt.Sprintf("[%#x-%#x](%s)", m.Addr, m.Last(), m.Perms)
}
