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
		if !ok {
			return nil
		}
		if n, ok := vq.Qualifier.(*demangle.Name); !ok || n.Name != "const" {
			return nil
		}
		t := vq.Type
		if tp, ok := t.(*demangle.TemplateParam); ok && tp.Template != nil && tp.Index < len(tp.Template.Args) {
			t = tp.Template.Args[tp.Index]
		}
		_, qualified := t.(*demangle.TypeWithQualifiers)
		// VendorQualifier.Copy dropped the copied type: copy it here.
		if r := resolveVendorConsts(t, c, true); r != nil {
			t = r
		}
		if qualified {
			return seq(t, " const")
		}
		return &demangle.TypeWithQualifiers{
			Base:       t,
			Qualifiers: &demangle.Qualifiers{Qualifiers: []demangle.AST{&demangle.Qualifier{Name: "const"}}},
		}
	})
}
