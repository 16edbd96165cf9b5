package cxxfilt

import "github.com/ianlancetaylor/demangle"

// libiberty 2.40 reads "srN <type> <levels> E <name>" (d_unresolved_name)
// as one nested-name type, with the table entries a type adds (the
// prefixes, the template arguments, the instance), then the name: five for
// "srNS_11call_traitsIT_FvT0_EvEE8overload", where LLVM and the module add
// the arguments' types only (and the module the last level's bare name,
// which srSubsFixed drops for LLVM). The module reads a type with its
// entries after "sr" when it starts with T, D or S; gnuSrAsType wraps the
// nested name in a pack expansion ("srDpN...E"), which the editor takes off
// again. The expansion adds one entry of its own after the type's, so the
// later references at or past it are renumbered one up; where the form
// ends (after the name that follows the type) is asked of the parser.

// gnuSrAsType returns name with each "srN" form spelled "srDpN" and the
// references after it renumbered, or name itself.
func gnuSrAsType(name string, opts []demangle.Option) string {
	return rewriteEach(name, "srN", func(name string, i int, probes *int) (string, int) {
		wrapped := name[:i] + "srDp" + name[i+2:]
		// The form ends after "E <length><name>" with no template
		// arguments after the name.
		for q := i + 5; q+1 < len(wrapped) && *probes < maxProbes; q++ {
			if wrapped[q] != 'E' || !isDigit(wrapped[q+1]) {
				continue
			}
			k := q + 1
			for k < len(wrapped) && isDigit(wrapped[k]) {
				k++
			}
			l := atoi(wrapped[q+1 : k])
			end := k + l
			if l == 0 || end > len(wrapped) || end < len(wrapped) && wrapped[end] == 'I' {
				continue
			}
			*probes++
			prefix := wrapped[:i] + "cl" + wrapped[i:end] + "stP"
			n, ok := probeTableLen(prefix, len(prefix), opts)
			if !ok {
				continue
			}
			return renumberFrom(wrapped, end, n-1, opts, probes), end
		}
		return name, i + 3
	})
}

// atoi reads a decimal length; 0 for none or one too large.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<20 {
			return 0
		}
	}
	return n
}

// gnuUnresolvedTemplate returns q's replacement when q is an unresolved
// name whose last part has template arguments: libiberty applies them to
// the qualified name as a whole, which matters for the parentheses around
// a callee: "(std::declval<T&>)()".
func gnuUnresolvedTemplate(q *demangle.Qualified) demangle.AST {
	if q.LocalName {
		return nil
	}
	t, ok := q.Name.(*demangle.Template)
	if !ok {
		return nil
	}
	return &demangle.Template{Name: &demangle.Qualified{Scope: q.Scope, Name: t.Name}, Args: t.Args}
}
