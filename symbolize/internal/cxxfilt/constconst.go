package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// LLVM 14 keeps a "K" applied to a type that is already const apart:
// "RKT_" with T_ = "std::ctype<char> const" prints
// "std::ctype<char> const const&". The module merges the two when it
// resolves T_. A vendor qualifier is not merged, so constKeptApart spells
// such a "K" (before a template parameter or a substitution) as the vendor
// qualifier "U5const" (one table entry, as the "K" type is), and the editor
// turns each one back into a plain const where the type under it is not
// qualified (llvm14Const).

const vendorConst = "U5const"

// constKeptApart returns name with the "K" before each template parameter
// and substitution reference spelled "U5const", or name itself.
func constKeptApart(name string) string {
	if strings.Contains(name, vendorConst) || !strings.Contains(name, "K") {
		return name
	}
	var b strings.Builder
	last := 0
	for p := 1; p+1 < len(name); p++ {
		if name[p] != 'K' {
			continue
		}
		switch name[p-1] {
		case 'N', 'V', 'r', 'K':
			// A method's qualifiers, or more than one: left as they are.
			continue
		}
		if c := name[p+1]; c != 'T' && c != 'S' {
			continue
		}
		if inPackExpansion(name, p) {
			// The module expands a pack through the types around
			// it with Copy, which a vendor qualifier breaks.
			continue
		}
		q := p + 2
		for q < len(name) && (isDigit(name[q]) || isUpper(name[q])) {
			q++
		}
		if q >= len(name) || name[q] != '_' {
			continue
		}
		b.WriteString(name[last:p])
		b.WriteString(vendorConst)
		last = p + 1
	}
	if last == 0 {
		return name
	}
	b.WriteString(name[last:])
	return b.String()
}

// inPackExpansion reports whether the qualifier at p is part of a pack
// expansion's type ("DpRKT_").
func inPackExpansion(name string, p int) bool {
	j := p - 1
	for j > 0 && strings.IndexByte("RPOKVr", name[j]) >= 0 {
		j--
	}
	return j > 0 && name[j-1] == 'D' && name[j] == 'p'
}

// vendorConstsResolved replaces the vendor "const" qualifiers that
// constKeptApart made, before the editor runs: over a qualified type by
// the type and " const" after it, as LLVM 14 prints it, otherwise by a
// plain const. It returns nil when there is none. (The module's
// VendorQualifier.Copy drops the copied type, so neither the module's
// resolution of template parameters nor the editor reach below one.)
func vendorConstsResolved(a demangle.AST, c *copier) demangle.AST {
	return resolveVendorConsts(a, c, false)
}

// resolveVendorConsts is vendorConstsResolved; with params it resolves
// template parameters too, as the module's simplify would have below a
// vendor qualifier.
func resolveVendorConsts(a demangle.AST, c *copier, params bool) demangle.AST {
	return c.copy(a, func(x demangle.AST) demangle.AST {
		if tp, ok := x.(*demangle.TemplateParam); ok && params && tp.Template != nil && tp.Index < len(tp.Template.Args) {
			arg := tp.Template.Args[tp.Index]
			if r := resolveVendorConsts(arg, c, true); r != nil {
				return r
			}
			return arg
		}
		vq, ok := x.(*demangle.VendorQualifier)
		if !ok || !isVendorConst(vq) {
			return nil
		}
		return vendorConstReplacement(vq, c)
	})
}

// resolvedBelow reports whether resolveVendorConsts with params replaces
// x: a template parameter or a vendor "const".
func resolvedBelow(x demangle.AST) bool {
	_, tp := x.(*demangle.TemplateParam)
	return tp || isVendorConst(x)
}

// isVendorConst reports whether x is a vendor qualifier named "const".
func isVendorConst(x demangle.AST) bool {
	vq, ok := x.(*demangle.VendorQualifier)
	if !ok {
		return false
	}
	n, ok := vq.Qualifier.(*demangle.Name)
	return ok && n.Name == "const"
}

// vendorConstReplacement returns what a vendor "const" over vq's type
// prints as in LLVM 14, from the parser's tree below it.
func vendorConstReplacement(vq *demangle.VendorQualifier, c *copier) demangle.AST {
	t := vq.Type
	if tp, ok := t.(*demangle.TemplateParam); ok && tp.Template != nil && tp.Index < len(tp.Template.Args) {
		t = tp.Template.Args[tp.Index]
	}
	_, qualified := t.(*demangle.TypeWithQualifiers)
	// VendorQualifier.Copy dropped the copied type: copy it here, if
	// anything below it is resolved (most types have nothing: a
	// read-only look costs less than the copy, and counts the same
	// nodes against maxEdits).
	if found, n := findNode(t, resolvedBelow); !found {
		if c.visits += n; c.visits > maxEdits {
			c.over = true
		}
	} else if r := resolveVendorConsts(t, c, true); r != nil {
		t = r
	}
	if qualified {
		return seq(t, " const")
	}
	return &demangle.TypeWithQualifiers{
		Base:       t,
		Qualifiers: &demangle.Qualifiers{Qualifiers: []demangle.AST{&demangle.Qualifier{Name: "const"}}},
	}
}

// vendorConstsInPlace is vendorConstsResolved done in a itself, the
// parser's fresh tree, for the qualifiers whose parent is one of the
// types that hold them in real names (references, pointers, qualified
// types, function and template arguments); it reports whether it did, and
// leaves a unchanged when it did not (a qualifier under another parent, or
// a tree too large). Copying the whole tree to reach them cost as much as
// half a parse, for a fifth of real C++ names.
//
// The places are found first and every replacement built from the
// unedited tree before any is put in, so that each is what the copy would
// have built: a replacement reads template arguments, which may be such
// places themselves.
func vendorConstsInPlace(a demangle.AST, c *copier) bool {
	var places []*demangle.AST
	add := func(p *demangle.AST) {
		if isVendorConst(*p) {
			places = append(places, p)
		}
	}
	met := 0
	w := newOnceWalk(visitFunc(func(x demangle.AST) bool {
		if isVendorConst(x) {
			// Resolved as a whole, from its parent.
			met++
			return false
		}
		// The fields each type's Traverse walks, so that every
		// qualifier met was found from its parent. (A template is
		// walked once, so its places are found once.)
		switch n := x.(type) {
		case *demangle.ReferenceType:
			add(&n.Base)
		case *demangle.RvalueReferenceType:
			add(&n.Base)
		case *demangle.PointerType:
			add(&n.Base)
		case *demangle.TypeWithQualifiers:
			add(&n.Base)
		case *demangle.Typed:
			add(&n.Name)
			add(&n.Type)
		case *demangle.FunctionType:
			if n.Return != nil {
				add(&n.Return)
			}
			for i := range n.Args {
				add(&n.Args[i])
			}
		case *demangle.Template:
			add(&n.Name)
			for i := range n.Args {
				add(&n.Args[i])
			}
		case *demangle.ArgumentPack:
			for i := range n.Args {
				add(&n.Args[i])
			}
		}
		return true
	}))
	ok := w.walk(a)
	if c.visits += w.visits; c.visits > maxEdits {
		c.over = true
	}
	if !ok || met != len(places) {
		return false
	}
	repl := make([]demangle.AST, len(places))
	for i, p := range places {
		repl[i] = vendorConstReplacement((*p).(*demangle.VendorQualifier), c)
	}
	for i, p := range places {
		*p = repl[i]
	}
	return true
}
