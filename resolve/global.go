package resolve

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/sanitrace/sanitrace/parse"
)

// tsanGlobalRE is ThreadSanitizer's location line for a global when the
// runtime could not symbolize: it asks the symbolizer for the global's name
// and start (a DATA query), and without one prints '<null>' and address 0.
var tsanGlobalRE = regexp.MustCompile(`^(\s*Location is global )'<null>' at 0x0+ \(([^()]+)\+0x([0-9a-fA-F]+)\)(.*)$`)

// globals completes TSan "Location is global '<null>'" lines the way the
// runtime prints them when it symbolizes itself:
//
//	Location is global 'requests_served' of size 8 at 0x55fb3d7f0260 (race_global+0x1476260)
//
// The name, size and start come from the module's symbol table; the start's
// run-time address from the report's access address, which lies inside the
// global (address - (offset - start)).
func (r *Resolver) globals(rep *parse.Report, ctx context) {
	for i, line := range rep.Location {
		m := tsanGlobalRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		off, err := strconv.ParseUint(m[3], 16, 64)
		if err != nil {
			continue
		}
		mod := r.module(m[2], "", ctx)
		if mod.obj == nil {
			continue
		}
		g, ok := mod.obj.Data(off)
		if !ok || off < g.Start {
			continue
		}
		name := g.Demangled
		if name == "" {
			name = g.Name
		}
		at := "0x000000000000"
		if rep.Access != nil {
			if a, err := strconv.ParseUint(rep.Access.Address, 0, 64); err == nil && a >= off-g.Start {
				at = fmt.Sprintf("0x%012x", a-(off-g.Start))
			}
		}
		rep.Location[i] = fmt.Sprintf("%s'%s' of size %d at %s (%s+0x%s)%s", m[1], name, g.Size, at, m[2], m[3], m[4])
	}
}
