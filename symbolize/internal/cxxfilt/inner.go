package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// The template parameters of an encoding inside an expression (L_Z...E)
// are its own (LLVM's parseEncoding, libiberty's d_encoding): in
// "std::declval<std::integral_constant<unsigned long, 0ul> >" called in a
// decltype, its return type's "decltype(__declval<T_>(0))" means the
// integral_constant. The module resolves that T_ against the outer
// function's arguments ("__declval<5ul>"). Its resolution leaves the outer
// argument itself in the tree, so innerParamsFixed puts the inner
// encoding's argument in each place where the outer one appears in the
// inner encoding's type.

// innerParamsFixed returns a with the template parameters of the
// encodings inside it resolved against their own arguments, or nil.
func innerParamsFixed(a demangle.AST, c *copier) demangle.AST {
	if cl, ok := a.(*demangle.Clone); ok {
		if b := innerParamsFixed(cl.Base, c); b != nil {
			return &demangle.Clone{Base: b, Suffix: cl.Suffix}
		}
		return nil
	}
	outer, isInner, ok := innerEncodings(a)
	if !ok {
		return nil
	}
	fix := func(x demangle.AST) demangle.AST {
		ty, inner, ok := isInner(x)
		if !ok {
			return nil
		}
		t := swapArgs(ty.Type, outer.Args, inner.Args, c)
		if t == nil {
			return nil
		}
		return &demangle.Typed{Name: ty.Name, Type: t}
	}
	return c.copy(a, fix)
}

// innerEncodings returns what innerParamsFixed needs for a (not a
// Clone): the template of the encoding at its root and the test for an
// encoding inside it that has template parameters of its own; ok is false
// when a has no such encoding (or is too large to tell: then ok is true).
func innerEncodings(a demangle.AST) (outer *demangle.Template, isInner func(demangle.AST) (*demangle.Typed, *demangle.Template, bool), ok bool) {
	root, ok := a.(*demangle.Typed)
	if !ok {
		return nil, nil, false
	}
	outer, ok = lastTemplate(root.Name)
	if !ok || len(outer.Args) == 0 {
		return nil, nil, false
	}
	isInner = func(x demangle.AST) (*demangle.Typed, *demangle.Template, bool) {
		ty, ok := x.(*demangle.Typed)
		if !ok || x == root {
			return nil, nil, false
		}
		inner, ok := lastTemplate(ty.Name)
		if !ok || inner == outer {
			return nil, nil, false
		}
		// A local name's encoding (Z...E) has its parameters resolved
		// against its own arguments by the module already; swapping would
		// also hit the substitutions that share an outer argument's node.
		ft, ok := ty.Type.(*demangle.FunctionType)
		return ty, inner, ok && !ft.ForLocalName
	}
	if !hasNode(a, func(x demangle.AST) bool { _, _, ok := isInner(x); return ok }) {
		return nil, nil, false
	}
	return outer, isInner, true
}

// mayHaveInnerEncoding reports whether the mangled name may hold an
// encoding inside it, which starts with a 'Z' (a local name's "Z", a
// literal's "L_Z"): without one innerParamsFixed has nothing to fix.
func mayHaveInnerEncoding(name string) bool {
	return len(name) < 2 || strings.IndexByte(name[2:], 'Z') >= 0
}

// hasInnerEncoding reports whether innerParamsFixed may change a.
func hasInnerEncoding(a demangle.AST) bool {
	if cl, ok := a.(*demangle.Clone); ok {
		return hasInnerEncoding(cl.Base)
	}
	_, _, ok := innerEncodings(a)
	return ok
}

// hasNode reports whether the tree a, unfolded as the copier unfolds it,
// has a node for which is reports true, or is too large to tell: a
// read-only walk first, as most trees have none and a copy allocates.
func hasNode(a demangle.AST, is func(demangle.AST) bool) bool {
	found, _ := findNode(a, is)
	return found
}

// findNode is hasNode, also returning the nodes it visited: as many as a
// copy visits when none is found.
func findNode(a demangle.AST, is func(demangle.AST) bool) (found bool, visits int) {
	a.Traverse(func(x demangle.AST) bool {
		if found {
			return false
		}
		if visits++; visits > maxEdits {
			found = true // let the copier stop it and say so
			return false
		}
		found = is(x)
		return !found
	})
	return found, visits
}

// eachNodeOnce calls fn on each node of a once, in traversal order, until
// fn returns false: a substitution can make the tree share nodes, which are
// walked the first time only.
func eachNodeOnce(a demangle.AST, fn func(demangle.AST) bool) {
	done := false
	seen := map[demangle.AST]bool{}
	a.Traverse(func(x demangle.AST) bool {
		if done || seen[x] {
			return false
		}
		seen[x] = true
		done = !fn(x)
		return !done
	})
}

// anyNodeOnce reports whether a has a node for which is reports true,
// each shared node asked once.
func anyNodeOnce(a demangle.AST, is func(demangle.AST) bool) bool {
	found := false
	eachNodeOnce(a, func(x demangle.AST) bool {
		found = is(x)
		return !found
	})
	return found
}

// swapArgs returns a with every node identical to from[i] replaced by
// to[i], or nil when there is none.
func swapArgs(a demangle.AST, from, to []demangle.AST, c *copier) demangle.AST {
	inner := &copier{visits: c.visits}
	defer func() { c.visits, c.over = inner.visits, c.over || inner.over }()
	return inner.copy(a, func(x demangle.AST) demangle.AST {
		for i, f := range from {
			if x == f && i < len(to) {
				return to[i]
			}
		}
		return nil
	})
}

// lastTemplate returns the template a name ends in.
func lastTemplate(a demangle.AST) (*demangle.Template, bool) {
	for {
		switch n := a.(type) {
		case *demangle.Template:
			return n, true
		case *demangle.Qualified:
			a = n.Name
		default:
			return nil, false
		}
	}
}
