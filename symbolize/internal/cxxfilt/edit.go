package cxxfilt

import (
	"slices"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// The module's printer decides some spacing from the last byte it wrote
// (a space before a template's closing '>' after another '>', one after
// "operator<" before its template arguments). The editor wraps nodes so
// that a marker byte is that last byte, which turns the module's own
// decision off, and unmark then writes what the reference tool writes.
const (
	// markArgEnd ends a printed template argument: unmark writes a space
	// when the argument ended in '>' and the template's '>' follows.
	markArgEnd = "\x01"
	// markNoSpace ends a printed template argument after which libiberty
	// writes no space before the template's '>' (an empty pack element
	// followed it), or an "operator<" name in LLVM style.
	markNoSpace = "\x02"
)

// maxEdits bounds the nodes the editor visits: substitutions make the tree
// a graph whose unfolding can be exponential in the name's length, and the
// editor unfolds it as the printer does.
const maxEdits = 1 << 20

// editor rewrites a parsed name for the module's printer (see the package
// comment). It visits the tree with the nodes' own Copy methods, so every
// node type is walked, and replaces nodes bottom-up.
type editor struct {
	style  Style
	print  []demangle.Option // the printer's options, for spacedFuncArgs
	spaced int               // arguments spacedFuncArgs printed alone
	// unnamed: the nested name each unnamed type of the tree has where it
	// is defined (markInPlace finds them).
	unnamed map[*demangle.UnnamedType]*demangle.Qualified
	marked  bool   // markers were inserted
	guard   copier // cuts cycles and bounds the nodes visited

	templatesMarked bool // markInPlace marked every template already
	// spaceClosers: the tree needs no edit and every '>' it prints
	// closes a template, so the printed text gets LLVM 14's "> >" by
	// putting a space into each ">>" (spaceClosers) instead of markers.
	spaceClosers bool
	// printGNU: moreover the module prints the tree the same in its
	// GNU style but for that "> >", which it writes itself there
	// (gnuSame): the tree is printed in that style.
	printGNU bool
}

var (
	emptyName  = &demangle.Name{}
	argEndMark = &demangle.Name{Name: markArgEnd}
)

// edit returns the edited tree.
func (e *editor) edit(a demangle.AST) (demangle.AST, error) {
	if e.style.llvm() {
		done, marked := e.markInPlace(a)
		if done {
			return a, nil
		}
		// With the templates marked, the copy below only copies
		// the nodes above an expression or other edit.
		e.templatesMarked = marked
	}
	r := a.Copy(e.replace, e.guard.enter)
	if e.guard.over {
		return nil, ErrTooLong
	}
	if r == nil {
		r = a
	}
	return r, nil
}

// markInPlace puts LLVM 14's template markers into a itself, the parser's
// fresh tree and ours alone, and reports whether they are all the edits it
// needs (done) and whether it put them in (marked). Most names need no
// other edit, and copying the whole tree to change its templates cost as
// much as printing it (a fifth of demangling cpp-heavy's names); for the
// others, the copying editor then leaves the templates alone. A tree with
// a shared template (below), or that unfolds to more than maxEdits nodes
// (a cycle, a hostile name), is left to the copying editor whole.
//
// The markers are the copying editor's: its Copy gives each occurrence of a
// shared template its own marked copy, the same bytes as one template
// marked once. Its other edits keep what decides a marker: whether an
// argument prints nothing (isEmpty), whether a name ends in '<', and the
// forms mayEndInAngle says no for.
func (e *editor) markInPlace(a demangle.AST) (done, marked bool) {
	// One allocation for the walk and its findings: most names pass
	// here.
	m := &markVisit{plain: true, gnuSame: true}
	w := &m.onceWalk
	w.init(m)
	ok := w.walk(a)
	e.unnamed = m.unnamed
	if !ok || m.refused {
		return false, false
	}
	other := m.other
	if !other && m.plain {
		// Nothing to put in: the printed text is fixed up instead
		// (most names; no marker nodes to allocate and print).
		if m.gnuSame {
			e.printGNU = true
		} else {
			e.spaceClosers = true
		}
		return true, false
	}
	for _, t := range w.templates {
		if endsInLess(t.Name) {
			t.Name = seq(t.Name, markNoSpace)
			e.marked = true
		}
		last := len(t.Args) - 1
		for last >= 0 && isEmpty(t.Args[last]) {
			last--
		}
		// The marker only matters after an argument that prints a
		// '>' last; one that cannot keeps its bytes without it (and
		// the printer has two nodes less to print).
		if last >= 0 && mayEndInAngle(t.Args[last]) {
			// The parser gave each template its own argument slice.
			// (seq's node in one allocation: most names pass here.)
			t.Args[last] = &demangle.Special2{Val1: t.Args[last], Val2: argEndMark}
			e.marked = true
		}
	}
	return !other, true
}

// markVisit is markInPlace's walk: it refuses a shared template and notes
// any other edit the name needs.
type markVisit struct {
	onceWalk
	refused, other bool
	plain          bool // every node is one plainNode allows
	gnuSame        bool // and one gnuSame allows
	// unnamed: the nested names of the tree's unnamed types (see
	// editor.qualifiedUnnamed).
	unnamed map[*demangle.UnnamedType]*demangle.Qualified
}

func (m *markVisit) visit(x demangle.AST) bool {
	if m.refused {
		return false
	}
	// The commonest nodes first, with what the general case below
	// would find for them: plain, printed alike in both styles, no
	// edit needed.
	switch n := x.(type) {
	case *demangle.Name:
		if m.plain && !noAngle(n.Name) {
			m.plain, m.gnuSame = false, false
		}
		return true
	case *demangle.Typed, *demangle.PointerType:
		return true
	case *demangle.ReferenceType, *demangle.RvalueReferenceType:
		m.other = m.other || packRefCollapsed(x) != nil
		return true
	}
	if m.plain {
		m.plain = plainNode(x)
		m.gnuSame = m.gnuSame && m.plain && gnuSame(x)
	}
	switch n := x.(type) {
	case *demangle.Template:
		m.refused = sharedTemplate(n)
		m.other = m.other || slices.ContainsFunc(n.Args, returnsFuncPointer)
	case *demangle.ArgumentPack:
		for _, y := range n.Args {
			if isEmpty(y) {
				m.other = true
			}
		}
	case *demangle.PackExpansion:
		m.other = m.other || n.Pack == nil
	case *demangle.ExprList:
		m.other = m.other || soleEmpty(n) || hasNestedList(n)
	case *demangle.Qualified:
		m.other = m.other || llvm14CDtor(n, LLVM) != nil
		if u, ok := n.Name.(*demangle.UnnamedType); ok {
			if m.unnamed == nil {
				m.unnamed = map[*demangle.UnnamedType]*demangle.Qualified{}
			}
			if _, seen := m.unnamed[u]; !seen {
				m.unnamed[u] = n
			}
			m.other = true
		}
	case *demangle.Unary, *demangle.Binary, *demangle.Trinary,
		*demangle.ComplexType, *demangle.ImaginaryType:
		m.other = true
	}
	return !m.refused
}

// plainNode reports whether the module prints x (in the LLVM style) with
// no '<' or '>' of its own but a template's, and nothing that is not
// reached by Traverse: then, in a tree of such nodes, every ">>" printed is
// a template's closer after a '>' that ends its last argument, where LLVM
// 14 writes "> >". The node types are those of ordinary names; anything
// else (operators that print '<' or '>', expressions, template
// parameters printed through their template, lambdas with template
// parameters, exception specifications, ...) keeps the markers. Nor may
// a node print differently without a marker after it: the LLVM style
// puts a list element of the comma's precedence (an ExprList, the comma
// operator) in parentheses, which a marked last argument hides from it.
func plainNode(x demangle.AST) bool {
	switch n := x.(type) {
	case *demangle.Template, *demangle.Qualified, *demangle.Typed,
		*demangle.FunctionType, *demangle.PointerType, *demangle.ReferenceType,
		*demangle.RvalueReferenceType, *demangle.Qualifiers,
		*demangle.Constructor, *demangle.Destructor, *demangle.TaggedName,
		*demangle.UnnamedType, *demangle.PtrMem, *demangle.ArrayType:
		return true
	case *demangle.TypeWithQualifiers:
		return plainQualifiers(n.Qualifiers)
	case *demangle.MethodWithQualifiers:
		return plainQualifiers(n.Qualifiers)
	case *demangle.Name:
		return noAngle(n.Name)
	case *demangle.BuiltinType:
		return noAngle(n.Name)
	case *demangle.Operator:
		// Not "operator<", after which the module writes a space
		// before a template's '<'; not the comma, which the LLVM
		// style puts in parentheses as a list element.
		return noAngle(n.Name) && n.Name != ","
	case *demangle.Qualifier:
		return len(n.Exprs) == 0 && noAngle(n.Name)
	case *demangle.Literal:
		return noAngle(n.Val)
	case *demangle.Special:
		return noAngle(n.Prefix)
	case *demangle.Closure:
		return len(n.TemplateArgs) == 0 && n.TemplateArgsConstraint == nil && n.CallConstraint == nil
	case *demangle.ArgumentPack:
		return true
	case *demangle.PackExpansion:
		return n.Pack != nil
	}
	return false
}

// gnuSame reports whether the module prints x, a node plainNode allows,
// the same with and without its LLVMStyle option. Without it the module
// writes a space between two template closers itself, LLVM 14's "> >":
// a plain tree of such nodes then needs no fixing up. The LLVM style
// spells lambdas, unnamed types, decltype(nullptr) and the TLS wrapper
// and init functions its own way, and keeps a local name's return type.
// (It also puts list elements of the comma's precedence in parentheses,
// which plainNode excludes.)
func gnuSame(x demangle.AST) bool {
	switch n := x.(type) {
	case *demangle.Closure, *demangle.UnnamedType:
		return false
	case *demangle.BuiltinType:
		return n.Name != "decltype(nullptr)"
	case *demangle.FunctionType:
		return !n.ForLocalName
	case *demangle.Special:
		return !strings.HasPrefix(n.Prefix, "TLS ")
	}
	return true
}

// plainQualifiers reports whether the qualifiers of a qualified type or
// method, which Traverse does not reach, are plain words: no "throw(...)"
// or "noexcept(...)" with types or expressions in it.
func plainQualifiers(a demangle.AST) bool {
	if a == nil {
		return true
	}
	qs, ok := a.(*demangle.Qualifiers)
	if !ok {
		return false
	}
	for _, x := range qs.Qualifiers {
		q, ok := x.(*demangle.Qualifier)
		if !ok || len(q.Exprs) != 0 || !noAngle(q.Name) {
			return false
		}
	}
	return true
}

// noAngle reports whether s has no '<' or '>'. (Names are short: one
// loop costs less than two byte searches.)
func noAngle(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '<' || c == '>' {
			return false
		}
	}
	return true
}

// spaceClosers writes LLVM 14's space between two '>' in s, the printing
// of a tree markInPlace found plain.
func spaceClosers(s string) string {
	i := strings.Index(s, ">>")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := 0
	for i >= 0 {
		i += last
		b.WriteString(s[last : i+1])
		b.WriteByte(' ')
		last = i + 1
		i = strings.Index(s[last:], ">>")
	}
	b.WriteString(s[last:])
	return b.String()
}

// visitor is called by onceWalk for each node; false: not below it.
type visitor interface {
	visit(demangle.AST) bool
}

// visitFunc is a function as a visitor.
type visitFunc func(demangle.AST) bool

func (f visitFunc) visit(x demangle.AST) bool { return f(x) }

// onceWalk walks a tree as Traverse does, calling visit for each node
// (false: not below it), but a template reached again (through a
// substitution) is not walked again: what is below it was seen the first
// time. It still counts the nodes an unfolding walk would visit, so that a
// tree that unfolds past maxEdits is refused as by the passes that copy
// it (markInPlace's tree then goes to the copying editor, which refuses
// it, as before). The node types of ordinary names are walked by hand, in
// the order and through the fields of their Traverse (which costs two
// indirect calls a node); the others through their Traverse.
type onceWalk struct {
	v         visitor
	ok        bool
	visits    int
	templates []*demangle.Template // each once, in walk order
	sizes     []int32              // nodes under each template, itself included; -1 while walked (at most maxEdits)
	index     map[*demangle.Template]int

	// The first templates, without growing slices (most names have
	// fewer; a larger object costs more garbage than growing).
	tbuf [8]*demangle.Template
	sbuf [8]int32
}

func newOnceWalk(v visitor) *onceWalk {
	w := &onceWalk{}
	w.init(v)
	return w
}

func (w *onceWalk) init(v visitor) {
	w.v, w.ok = v, true
	w.templates, w.sizes = w.tbuf[:0], w.sbuf[:0]
}

// walk walks a and reports whether it unfolds to at most maxEdits nodes
// and has no cycle.
func (w *onceWalk) walk(a demangle.AST) bool {
	w.node(a)
	return w.ok
}

// node is Traverse's call of its function on x, and Traverse of x's
// children when that says so.
func (w *onceWalk) node(x demangle.AST) {
	if !w.ok {
		return
	}
	if w.visits++; w.visits > maxEdits {
		w.ok = false
		return
	}
	t, ok := x.(*demangle.Template)
	if !ok {
		if w.v.visit(x) {
			w.children(x)
		}
		return
	}
	if i := w.find(t); i >= 0 {
		if w.sizes[i] < 0 {
			// A cycle: an unfolding walk would not end.
			w.ok = false
			return
		}
		if w.visits += int(w.sizes[i]) - 1; w.visits > maxEdits {
			w.ok = false
		}
		return
	}
	i := len(w.templates)
	w.templates = append(w.templates, t)
	w.sizes = append(w.sizes, -1)
	if w.index != nil {
		w.index[t] = i
	} else if len(w.templates) > 16 {
		w.index = make(map[*demangle.Template]int, 2*len(w.templates))
		for j, u := range w.templates {
			w.index[u] = j
		}
	}
	start := w.visits
	if w.v.visit(t) {
		w.node(t.Name)
		for _, y := range t.Args {
			w.node(y)
		}
	}
	w.sizes[i] = int32(min(w.visits-start+1, maxEdits+1))
}

// children walks what x's Traverse walks below x (not a Template).
func (w *onceWalk) children(x demangle.AST) {
	switch n := x.(type) {
	case *demangle.Name, *demangle.BuiltinType:
	case *demangle.Qualified:
		w.node(n.Scope)
		w.node(n.Name)
	case *demangle.Typed:
		w.node(n.Name)
		w.node(n.Type)
	case *demangle.FunctionType:
		if n.Return != nil {
			w.node(n.Return)
		}
		for _, y := range n.Args {
			w.node(y)
		}
	case *demangle.PointerType:
		w.node(n.Base)
	case *demangle.ReferenceType:
		w.node(n.Base)
	case *demangle.RvalueReferenceType:
		w.node(n.Base)
	case *demangle.TypeWithQualifiers:
		w.node(n.Base)
	case *demangle.MethodWithQualifiers:
		w.node(n.Method)
	case *demangle.ArgumentPack:
		for _, y := range n.Args {
			w.node(y)
		}
	case *demangle.Literal:
		w.node(n.Type)
	default:
		// Traverse calls its function on x first, then walks each
		// child with it.
		first := true
		x.Traverse(func(y demangle.AST) bool {
			if first {
				first = false
				return true
			}
			w.node(y)
			return false
		})
	}
}

// find returns t's index in w.templates, or -1.
func (w *onceWalk) find(t *demangle.Template) int {
	if w.index != nil {
		if i, ok := w.index[t]; ok {
			return i
		}
		return -1
	}
	for i, x := range w.templates {
		if x == t {
			return i
		}
	}
	return -1
}

// mayEndInAngle reports whether the module may print a ending in '>'. It
// says no only for the forms whose last byte is known: a name or builtin
// type not ending in '>', and a pointer, reference or qualified type over a
// base that prints no inner types (a Template keeps its inner types from
// its contents), which ends in '*', '&' or its qualifier.
func mayEndInAngle(a demangle.AST) bool {
	switch n := a.(type) {
	case *demangle.Name:
		return strings.HasSuffix(n.Name, ">")
	case *demangle.BuiltinType:
		return strings.HasSuffix(n.Name, ">")
	case *demangle.PointerType:
		return !plainBase(n.Base)
	case *demangle.ReferenceType:
		return !plainBase(n.Base)
	case *demangle.RvalueReferenceType:
		return !plainBase(n.Base)
	case *demangle.TypeWithQualifiers:
		return !plainBase(n.Base)
	}
	return true
}

// plainBase reports whether a prints as a name alone, with nothing that
// takes the inner types of a pointer, reference or qualifier over it.
func plainBase(a demangle.AST) bool {
	for {
		switch n := a.(type) {
		case *demangle.Name, *demangle.BuiltinType, *demangle.Template:
			return true
		case *demangle.Qualified:
			switch n.Name.(type) {
			case *demangle.Name, *demangle.Template:
			default:
				return false
			}
			a = n.Scope
			continue
		}
		return false
	}
}

// sharedTemplate reports whether t may be one of the parser's
// package-level nodes: the long form of a standard substitution
// ("std::basic_string<char, std::char_traits<char>, std::allocator<char> >"
// for "Ss" before a constructor), one tree for all names, which must not
// be edited in place. Its templates are the only ones named by a std::
// qualified name of its own (a parsed "NSt...E" scope is a Qualified
// inside a Qualified); the nested ones are only reached through them.
func sharedTemplate(t *demangle.Template) bool {
	q, ok := t.Name.(*demangle.Qualified)
	if !ok {
		return false
	}
	if s, ok := q.Scope.(*demangle.Name); !ok || s.Name != "std" {
		return false
	}
	n, ok := q.Name.(*demangle.Name)
	if !ok {
		return false
	}
	switch n.Name {
	case "basic_string", "basic_istream", "basic_ostream", "basic_iostream":
		return true
	}
	return false
}

// replace is called after a node's children were copied; it returns the
// node's replacement or nil.
func (e *editor) replace(a demangle.AST) demangle.AST {
	e.guard.leave()
	if soleEmpty(a) {
		return emptyExprs
	}
	if e.style.llvm() {
		return e.llvm14(a)
	}
	return e.gnu(a)
}

// seq builds a node that prints its parts in order: strings as they are,
// nodes as the printer prints them.
func seq(parts ...any) demangle.AST {
	var out demangle.AST = emptyName
	for i := len(parts) - 1; i >= 0; i-- {
		switch p := parts[i].(type) {
		case string:
			if s2, ok := out.(*demangle.Special2); ok && s2.Prefix == "" {
				s2.Prefix = p
			} else {
				out = &demangle.Special2{Prefix: p, Val1: emptyName, Val2: out}
			}
		case demangle.AST:
			out = &demangle.Special2{Val1: p, Val2: out}
		}
	}
	return out
}

// emptyExprs is an expansion of an empty pack, which the printer skips.
var emptyExprs = &demangle.ExprList{}

// soleEmpty reports whether a is the expansion of a pack whose one element
// prints nothing (a pack holding an empty pack, which only a hand-made name
// has): both tools print nothing for it, so no comma either, the module
// an element.
func soleEmpty(a demangle.AST) bool {
	l, ok := a.(*demangle.ExprList)
	return ok && len(l.Exprs) == 1 && isEmpty(l.Exprs[0])
}

// isEmpty reports whether the printer prints nothing for a (as the
// module's printState.isEmpty: an empty pack expansion).
func isEmpty(a demangle.AST) bool {
	switch a := a.(type) {
	case *demangle.ArgumentPack:
		for _, x := range a.Args {
			if !isEmpty(x) {
				return false
			}
		}
		return true
	case *demangle.ExprList:
		return len(a.Exprs) == 0
	case *demangle.PackExpansion:
		return a.Pack != nil && isEmpty(a.Base)
	}
	return false
}

// markArgs marks the end of a template's last printed argument. In the GNU
// style an empty element after the last printed one leaves libiberty's
// last character at the ' ' of the ", " it took back, so no space goes
// before the '>'.
func (e *editor) markArgs(t *demangle.Template) demangle.AST {
	last := len(t.Args) - 1
	for last >= 0 && isEmpty(t.Args[last]) {
		last--
	}
	if last < 0 {
		return nil
	}
	args := make([]demangle.AST, len(t.Args))
	copy(args, t.Args)
	// Only the last printed argument's end can meet the template's '>'.
	if e.style == GNU && last < len(args)-1 {
		args[last] = seq(t.Args[last], markNoSpace)
	} else {
		args[last] = seq(t.Args[last], argEndMark)
	}
	e.marked = true
	return &demangle.Template{Name: t.Name, Args: args}
}

// dropEmpty returns a pack without its empty elements, which LLVM
// prints with no comma (the module prints ", " for each), or nil when it
// has none. libiberty prints the commas of those before the last printed
// element (gnuInnerEmpties) and drops the ones after it.
func (e *editor) dropEmpty(p *demangle.ArgumentPack) demangle.AST {
	n := 0
	for _, x := range p.Args {
		if !isEmpty(x) {
			n++
		}
	}
	if n == len(p.Args) || n == 0 {
		return nil
	}
	args := make([]demangle.AST, 0, n)
	last := -1
	for i, x := range p.Args {
		switch {
		case !isEmpty(x):
			args = append(args, x)
			last = i
		case e.style == GNU && i < len(p.Args)-1:
			// Kept as a node that prints nothing; cut below
			// when no printed element follows.
			args = append(args, emptyName)
		}
	}
	if e.style == GNU {
		// Drop the kept empties after the last printed element.
		for len(args) > 0 && args[len(args)-1] == emptyName {
			args = args[:len(args)-1]
		}
	}
	if e.style == GNU && last < len(p.Args)-1 && len(args) > 0 {
		args[len(args)-1] = seq(args[len(args)-1], markNoSpace)
		e.marked = true
	}
	return &demangle.ArgumentPack{Args: args}
}

// unmark replaces the markers of a printed name.
func unmark(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	// The text between markers is copied in one piece. markNoSpace is
	// rare: its next place is looked up once per occurrence, and each
	// marker found with one byte search, which costs less than
	// IndexAny's byte-by-byte set test.
	noSpace := strings.IndexByte(s, markNoSpace[0])
	last := 0
	for p := 0; ; {
		i := strings.IndexByte(s[p:], markArgEnd[0])
		if i >= 0 {
			i += p
		}
		if noSpace >= 0 && (i < 0 || noSpace < i) {
			i = noSpace
			if j := strings.IndexByte(s[i+1:], markNoSpace[0]); j >= 0 {
				noSpace = i + 1 + j
			} else {
				noSpace = -1
			}
		}
		if i < 0 {
			b.WriteString(s[last:])
			return b.String()
		}
		b.WriteString(s[last:i])
		if s[i] == markArgEnd[0] && i+1 < len(s) && s[i+1] == '>' && i > 0 && s[i-1] == '>' {
			b.WriteByte(' ')
		}
		last, p = i+1, i+1
	}
}

// copier runs the module's Copy over a tree for the passes before the
// editor, and guards the editor's own: cycles cut (a substitution can
// refer to a node being built) and the nodes visited bounded, as the
// unfolding of a graph of substitutions can be exponential in the name's
// length.
type copier struct {
	stack  []demangle.AST // nodes being copied
	visits int
	over   bool // more than maxEdits nodes: the result is incomplete
}

// enter is Copy's skip: called before a node's children are copied, it
// reports whether to leave the node as it is (a cycle, or over the bound).
func (c *copier) enter(a demangle.AST) bool {
	if c.over {
		return true
	}
	switch a.(type) {
	case *demangle.Name, *demangle.BuiltinType:
		// A leaf is never its own ancestor: no need to look (the
		// look compares interfaces, a call each).
	default:
		for _, s := range c.stack {
			if s == a {
				return true
			}
		}
	}
	c.visits++
	if c.visits > maxEdits {
		c.over = true
		return true
	}
	c.stack = append(c.stack, a)
	return false
}

// leave is called after a node entered was copied.
func (c *copier) leave() { c.stack = c.stack[:len(c.stack)-1] }

// copy returns a with fn applied bottom-up to its nodes (nil: unchanged),
// or nil when nothing changed.
func (c *copier) copy(a demangle.AST, fn func(demangle.AST) demangle.AST) demangle.AST {
	return a.Copy(func(x demangle.AST) demangle.AST {
		c.leave()
		return fn(x)
	}, c.enter)
}
