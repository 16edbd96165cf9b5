package render

import (
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/report"
)

// The text outputs are for terminals, and every string of a report came
// from an input: a log's line, a binary's DWARF, a core's notes. Before a
// text writer inserts a report into its output, safeReport spells every
// control character in it visibly (termsafe: \xHH), so that a carriage
// return or a backspace cannot make one function name show as another,
// and the colors that sanitrace adds are the only escape sequences it
// writes. The parser's fast path stays as it is; JSON and SARIF keep the
// exact text.

// safeReport returns r when none of its strings holds a control character
// (the common case, without copying), else a copy of r with every string
// escaped. r itself is never changed: the JSON writers of the same run
// still see the exact text.
func safeReport(r *report.Report) *report.Report {
	clean := true
	reportStrings(r, func(s *string) {
		if clean && !termsafe.LinesClean(*s) {
			clean = false
		}
	})
	if clean {
		return r
	}
	c := cloneReport(r)
	reportStrings(c, escape)
	return c
}

// safeFrame is f with every string escaped (a copy: f is a value).
func safeFrame(f report.Frame) report.Frame {
	frameStrings(&f, escape)
	return f
}

// escape spells the control characters of *s as \xHH. The texts of
// several lines (a Go frame's two lines as read) keep their line feeds:
// they are printed as lines, and the other strings cannot hold one from a
// log, whose lines end there.
func escape(s *string) { *s = termsafe.Lines(*s) }

// reportStrings calls visit with every string of r, its stacks, frames,
// locations and the rest. A field added to the model must be added here:
// TestSafeReportEveryString finds one that is not.
func reportStrings(r *report.Report, visit func(*string)) {
	for _, s := range []*string{&r.Tool, &r.Kind, &r.Severity, &r.Headline, &r.Message, &r.Input.Name} {
		visit(s)
	}
	if a := r.Access; a != nil {
		visit(&a.Op)
		visit(&a.Address)
		visit(&a.Thread)
	}
	for i := range r.Location {
		locationStrings(&r.Location[i], visit)
	}
	if o := r.StackObjects; o != nil {
		visit(&o.Header)
		for i := range o.Objects {
			v := &o.Objects[i]
			visit(&v.Text)
			visit(&v.Name)
			visit(&v.Access)
		}
	}
	for i := range r.LockCycle {
		visit(&r.LockCycle[i])
	}
	for i := range r.Stacks {
		s := &r.Stacks[i]
		for _, p := range []*string{&s.Title, &s.Role, &s.RoleDetail, &s.Thread, &s.Truncated, &s.Marker} {
			visit(p)
		}
		if s.Location != nil {
			locationStrings(s.Location, visit)
		}
		for j := range s.Frames {
			frameStrings(&s.Frames[j], visit)
		}
	}
	if sh := r.Shadow; sh != nil {
		for i := range sh.Rows {
			row := &sh.Rows[i]
			visit(&row.Address)
			for j := range row.Bytes {
				visit(&row.Bytes[j])
			}
		}
		changed := false
		legend := make([][2]string, 0, len(sh.Legend))
		var kv [2]string // one pair for every entry: what visit may change
		for k, v := range sh.Legend {
			kv = [2]string{k, v}
			visit(&kv[0])
			visit(&kv[1])
			changed = changed || kv[0] != k || kv[1] != v
			legend = append(legend, kv)
		}
		if changed { // only on a copy: a visit that reads changes nothing
			clear(sh.Legend)
			for _, kv := range legend {
				sh.Legend[kv[0]] = kv[1]
			}
		}
	}
	sum := &r.Summary
	for _, s := range []*string{&sum.Text, &sum.Tool, &sum.Kind, &sum.Function, &sum.File, &sum.Module, &sum.BuildID} {
		visit(s)
	}
	for i := range r.Raw {
		visit(&r.Raw[i])
	}
	if f := r.Fuzzer; f != nil {
		for _, s := range []*string{&f.Mutations, &f.BaseUnit, &f.Bytes, &f.Text, &f.Artifact, &f.Base64} {
			visit(s)
		}
		for i := range f.Lines {
			visit(&f.Lines[i])
		}
	}
	if k := r.Kernel; k != nil {
		for _, s := range []*string{&k.Comm, &k.Tainted, &k.Release, &k.BuildID, &k.Hardware} {
			visit(s)
		}
	}
}

func locationStrings(l *report.Location, visit func(*string)) {
	for _, s := range []*string{&l.Text, &l.Address.Text, &l.Relation, &l.Begin.Text, &l.End.Text,
		&l.Name, &l.DefinedAt, &l.Thread, &l.Module, &l.Tail} {
		visit(s)
	}
}

func frameStrings(f *report.Frame, visit func(*string)) {
	for _, s := range []*string{&f.Function, &f.File, &f.Module, &f.BuildID, &f.Symbolized, &f.Raw, &f.Context, &f.Problem} {
		visit(s)
	}
}

// cloneReport copies r deeply enough that reportStrings on the copy
// changes nothing r holds: every slice, map and pointer that leads to a
// string is new.
func cloneReport(r *report.Report) *report.Report {
	c := *r
	if r.Access != nil {
		a := *r.Access
		c.Access = &a
	}
	c.Location = append([]report.Location(nil), r.Location...)
	if r.StackObjects != nil {
		o := *r.StackObjects
		o.Objects = append([]report.StackObject(nil), o.Objects...)
		c.StackObjects = &o
	}
	c.LockCycle = append([]string(nil), r.LockCycle...)
	c.Stacks = append([]report.Stack(nil), r.Stacks...)
	for i := range c.Stacks {
		s := &c.Stacks[i]
		if s.Location != nil {
			l := *s.Location
			s.Location = &l
		}
		s.Frames = append([]report.Frame(nil), s.Frames...)
	}
	if r.Shadow != nil {
		sh := *r.Shadow
		sh.Rows = append([]report.ShadowRow(nil), sh.Rows...)
		for i := range sh.Rows {
			sh.Rows[i].Bytes = append([]string(nil), sh.Rows[i].Bytes...)
		}
		if r.Shadow.Legend != nil {
			sh.Legend = make(map[string]string, len(r.Shadow.Legend))
			for k, v := range r.Shadow.Legend {
				sh.Legend[k] = v
			}
		}
		c.Shadow = &sh
	}
	c.Raw = append([]string(nil), r.Raw...)
	if r.Fuzzer != nil {
		f := *r.Fuzzer
		f.Lines = append([]string(nil), f.Lines...)
		c.Fuzzer = &f
	}
	if r.Kernel != nil {
		k := *r.Kernel
		c.Kernel = &k
	}
	return &c
}
