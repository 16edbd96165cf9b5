package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// DescribeAccess says where the faulting access of r fell relative to the
// memory it belongs to, from the report's access, location and stack
// title parts, e.g. "READ of size 4 at 0x603e0001fc64: 4 bytes inside a
// 400-byte heap region [0x603e0001fc60,0x603e0001fdf0) freed by thread T0".
// It returns "" when the report has no location to describe.
func DescribeAccess(r *report.Report) string {
	if r == nil {
		return ""
	}
	where := describeLocation(r)
	if where == "" {
		return ""
	}
	if a := r.Access; a != nil && a.Address != "" {
		what := a.Op
		if a.Size > 0 {
			what += " of size " + strconv.Itoa(a.Size)
		}
		return strings.TrimSpace(what) + " at " + a.Address + ": " + where
	}
	if r.HasAddress {
		return fmt.Sprintf("%#x: %s", r.Address, where)
	}
	return where
}

// describedLocation is the location the access is described against: the
// first location line that says enough, else the first stack title that
// does (with its stack).
func describedLocation(r *report.Report) (*report.Location, *report.Stack) {
	for i := range r.Location {
		if r.Location[i].Described() {
			return &r.Location[i], nil
		}
	}
	for i := range r.Stacks {
		if l := r.Stacks[i].Location; l != nil && l.Described() {
			return l, &r.Stacks[i]
		}
	}
	return nil, nil
}

func describeLocation(r *report.Report) string {
	l, st := describedLocation(r)
	if l == nil {
		return ""
	}
	switch l.Kind {
	case report.HeapRegion:
		d := fmt.Sprintf("%d bytes %s a %d-byte heap region [%s,%s)", l.Offset, relation(l.Relation), l.Size, l.Begin.Text, l.End.Text)
		if who := heapHistory(r); who != "" {
			d += " " + who
		}
		return d
	case report.GlobalVariable:
		return fmt.Sprintf("%d bytes %s the %d-byte global variable '%s' at %s, defined at %s", l.Offset, relation(l.Relation), l.Size, l.Name, l.Begin.Text, l.DefinedAt)
	case report.HeapBlock:
		return relativeTo(r, l.Begin.Value, l.Size, fmt.Sprintf("a %d-byte heap block at %s allocated by %s", l.Size, l.Begin.Text, l.Thread))
	case report.Global:
		return relativeTo(r, l.Begin.Value, l.Size, fmt.Sprintf("the %d-byte global '%s' at %s", l.Size, l.Name, l.Begin.Text))
	case report.StackFrame:
		d := fmt.Sprintf("offset %d in the stack frame", l.Offset)
		if st != nil && len(st.Frames) > 0 && st.Frames[0].Function != "" {
			d += " of " + st.Frames[0].Function
		}
		d += " (thread " + l.Thread + ")"
		if o := r.StackObjects.Blamed(); o != nil {
			d += fmt.Sprintf(", %s variable '%s' [%d, %d)", o.Access, o.Name, o.Begin, o.End)
			if o.Line > 0 {
				d += " declared on line " + strconv.Itoa(o.Line)
			}
		}
		return d
	}
	return ""
}

// relation turns ASan's "inside of" into plain English; the others read well.
func relation(s string) string {
	if s == "inside of" {
		return "inside"
	}
	return s
}

// relativeTo places the access address of r against [begin, begin+size).
func relativeTo(r *report.Report, begin, size uint64, what string) string {
	a, ok := r.Address, r.HasAddress
	if !ok || begin == 0 {
		return "in " + what
	}
	switch {
	case a < begin:
		return fmt.Sprintf("%d bytes to the left of %s", begin-a, what)
	case a >= begin+size:
		return fmt.Sprintf("%d bytes to the right of %s", a-(begin+size), what)
	}
	return fmt.Sprintf("%d bytes inside %s", a-begin, what)
}

// heapHistory says who freed or allocated the block, from the history
// stacks.
func heapHistory(r *report.Report) string {
	for _, s := range r.Stacks {
		if s.Role == "free" && s.Thread != "" {
			return "freed by thread " + s.Thread
		}
	}
	for _, s := range r.Stacks {
		if s.RoleDetail == "alloc" && s.Thread != "" {
			return "allocated by thread " + s.Thread
		}
	}
	return ""
}
