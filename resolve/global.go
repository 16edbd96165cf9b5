package resolve

import (
	"fmt"

	"github.com/sanitrace/sanitrace/report"
)

// globals completes TSan "Location is global '<null>'" lines (the runtime
// could not symbolize the global: no name, no size, address 0) the way the
// runtime prints them when it symbolizes itself:
//
//	Location is global 'requests_served' of size 8 at 0x55fb3d7f0260 (race_global+0x1476260)
//
// The name, size and start come from the module's symbol table; the start's
// run-time address from the report's access address, which lies inside the
// global (address - (offset - start)).
func (r *Resolver) globals(rep *report.Report, ctx context) {
	for i := range rep.Location {
		l := &rep.Location[i]
		if l.Kind != report.Global || l.HasSize || !l.HasModuleOffset {
			continue
		}
		off := l.ModuleOffset
		obj := r.object(r.module(l.Module, "", ctx))
		if obj == nil {
			continue
		}
		g, ok := obj.Data(off)
		if !ok || off < g.Start {
			continue
		}
		name := g.Demangled
		if name == "" {
			name = g.Name
		}
		at := report.Addr{Text: "0x000000000000"}
		if a := rep.Address; rep.Access != nil && rep.HasAddress && a >= off-g.Start {
			at = report.Addr{Text: fmt.Sprintf("0x%012x", a-(off-g.Start)), Value: a - (off - g.Start)}
		}
		l.Name, l.Size, l.HasSize, l.Begin = name, g.Size, true, at
		l.Text = fmt.Sprintf("Location is global '%s' of size %d at %s (%s+0x%x)%s", name, g.Size, at.Text, l.Module, off, l.Tail)
	}
}
