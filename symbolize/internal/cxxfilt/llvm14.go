package cxxfilt

import (
	"slices"
	"strings"
	"sync"

	"github.com/ianlancetaylor/demangle"
)

// llvm14 returns the replacement of a for LLVM 14's printing, or nil.
//
// LLVM 14's Itanium demangler (llvm/Demangle/ItaniumDemangle.h) prints "> >"
// between nested template closers and no space in "operator<<<char>"; it
// prints expressions without any notion of precedence: every operand of a
// prefix, postfix, binary, conditional or subscript expression in
// parentheses, "sizeof (T)", casts and calls without extra parentheses, list
// elements never parenthesised. Later LLVMs, which the module's LLVMStyle
// follows, print ">>" and parenthesise by precedence.
func (e *editor) llvm14(a demangle.AST) demangle.AST {
	switch a := a.(type) {
	case *demangle.Template:
		if t := e.spacedFuncArgs(a); t != nil {
			if e.templatesMarked {
				return t
			}
			a = t
		}
		if e.templatesMarked {
			return nil
		}
		t := a
		if endsInLess(t.Name) {
			t = &demangle.Template{Name: seq(t.Name, markNoSpace), Args: t.Args}
			e.marked = true
		}
		if r := e.markArgs(t); r != nil {
			return r
		}
		if t != a {
			return t
		}
	case *demangle.ArgumentPack:
		return e.dropEmpty(a)
	case *demangle.UnnamedType:
		return e.qualifiedUnnamed(a)
	case *demangle.ReferenceType, *demangle.RvalueReferenceType:
		return packRefCollapsed(a)
	case *demangle.ComplexType:
		// C99's complex and imaginary types: LLVM's words, not the
		// keywords libiberty and the module print ("_Complex").
		return seq(a.Base, " complex")
	case *demangle.ImaginaryType:
		return seq(a.Base, " imaginary")
	case *demangle.ExprList:
		if l := nestedList(a); l != nil {
			return l
		}
	case *demangle.PackExpansion:
		// An expansion with no pack in it (a generic lambda's
		// "auto..."): LLVM 14 writes the "...".
		if a.Pack == nil {
			return seq(a.Base, "...")
		}
	case *demangle.Qualified:
		if n := llvm14CDtor(a, e.style); n != nil {
			return n
		}
	case *demangle.Unary, *demangle.Binary, *demangle.Trinary:
		if e.style == LLVM19 {
			return llvm19Expr(a)
		}
		return llvm14Expr(a)
	}
	return nil
}

// llvm14Expr prints an expression as LLVM 14 does, or returns nil for
// the forms it leaves to the module.
func llvm14Expr(a demangle.AST) demangle.AST {
	switch a := a.(type) {
	case *demangle.Unary:
		return llvm14Unary(a)
	case *demangle.Binary:
		return llvm14Binary(a)
	case *demangle.Trinary:
		if op, ok := a.Op.(*demangle.Operator); ok && op.Name == "?" {
			return seq("(", a.First, ") ? (", a.Second, ") : (", a.Third, ")")
		}
	}
	return nil
}

// endsInLess reports whether a name prints ending in '<' ("operator<",
// "operator<<"), after which the module writes a space before the
// template's '<'.
func endsInLess(a demangle.AST) bool {
	for {
		switch n := a.(type) {
		case *demangle.Qualified:
			a = n.Name
			continue
		case *demangle.Operator:
			return strings.HasSuffix(n.Name, "<")
		}
		return false
	}
}

// llvm14CDtor returns a's replacement when a names a constructor or
// destructor of a closure, an unnamed type or an ABI-tagged class: LLVM 14
// names it after the class's base name, which such classes do not have
// ("std::ios_base::failure[abi:cxx11]::~()"). LLVM 19 does so for the
// first two only: an ABI-tagged class's is named as the module names it.
func llvm14CDtor(q *demangle.Qualified, style Style) demangle.AST {
	var r demangle.AST
	switch n := q.Name.(type) {
	case *demangle.Constructor:
		r = &demangle.Constructor{Name: emptyName, Base: n.Base}
	case *demangle.Destructor:
		r = &demangle.Destructor{Name: emptyName}
	default:
		return nil
	}
	for scope := q.Scope; ; {
		switch s := scope.(type) {
		case *demangle.Template:
			scope = s.Name
			continue
		case *demangle.Qualified:
			scope = s.Name
			continue
		case *demangle.TaggedName:
			if style == LLVM19 {
				return nil
			}
			return &demangle.Qualified{Scope: q.Scope, Name: r, LocalName: q.LocalName}
		case *demangle.Closure, *demangle.UnnamedType:
			return &demangle.Qualified{Scope: q.Scope, Name: r, LocalName: q.LocalName}
		}
		return nil
	}
}

// llvm14Unary prints u as LLVM 14's PrefixExpr, PostfixExpr, EnclosingExpr,
// ConversionExpr, DeleteExpr or ThrowExpr would, or returns nil for the
// forms it leaves to the module.
func llvm14Unary(u *demangle.Unary) demangle.AST {
	if c, ok := u.Op.(*demangle.Cast); ok {
		return seq("(", c.To, ")(", u.Expr, ")")
	}
	op, ok := u.Op.(*demangle.Operator)
	if !ok {
		return nil
	}
	if u.SizeofType {
		return seq("sizeof (", u.Expr, ")")
	}
	switch op.Name {
	case "sizeof ", "alignof ", "typeid ", "noexcept":
		return seq(strings.TrimSuffix(op.Name, " ")+" (", u.Expr, ")")
	case "delete ":
		// DeleteExpr writes no space after a non-array "delete".
		return seq("delete", u.Expr)
	case "delete[] ", "throw ":
		return seq(op.Name, u.Expr)
	case "&", "*", "-", "!", "~", "+", "++", "--":
		if u.Suffix {
			return seq("(", u.Expr, ")"+op.Name)
		}
		return seq(op.Name+"(", u.Expr, ")")
	}
	return nil
}

// llvm14Binary prints b as LLVM 14's BinaryExpr, MemberExpr,
// ArraySubscriptExpr, CastExpr or CallExpr would, or returns nil for the
// forms it leaves to the module (designated initialisers).
func llvm14Binary(b *demangle.Binary) demangle.AST {
	op, ok := b.Op.(*demangle.Operator)
	if !ok || isDesignatedInitializer(b) {
		return nil
	}
	switch op.Name {
	case "const_cast", "dynamic_cast", "reinterpret_cast", "static_cast":
		return seq(op.Name+"<", b.Left, ">(", b.Right, ")")
	case "()":
		return seq(b.Left, "(", b.Right, ")")
	case ".", "->", ".*":
		return seq(b.Left, op.Name, b.Right)
	case "[]":
		return seq("(", b.Left, ")[", b.Right, "]")
	case "() ":
		return nil
	case ">":
		return seq("((", b.Left, ") > (", b.Right, "))")
	}
	return seq("(", b.Left, ") "+op.Name+" (", b.Right, ")")
}

// llvm19Expr prints a call as LLVM 19's CallExpr does, its callee whole:
// a function named by its encoding ("L_Z…E") keeps its parameter types,
// "max_digits(unsigned long)(sizeof (unsigned long))", where the module
// prints the name alone. It returns nil for other expressions, which the
// module parenthesises by precedence as 19 does.
func llvm19Expr(a demangle.AST) demangle.AST {
	b, ok := a.(*demangle.Binary)
	if !ok {
		return nil
	}
	if op, ok := b.Op.(*demangle.Operator); ok && op.Name == "()" {
		return seq(b.Left, "(", b.Right, ")")
	}
	return nil
}

// isDesignatedInitializer reports whether b is a designated initialiser
// ("[1] = 2", ".x = 1"), which the module prints without spaces: its
// operator is "]=", or "=" with something other than a literal on the left.
func isDesignatedInitializer(b *demangle.Binary) bool {
	op, ok := b.Op.(*demangle.Operator)
	if !ok {
		return false
	}
	if op.Name == "]=" {
		return true
	}
	_, lit := b.Left.(*demangle.Literal)
	return op.Name == "=" && !lit
}

// llvm14SpecialPrefixes are the special names of the module that LLVM 14's
// demangler does not know (it knows only GV and GR among the G names, and
// neither TF nor TJ): llvm-symbolizer 14 prints such names mangled.
var llvm14SpecialPrefixes = []string{
	"hidden alias for ",          // GA
	"transaction clone for ",     // GTt
	"non-transaction clone for ", // GTn
	"initializer for module ",    // GI
	"java resource ",             // Gr
	"typeinfo fn for ",           // TF
	"java Class for ",            // TJ
}

// llvm14Rejects reports whether LLVM 14 (and 19) fails on a name the
// module parsed: a conversion it cannot read (castRejected), or an unknown
// special name, here or in an encoding inside an expression.
func llvm14Rejects(name string, a demangle.AST) bool {
	if mayRejectCast(name) && castRejected(a) {
		return true
	}
	if !strings.Contains(name, "ZG") && !strings.Contains(name, "ZTF") && !strings.Contains(name, "ZTJ") {
		return false
	}
	return anyNodeOnce(a, func(x demangle.AST) bool {
		s, ok := x.(*demangle.Special)
		return ok && slices.Contains(llvm14SpecialPrefixes, s.Prefix)
	})
}

// llvm14Clones takes clone suffixes off the top of a: LLVM 14 prints
// everything from the first '.' after the encoding as one suffix,
// "f() (.isra.0.cold)", where the module prints one per clone.
func llvm14Clones(name string, a demangle.AST) (demangle.AST, string) {
	n := 0
	for {
		c, ok := a.(*demangle.Clone)
		if !ok {
			break
		}
		n += len(c.Suffix)
		a = c.Base
	}
	if n == 0 {
		return a, ""
	}
	return a, name[len(name)-n:]
}

// nestedList returns l with the elements of each list inside it spliced
// in, or nil when it holds none. A pack expanded among a call's arguments
// ("sp" in a decltype) is a list inside the list; the module prints it in
// parentheses, as a list element of the comma's precedence, where LLVM 14
// and 19 print its elements among the others
// ("decltype(g(forward<int const&>(fp)))").
func nestedList(l *demangle.ExprList) *demangle.ExprList {
	if !hasNestedList(l) {
		return nil
	}
	size := 0
	for _, x := range l.Exprs {
		if in, ok := x.(*demangle.ExprList); ok {
			size += len(in.Exprs)
		} else {
			size++
		}
	}
	out := make([]demangle.AST, 0, size)
	for _, x := range l.Exprs {
		if in, ok := x.(*demangle.ExprList); ok {
			out = append(out, in.Exprs...)
		} else {
			out = append(out, x)
		}
	}
	return &demangle.ExprList{Exprs: out}
}

// hasNestedList reports whether l holds a list (see nestedList).
func hasNestedList(l *demangle.ExprList) bool {
	return slices.ContainsFunc(l.Exprs, func(x demangle.AST) bool {
		_, ok := x.(*demangle.ExprList)
		return ok
	})
}

// returnsFuncPointer reports whether a is a function type that returns a
// pointer, a reference or a pointer to member to a function: std::bind's
// "_Bind<bool (S::* (S const*, _Placeholder<1>))(S const&) const>".
func returnsFuncPointer(a demangle.AST) bool {
	ft, ok := a.(*demangle.FunctionType)
	if !ok {
		return false
	}
	_, _, ok = pointedFunc(ft)
	return ok
}

// pointedFunc returns, when ft returns a pointer, a reference or a pointer
// to member to a function, that function and what the return type prints
// between "(" and ft's parameters: "*", "&", "&&", or the class and "::*".
func pointedFunc(ft *demangle.FunctionType) (fn *demangle.FunctionType, syntax demangle.AST, ok bool) {
	var to demangle.AST
	switch r := ft.Return.(type) {
	case *demangle.PointerType:
		to, syntax = r.Base, &demangle.Name{Name: "*"}
	case *demangle.ReferenceType:
		to, syntax = r.Base, &demangle.Name{Name: "&"}
	case *demangle.RvalueReferenceType:
		to, syntax = r.Base, &demangle.Name{Name: "&&"}
	case *demangle.PtrMem:
		to, syntax = r.Member, seq(r.Class, "::*")
	default:
		return nil, nil, false
	}
	if m, ok := to.(*demangle.MethodWithQualifiers); ok {
		to = m.Method
	}
	fn, ok = to.(*demangle.FunctionType)
	return fn, syntax, ok && fn.Return != nil
}

// maxSpacedArgs bounds the arguments spacedFuncArgs prints on their own
// in one name: substitutions can repeat one many times over, and each is
// printed whole (real names have a few).
const maxSpacedArgs = 64

// spacedFuncArgs returns t with each argument that returnsFuncPointer
// says yes to printed as LLVM 14 and 19 print it, or nil when t has none.
// Their FunctionType writes a space between its return type's left part
// and its own parameters, "void (* (int))(char)"; the module (and
// libiberty) write none. The argument is printed alone and the space put
// in where the module's text has the return type, " (", the pointer's
// syntax and "(": an argument whose text is not laid out so (a return
// type that is itself a function pointer) is left as the module prints it.
func (e *editor) spacedFuncArgs(t *demangle.Template) *demangle.Template {
	var args []demangle.AST
	for i, a := range t.Args {
		// (markInPlace may have marked the argument's end already.)
		marked, isMarked := a.(*demangle.Special2)
		if isMarked && marked.Val2 == argEndMark && marked.Prefix == "" && marked.Middle == "" {
			a = marked.Val1
		}
		ft, ok := a.(*demangle.FunctionType)
		if !ok {
			continue
		}
		fn, syntax, ok := pointedFunc(ft)
		if !ok || e.spaced >= maxSpacedArgs {
			continue
		}
		e.spaced++
		head := demangle.ASTToString(fn.Return, e.print...) + " (" + demangle.ASTToString(syntax, e.print...)
		s := demangle.ASTToString(ft, e.print...)
		if !strings.HasPrefix(s, head+"(") {
			continue
		}
		if args == nil {
			args = slices.Clone(t.Args)
		}
		var spaced demangle.AST = &demangle.Name{Name: head + " " + s[len(head):]}
		if a != t.Args[i] {
			spaced = &demangle.Special2{Val1: spaced, Val2: argEndMark}
		}
		args[i] = spaced
	}
	if args == nil {
		return nil
	}
	return &demangle.Template{Name: t.Name, Args: args}
}

// qualifiedUnnamed returns the nested name of u, an unnamed type reached
// other than as the last component of that name: a substitution for
// "A::Ut_" refers to the unnamed type alone in the module's tree, and
// LLVM 14 and 19 print what it stands for, "A::'unnamed' const&"
// (libiberty, like the module, the last component). nil leaves u as it is.
func (e *editor) qualifiedUnnamed(u *demangle.UnnamedType) demangle.AST {
	q := e.unnamed[u]
	if q == nil {
		return nil
	}
	if st := e.guard.stack; len(st) > 0 {
		if p, ok := st[len(st)-1].(*demangle.Qualified); ok && p.Name == u {
			return nil // the name itself (replace has left u already)
		}
	}
	// The nested name gets the editor's rules too (its scope's
	// templates, say); its own unnamed type is the case above.
	if c := q.Copy(e.replace, e.guard.enter); c != nil {
		return c
	}
	return q
}

// packRefCollapsed is LLVM's reference collapsing through a pack: a
// reference to a template parameter that names a pack of one reference
// (boost::allocator_construct's "RS7_", S7_ the pack T1_ = {char const&})
// prints as that element collapsed with it, an lvalue reference winning
// ("char const&"), where the module writes both ampersands ("char
// const&&"). LLVM collapses with a pack's first element; with one element
// that is also what an expansion of it prints. nil when x is no such
// reference.
func packRefCollapsed(x demangle.AST) demangle.AST {
	var base demangle.AST
	rvalue := false
	switch r := x.(type) {
	case *demangle.ReferenceType:
		base = r.Base
	case *demangle.RvalueReferenceType:
		base, rvalue = r.Base, true
	}
	p, ok := base.(*demangle.ArgumentPack)
	if !ok || len(p.Args) != 1 {
		return nil
	}
	switch in := p.Args[0].(type) {
	case *demangle.ReferenceType:
		return &demangle.ReferenceType{Base: in.Base}
	case *demangle.RvalueReferenceType:
		if rvalue {
			return &demangle.RvalueReferenceType{Base: in.Base}
		}
		return &demangle.ReferenceType{Base: in.Base}
	}
	return nil
}

// mayRejectCast is castRejected's test on the mangled text: a standard
// substitution with template arguments written after a conversion's "cv"
// (one written before it, reached from the conversion's type through a
// substitution, is one LLVM read with its arguments).
func mayRejectCast(name string) bool {
	i := strings.Index(name, "cv")
	if i < 0 {
		return false
	}
	rest := name[i+2:]
	return slices.ContainsFunc(stdSubstArgs, func(m string) bool { return strings.Contains(rest, m) })
}

// stdSubstArgs are the standard substitutions followed by template
// arguments, as the mangled text writes them.
var stdSubstArgs = []string{"SaI", "SbI", "SsI", "SiI", "SoI", "SdI"}

// castRejected reports whether a conversion in a has a standard
// substitution with template arguments inside its type's template
// arguments. LLVM reads a conversion's type without taking template
// arguments after a substitution (TryToParseTemplateArgs), so there the
// "I" is one it cannot read: llvm-cxxfilt 14 and 19 and llvm-symbolizer
// print the name mangled ("operator std::__cxx11::basic_string<…>()",
// whose allocator is "SaIcE"). At the type's top level the arguments
// become the operator's, and the name reads.
//
// The walks within walks are bounded in all by maxEdits visits: past that
// (a hostile name) the name is read as the module reads it.
func castRejected(a demangle.AST) bool {
	visits := 0
	within := func(x demangle.AST, is func(demangle.AST) bool) bool {
		found := false
		x.Traverse(func(y demangle.AST) bool {
			if found || visits > maxEdits {
				return false
			}
			visits++
			found = is(y)
			return !found
		})
		return found && visits <= maxEdits
	}
	return within(a, func(x demangle.AST) bool {
		c, ok := x.(*demangle.Cast)
		return ok && within(c.To, func(y demangle.AST) bool {
			t, ok := y.(*demangle.Template)
			return ok && slices.ContainsFunc(t.Args, func(arg demangle.AST) bool {
				return within(arg, isStdSubstTemplate)
			})
		})
	})
}

// isStdSubstTemplate reports whether x is a template named by one of the
// standard substitutions (Sa, Sb, Ss, Si, So, Sd): the parser hands out
// one shared node for each, which stdSubsts holds. (Should a version of
// the module hand out copies, the conversion names of demangle-names.txt
// fail TestDemangleCorpus.)
func isStdSubstTemplate(x demangle.AST) bool {
	t, ok := x.(*demangle.Template)
	return ok && stdSubsts()[t.Name]
}

// stdSubsts returns the parser's nodes for the standard substitutions,
// read from names that hold nothing else on the first call (a conversion
// that may be rejected), not at every start of the program.
var stdSubsts = sync.OnceValue(func() map[demangle.AST]bool {
	m := map[demangle.AST]bool{}
	for _, c := range "absiod" {
		a, err := demangle.ToAST("_Z1fS"+string(c), demangle.LLVMStyle)
		if err != nil {
			continue
		}
		if ty, ok := a.(*demangle.Typed); ok {
			if ft, ok := ty.Type.(*demangle.FunctionType); ok && len(ft.Args) == 1 {
				m[ft.Args[0]] = true
			}
		}
	}
	return m
})
