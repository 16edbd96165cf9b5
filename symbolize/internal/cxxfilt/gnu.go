package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// gnu returns the replacement of a for libiberty's printing, or nil.
func (e *editor) gnu(a demangle.AST) demangle.AST {
	switch a := a.(type) {
	case *demangle.Template:
		t := a
		if args := gnuInnerEmpties(a.Args); args != nil {
			t = &demangle.Template{Name: a.Name, Args: args}
		}
		if n := len(t.Args); n > 0 && isEmpty(t.Args[n-1]) {
			return e.markArgs(t)
		}
		if t != a {
			return t
		}
	case *demangle.FunctionType:
		if args := gnuInnerEmpties(a.Args); args != nil {
			return &demangle.FunctionType{Return: a.Return, Args: args, ForLocalName: a.ForLocalName}
		}
	case *demangle.ArgumentPack:
		return e.dropEmpty(a)
	case *demangle.Qualified:
		if p, ok := a.Scope.(*demangle.PackExpansion); ok && p.Pack == nil {
			// gnuSrAsType's wrapper.
			return &demangle.Qualified{Scope: p.Base, Name: a.Name, LocalName: a.LocalName}
		}
		return gnuUnresolvedTemplate(a)
	case *demangle.Binary:
		// libiberty prints a called encoding by its name only, with
		// or without a return type: "(std::declval<int>)()". The
		// module does so when there is no return type.
		if op, ok := a.Op.(*demangle.Operator); ok && op.Name == "()" {
			if ty, ok := a.Left.(*demangle.Typed); ok {
				if ft, ok := ty.Type.(*demangle.FunctionType); ok && ft.Return != nil {
					f := &demangle.FunctionType{Args: ft.Args, ForLocalName: ft.ForLocalName}
					return &demangle.Binary{Op: a.Op, Left: &demangle.Typed{Name: ty.Name, Type: f}, Right: a.Right}
				}
			}
		}
	}
	return nil
}

// maxRewritten is the longest name parse rewrites before parsing.
const maxRewritten = 1 << 16

// parse parses name with the module, after the rewriting of the mangled
// name that some rules need.
func parse(name string, style Style, opts []demangle.Option, c *copier) (demangle.AST, error) {
	if len(name) > maxRewritten {
		// Each rewrite may parse the name a few hundred times; no real
		// name comes near (the longest are some 30 kB).
		return demangle.ToAST(name, opts...)
	}
	var fixed string
	if style.llvm() {
		fixed = constKeptApart(ciBaseFixed(srSubsFixed(name, true, opts), opts))
	} else {
		// libiberty reads "srN" as a type (gnuSrTypeFixed), the
		// other forms' qualifier levels as LLVM does.
		fixed = srSubsFixed(gnuSrAsType(name, opts), false, opts)
	}
	a, err := demangle.ToAST(fixed, opts...)
	if err != nil && style == GNU {
		// libiberty reads the name again with "sr" in the old form,
		// "sr <type> <name>", when the new one fails.
		if old := srOldForm(name); old != name {
			return demangle.ToAST(old, opts...)
		}
	}
	if err != nil || !style.llvm() {
		return a, err
	}
	if f := lambdaAutoFixed(fixed, a, opts); f != fixed {
		if a, err = demangle.ToAST(f, opts...); err != nil {
			return nil, err
		}
	}
	// Only constKeptApart's qualifiers need resolving: a name without
	// any is not walked.
	if fixed != name && strings.Contains(fixed, vendorConst) {
		// In place only where no later pass compares nodes by
		// identity (innerParamsFixed, for a name with an inner
		// encoding: one starts with a 'Z', and most names with a
		// 'Z', local names, have none); the copy gives each
		// occurrence its own node.
		noInner := !mayHaveInnerEncoding(name) || !hasInnerEncoding(a)
		if noInner && vendorConstsInPlace(a, c) {
			return a, nil
		}
		if r := vendorConstsResolved(a, c); r != nil {
			a = r
		}
	}
	return a, nil
}

// gnuCDtorsNamed names the constructors and destructors in a as libiberty
// does: after the last source name it parsed before them (d_info.last_name),
// whatever the class is. For most classes that is the class's own name; a
// closure's takes a type's name from its signature or the enclosing
// function's, an unnamed type's the enclosing class's, an inheriting
// constructor its base's. Template arguments and ABI tags do not count
// (d_template_args and d_abi_tags restore it), nor do substitutions.
//
// The tree is walked in the order of the mangled name; a node met a second
// time came from a substitution or a resolved template parameter. It
// returns nil when no name changes.
func gnuCDtorsNamed(a demangle.AST, c *copier) demangle.AST {
	w := lastNameWalk{seen: map[demangle.AST]bool{}, names: map[demangle.AST]demangle.AST{}}
	w.walk(a)
	if len(w.names) == 0 {
		return nil
	}
	return c.copy(a, func(x demangle.AST) demangle.AST {
		switch n := x.(type) {
		case *demangle.Constructor:
			if name, ok := w.names[x]; ok {
				return &demangle.Constructor{Name: name, Base: n.Base}
			}
		case *demangle.Destructor:
			if name, ok := w.names[x]; ok {
				return &demangle.Destructor{Name: name}
			}
		}
		return nil
	})
}

// lastNameWalk follows libiberty's last source name through a tree.
type lastNameWalk struct {
	last  demangle.AST                  // the last source name so far
	seen  map[demangle.AST]bool         // nodes walked
	names map[demangle.AST]demangle.AST // constructor or destructor -> its name
	steps int
}

// maxWalk bounds the walk like the editor's.
const maxWalk = 1 << 16

func (w *lastNameWalk) walk(a demangle.AST) {
	if a == nil || w.seen[a] || w.steps > maxWalk {
		return
	}
	w.seen[a] = true
	w.steps++
	switch n := a.(type) {
	case *demangle.Name:
		switch n.Name {
		case "decltype(auto)", "auto":
			// Types the module spells as names; no source names.
		default:
			w.last = n
		}
	case *demangle.Template:
		w.walk(n.Name)
		last := w.last
		for _, x := range n.Args {
			w.walk(x)
		}
		w.last = last
	case *demangle.TaggedName:
		w.walk(n.Name)
		w.seen[n.Tag] = true
	case *demangle.Closure:
		for _, x := range n.TemplateArgs {
			w.walk(x)
		}
		for _, x := range n.Types {
			w.walk(x)
		}
	case *demangle.Constructor:
		w.walk(n.Base)
		w.name(a, n.Name)
	case *demangle.Destructor:
		w.name(a, n.Name)
	default:
		// Other nodes: their children in field order, which is the
		// order of the mangled name.
		a.Traverse(func(x demangle.AST) bool {
			if x == a {
				return true
			}
			w.walk(x)
			return false
		})
	}
}

// name records the name libiberty gives the constructor or destructor a.
func (w *lastNameWalk) name(a, own demangle.AST) {
	if w.last != nil && w.last != own {
		w.names[a] = w.last
	}
}

// srOldForm returns name with each "sr" followed by a length-prefixed
// identifier spelled as the module's "srN <type> E" with that identifier as
// the type: the old form "sr <type> <name>" that libiberty 2.40 reads when
// the new one ("sr <levels> E <name>") fails ("_Z1fIiEDTsr1A1xET_" is
// "decltype (A::x) f<int>(int)").
func srOldForm(name string) string {
	var b strings.Builder
	last := 0
	for i := strings.Index(name, "sr"); i >= 0; {
		j := i + 2
		k := j
		for k < len(name) && isDigit(name[k]) {
			k++
		}
		if l := atoi(name[j:k]); k > j && l > 0 && k+l < len(name) && name[k+l] != 'I' {
			b.WriteString(name[last:j])
			b.WriteString("N" + name[j:k+l] + "E")
			last = k + l
		}
		// An "sr" inside the identifier just spelled is part of it.
		from := max(j, last)
		n := strings.Index(name[from:], "sr")
		if n < 0 {
			break
		}
		i = from + n
	}
	if last == 0 {
		return name
	}
	b.WriteString(name[last:])
	return b.String()
}

// gnuInnerEmpties returns args with each element that prints nothing
// (isEmpty: an empty pack, an empty pack expansion) and comes before one
// that prints something replaced by a node the printer does not skip, or
// nil when there is none. libiberty prints a template argument or
// parameter list element by element and takes back the ", " before an
// element only when nothing is printed after it, so an empty pack before
// the last printed element keeps its commas ("thread<main::$_0, , void>");
// the module skips every empty element, which the trailing ones are left
// to.
func gnuInnerEmpties(args []demangle.AST) []demangle.AST {
	last := len(args) - 1
	for last >= 0 && isEmpty(args[last]) {
		last--
	}
	var out []demangle.AST
	for i := 0; i < last; i++ {
		if isEmpty(args[i]) {
			if out == nil {
				out = make([]demangle.AST, len(args))
				copy(out, args)
			}
			out[i] = emptyName
		}
	}
	return out
}
