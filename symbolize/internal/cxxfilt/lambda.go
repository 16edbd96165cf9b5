package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// LLVM 14 reads a template parameter in a generic lambda's signature
// ("UlOT_E_") as a placeholder that prints "auto", in the closure's name
// and wherever a later S<n>_ refers to it ("operator()<double&>(auto&&)").
// The module prints "auto" in the closure's name but turns a reference to
// it back into the template parameter, resolved against the arguments in
// scope there ("(double&)"). lambdaAutoFixed rewrites those parameters to
// a vendor type named "auto" ("u4auto"), one table entry as the parameter
// is, which every reference then prints as "auto". The rewrite is kept
// only when the closures print as before.

// lambdaAutoFixed returns name with the template parameters of its lambda
// signatures spelled "u4auto", or name itself.
func lambdaAutoFixed(name string, a demangle.AST, opts []demangle.Option) string {
	if !strings.Contains(name, "Ul") {
		return name
	}
	var b strings.Builder
	last := 0
	for from := 0; ; {
		i := strings.Index(name[from:], "Ul")
		if i < 0 {
			break
		}
		i += from + 2
		end := lambdaSigEnd(name, i)
		if end < 0 {
			break
		}
		for p := i; p < end; p++ {
			if name[p] != 'T' {
				continue
			}
			q := p + 1
			for q < end && isDigit(name[q]) {
				q++
			}
			if q < end && name[q] == '_' && (p == 0 || !isDigit(name[p-1])) {
				b.WriteString(name[last:p])
				b.WriteString("u4auto")
				last = q + 1
				p = q
			}
		}
		from = end
	}
	// The bytes are looked at first: most lambdas have no template
	// parameter in their signature, and walking the tree costs more.
	if last == 0 || !hasLambdaAuto(a) {
		return name
	}
	b.WriteString(name[last:])
	out := b.String()
	r, err := demangle.ToAST(out, opts...)
	if err != nil || !sameClosures(a, r, opts) {
		return name
	}
	return out
}

// lambdaSigEnd returns the offset of the 'E' that ends a lambda signature
// starting at i: the first 'E' followed by a discriminator and '_'.
func lambdaSigEnd(name string, i int) int {
	for p := i; p < len(name); p++ {
		if name[p] != 'E' {
			continue
		}
		q := p + 1
		for q < len(name) && isDigit(name[q]) {
			q++
		}
		if q < len(name) && name[q] == '_' {
			return p
		}
	}
	return -1
}

// hasLambdaAuto reports whether a holds a lambda's auto parameter.
func hasLambdaAuto(a demangle.AST) bool {
	return anyNodeOnce(a, func(x demangle.AST) bool {
		_, ok := x.(*demangle.LambdaAuto)
		return ok
	})
}

// sameClosures reports whether the closures of a and b print alike.
func sameClosures(a, b demangle.AST, opts []demangle.Option) bool {
	ca, cb := closures(a), closures(b)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if demangle.ASTToString(ca[i], opts...) != demangle.ASTToString(cb[i], opts...) {
			return false
		}
	}
	return true
}

// closures returns the closure types in a, in traversal order.
func closures(a demangle.AST) []demangle.AST {
	var out []demangle.AST
	eachNodeOnce(a, func(x demangle.AST) bool {
		if c, ok := x.(*demangle.Closure); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}
