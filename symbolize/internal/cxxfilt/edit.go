package cxxfilt

import (
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
	markers     = markArgEnd + markNoSpace
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
	marked bool // markers were inserted
	visits int
	stack  []demangle.AST // nodes being copied, to cut cycles
	err    error
}

var (
	emptyName  = &demangle.Name{}
	argEndMark = &demangle.Name{Name: markArgEnd}
)

// edit returns the edited tree.
func (e *editor) edit(a demangle.AST) (demangle.AST, error) {
	r := a.Copy(e.replace, e.skip)
	if e.err != nil {
		return nil, e.err
	}
	if r == nil {
		r = a
	}
	return r, nil
}

// skip is called before a node's children are copied: it cuts cycles
// (a substitution that refers to a node being built) and stops after
// maxEdits nodes.
func (e *editor) skip(a demangle.AST) bool {
	if e.err != nil {
		return true
	}
	for _, s := range e.stack {
		if s == a {
			return true
		}
	}
	e.visits++
	if e.visits > maxEdits {
		e.err = ErrTooLong
		return true
	}
	e.stack = append(e.stack, a)
	return false
}

// replace is called after a node's children were copied; it returns the
// node's replacement or nil.
func (e *editor) replace(a demangle.AST) demangle.AST {
	e.stack = e.stack[:len(e.stack)-1]
	if e.style == LLVM {
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

// markArgs wraps a template's printed arguments in markers. In the GNU
// style an empty element after the last printed one leaves libiberty's
// last character at the ' ' of the ", " it took back, so no space goes
// before the '>'.
func (e *editor) markArgs(t *demangle.Template) demangle.AST {
	args := make([]demangle.AST, len(t.Args))
	copy(args, t.Args)
	last := -1
	for i, x := range args {
		if !isEmpty(x) {
			args[i] = seq(x, argEndMark)
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	if e.style == GNU && last < len(args)-1 {
		args[last] = seq(t.Args[last], markNoSpace)
	}
	e.marked = true
	return &demangle.Template{Name: t.Name, Args: args}
}

// dropEmpty returns a pack without its empty elements, which LLVM and
// libiberty print with no comma (the module prints ", " for each), or nil
// when it has none.
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
		if !isEmpty(x) {
			args = append(args, x)
			last = i
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
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case markArgEnd[0]:
			if i+1 < len(s) && s[i+1] == '>' && i > 0 && s[i-1] == '>' {
				b.WriteByte(' ')
			}
		case markNoSpace[0]:
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// copier runs the module's Copy over a tree for the passes before the
// editor: cycles cut (a substitution can refer to a node being built) and
// the nodes visited bounded, as the unfolding of a graph of substitutions
// can be exponential in the name's length.
type copier struct {
	stack  []demangle.AST
	visits int
	over   bool // more than maxEdits nodes: the result is incomplete
}

// copy returns a with fn applied bottom-up to its nodes (nil: unchanged),
// or nil when nothing changed.
func (c *copier) copy(a demangle.AST, fn func(demangle.AST) demangle.AST) demangle.AST {
	skip := func(x demangle.AST) bool {
		if c.over {
			return true
		}
		for _, s := range c.stack {
			if s == x {
				return true
			}
		}
		c.visits++
		if c.visits > maxEdits {
			c.over = true
			return true
		}
		c.stack = append(c.stack, x)
		return false
	}
	return a.Copy(func(x demangle.AST) demangle.AST {
		c.stack = c.stack[:len(c.stack)-1]
		return fn(x)
	}, skip)
}
