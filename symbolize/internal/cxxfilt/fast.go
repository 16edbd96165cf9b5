package cxxfilt

import (
	"bytes"
	"strings"
	"sync"
)

// fast.go demangles the common shape of an Itanium name without the
// module: nested and unscoped names of identifiers, operators,
// constructors and destructors; template arguments of types, argument
// packs, integer and enumerator literals and member addresses; builtin,
// class, pointer, reference, const, function and array types; pack
// expansions, substitutions and template parameters; the special names of
// vtables, typeinfo and thunks; clone suffixes. In that shape a type
// prints left to right but for the declarators of function and array
// types, whose parts a node keeps apart, so a node is its printed text and
// a substitution or template parameter is a copy of the text it stands
// for, bound where it is read, as LLVM and libiberty bind it.
//
// It exists for speed: the module copies a substituted tree at every use
// inside a template and simplifies the whole tree after parsing, which
// made demangling a third of a C++ binary's symbolizing. Anything outside
// the shape, or any doubt (a substitution that stands for one element of
// a pack expansion, a function returning a function pointer, bytes no
// identifier holds), returns ok=false and the name takes the module's
// path. Where this one answers it must print the reference tools' bytes:
// TestFastCorpus compares both paths with them on the recorded corpus,
// and FuzzFastDemangle holds this path to the module's (or, where the two
// differ, to the tool's).

// fastNode is a parsed name, type or template argument: its printed text
// in fastParser.buf.
type fastNode struct {
	start, end int32
	// base is the node's unqualified name as its class's constructors
	// print it in LLVM's styles ("vector" of "std::vector<int>"); -1 when
	// the node is not a class name.
	baseStart, baseEnd int32
	// elems is an argument pack's elements in fastParser.elems; pack
	// marks the node a pack (its text the elements joined by ", ").
	elemStart, elemLen int32
	pack               bool
	ref                uint8 // refLvalue or refRvalue when the type is a reference
	konst              bool  // a const-qualified type
	param              bool  // a template parameter's argument
	literal            bool  // a template argument that is a value, not a type
	// packPart marks a substitution read while a pack expansion's pattern
	// was: it stands for one element of it, not all.
	packPart bool
	// fn marks a function type, printed "ret (mid)(params)", or
	// "ret (params)" while mid is empty, and arr an array type, "elem
	// (mid) [dim]" or "elem [dim]": the ranges of their parts (par the
	// parameters or the dimension), mid the pointer, reference and const
	// declarators applied to them.
	fn, arr                                    bool
	retEnd, midStart, midEnd, parStart, parEnd int32
}

const (
	refLvalue = 1
	refRvalue = 2
)

// fastMaxText bounds the text a name may build: nested substitutions
// double it with each one in a hostile name. The module's path reports
// what a longer name prints.
const fastMaxText = 1 << 16

// fastMaxTypes bounds the types read: a pack expansion reads its pattern
// once per element, which a hostile name can make quadratic.
const fastMaxTypes = 1 << 16

type fastParser struct {
	s     string
	i     int
	gnu   bool
	llvm  bool
	v19   bool
	buf   []byte
	subs  []fastNode
	targs []fastNode // the encoding name's innermost template arguments
	stack []fastNode // template arguments and parameters being read
	elems []fastNode // argument packs' elements
	// inParams is set once the encoding's name is read: only then may a
	// template parameter be resolved; inner while an encoding inside an
	// expression is read, whose template arguments would be the ones
	// parameters refer to.
	inParams bool
	inner    bool
	// expand is the element of the pack being expanded (Dp), -1 for none;
	// packArg is the template argument of that pack once read, and
	// packLen its length.
	expand  int
	packArg int
	packLen int
	// lastName is libiberty's last source name, which names a constructor
	// in the GNU style.
	lastStart, lastEnd int32
	types              int // types read, against fastMaxTypes
	failed             bool
}

var fastPool = sync.Pool{New: func() any { return new(fastParser) }}

// fastDemangle returns name demangled in style when name has the shape
// above, printing "> >" between template closers in both LLVM styles as
// ToString does.
func fastDemangle(name string, style Style) (string, bool) {
	if len(name) < 3 || name[0] != '_' || name[1] != 'Z' {
		return "", false
	}
	p := fastPool.Get().(*fastParser)
	*p = fastParser{s: name, i: 2, gnu: style == GNU, llvm: style != GNU, v19: style == LLVM19,
		buf: p.buf[:0], subs: p.subs[:0], targs: p.targs[:0], stack: p.stack[:0], elems: p.elems[:0],
		expand: -1, packArg: -1, lastStart: -1}
	var out string
	var ok bool
	if p.peek() == 'T' {
		out, ok = p.special()
	} else {
		out, ok = p.encoding()
	}
	if cap(p.buf) <= 4*fastMaxText {
		fastPool.Put(p)
	}
	return out, ok
}

func (p *fastParser) fail() fastNode {
	p.failed = true
	return fastNode{}
}

func (p *fastParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *fastParser) peek2(c, d byte) bool {
	return p.i+1 < len(p.s) && p.s[p.i] == c && p.s[p.i+1] == d
}

func (p *fastParser) text(n fastNode) []byte { return p.buf[n.start:n.end] }

// maxDigits bounds the numbers read as values (lengths, parameter
// indexes) below atoi's limit; longer ones decline (fastMaxText would).
const maxDigits = 6

// digits reads a run of decimal digits, maybe empty.
func (p *fastParser) digits() string {
	j := p.i
	for p.i < len(p.s) && isDigit(p.s[p.i]) {
		p.i++
	}
	return p.s[j:p.i]
}

// mark returns the start of a node about to be appended.
func (p *fastParser) mark() int32 { return int32(len(p.buf)) }

// node ends a node begun at start.
func (p *fastParser) node(start int32) fastNode {
	if len(p.buf) > fastMaxText {
		p.failed = true
	}
	return fastNode{start: start, end: int32(len(p.buf)), baseStart: -1, baseEnd: -1}
}

// extend returns where n's text starts when it ends the buffer, copying
// it there unless it already does.
func (p *fastParser) extend(n fastNode) int32 {
	if int(n.end) == len(p.buf) {
		return n.start
	}
	start := p.mark()
	p.buf = append(p.buf, p.text(n)...)
	return start
}

func (p *fastParser) appendString(s string) fastNode {
	start := p.mark()
	p.buf = append(p.buf, s...)
	return p.node(start)
}

// special reads the names of a class's vtable, VTT and typeinfo, and of
// thunks.
func (p *fastParser) special() (string, bool) {
	if p.i+1 >= len(p.s) {
		return "", false
	}
	var prefix string
	switch p.s[p.i+1] {
	case 'h', 'v':
		// A thunk: call offsets, then the function's encoding.
		prefix = "non-virtual thunk to "
		offsets := 1
		if p.s[p.i+1] == 'v' {
			prefix, offsets = "virtual thunk to ", 2
		}
		p.i += 2
		for ; offsets > 0; offsets-- {
			if p.peek() == 'n' {
				p.i++
			}
			if p.digits() == "" || p.peek() != '_' {
				return "", false
			}
			p.i++
		}
		out, ok := p.encoding()
		if !ok {
			return "", false
		}
		return prefix + out, true
	case 'V':
		prefix = "vtable for "
	case 'T':
		prefix = "VTT for "
	case 'I':
		prefix = "typeinfo for "
	case 'S':
		prefix = "typeinfo name for "
	default:
		return "", false
	}
	p.i += 2
	t := p.typ()
	if p.failed || p.i != len(p.s) {
		return "", false
	}
	return prefix + string(p.text(t)), true
}

func (p *fastParser) encoding() (string, bool) {
	name, tmpl, cdtor, cv := p.name()
	if p.failed {
		return "", false
	}
	if p.i == len(p.s) {
		if cv || cdtor {
			return "", false
		}
		return string(p.text(name)), true
	}
	if !tmpl {
		// A template parameter refers to the function's own template
		// arguments; without them the tools part ways.
		p.targs = p.targs[:0]
	}
	p.inParams = true
	var ret fastNode
	hasRet := tmpl && !cdtor
	if hasRet {
		if ret = p.typ(); p.failed || ret.fn || ret.arr {
			// A function's declarator wraps the name, in ways the
			// tools part on.
			return "", false
		}
	}
	base := len(p.stack)
	if p.params('.') == 0 || p.failed {
		return "", false
	}
	paramStart := p.mark()
	p.appendList(p.stack[base:])
	params := p.buf[paramStart:]
	suffix, ok := p.cloneSuffix()
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.Grow(int(ret.end-ret.start) + int(name.end-name.start) + len(params) + len(suffix) + 9)
	if hasRet {
		b.Write(p.text(ret))
		b.WriteByte(' ')
	}
	b.Write(p.text(name))
	b.WriteByte('(')
	b.Write(params)
	b.WriteByte(')')
	if cv {
		b.WriteString(" const")
	}
	b.WriteString(suffix)
	p.stack = p.stack[:base]
	if b.Len() > fastMaxText {
		return "", false
	}
	return b.String(), true
}

// params reads parameter types onto the stack up to stop or the name's
// end (a lone "v" is none; an empty pack's expansion an empty entry), and
// returns how many it read, "v" counted.
func (p *fastParser) params(stop byte) int {
	read := 0
	for p.i < len(p.s) && p.s[p.i] != stop && !p.failed {
		isVoid := p.peek() == 'v'
		if p.peek2('D', 'p') {
			if !p.expansion() {
				p.stack = append(p.stack, fastNode{pack: true})
			}
		} else {
			p.stack = append(p.stack, p.typ())
		}
		read++
		if isVoid {
			p.stack = p.stack[:len(p.stack)-1]
			if read > 1 || (p.i < len(p.s) && p.s[p.i] != stop) {
				// void among other parameters is not a C++
				// signature.
				p.fail()
			}
		}
	}
	return read
}

// cloneSuffix reads the rest of a function's name after its parameters:
// LLVM prints it whole as " (.rest)", libiberty each clone as
// " [clone .name.1]" and nothing else after them.
func (p *fastParser) cloneSuffix() (string, bool) {
	rest := p.s[p.i:]
	if rest == "" {
		return "", true
	}
	for k := 0; k < len(rest); k++ {
		// The suffixes compilers write (".cold", ".isra.0",
		// ".llvm.123"); anything else is left to the module's path.
		if c := rest[k]; !isNameByte(c) || c == '$' {
			return "", false
		}
	}
	if p.llvm {
		return " (" + rest + ")", true
	}
	var b strings.Builder
	for rest != "" {
		j := 0
		if len(rest) > 1 && rest[0] == '.' && (isCloneNameByte(rest[1])) {
			j = 2
			for j < len(rest) && isCloneNameByte(rest[j]) {
				j++
			}
		}
		for j+1 < len(rest) && rest[j] == '.' && isDigit(rest[j+1]) {
			j += 2
			for j < len(rest) && isDigit(rest[j]) {
				j++
			}
		}
		if j == 0 {
			return "", false
		}
		b.WriteString(" [clone ")
		b.WriteString(rest[:j])
		b.WriteByte(']')
		rest = rest[j:]
	}
	return b.String(), true
}

// isNameByte reports whether c may be part of a name fast.go reads.
func isNameByte(c byte) bool {
	return isDigit(c) || isUpper(c) || isLower(c) || c == '_' || c == '.' || c == '$'
}

// isCloneNameByte reports whether c may be in a clone's name (".isra").
func isCloneNameByte(c byte) bool {
	return isLower(c) || isDigit(c) || c == '_'
}

// name reads an encoding's name: whether it ends in template arguments,
// names a constructor or destructor, or is a const member function.
func (p *fastParser) name() (n fastNode, tmpl, cdtor, cv bool) {
	switch c := p.peek(); {
	case c == 'N':
		p.i++
		return p.nested(false)
	case c == 'L':
		// Internal linkage, which neither tool prints.
		p.i++
		n = p.identifier()
	case isDigit(c):
		n = p.identifier()
	case isLower(c):
		n = p.operatorName()
	case p.peek2('S', 't'):
		p.i += 2
		n = p.stdName()
	default:
		return p.fail(), false, false, false
	}
	tmpl = p.peek() == 'I'
	n = p.unscoped(n, true)
	return n, tmpl && !p.failed, false, false
}

// unscoped reads the template arguments after an unscoped name, if any:
// the name is then a substitution candidate of its own. tag is
// templateArgs'.
func (p *fastParser) unscoped(n fastNode, tag bool) fastNode {
	if p.failed || p.peek() != 'I' {
		return n
	}
	p.subs = append(p.subs, n)
	return p.templateArgs(n, tag)
}

// stdName reads the identifier or operator after "St": std::<name>.
func (p *fastParser) stdName() fastNode {
	start := p.mark()
	p.buf = append(p.buf, "std::"...)
	if isLower(p.peek()) {
		p.operatorName() // appended after "std::"
		return p.node(start)
	}
	id := p.identifier() // appended after "std::"
	if p.failed {
		return id
	}
	n := p.node(start)
	n.baseStart, n.baseEnd = id.start, id.end
	return n
}

// identifier reads <length><identifier>, the anonymous namespace's name
// printed as both tools print it, and records it as libiberty's last name.
func (p *fastParser) identifier() fastNode {
	ds := p.digits()
	if ds == "" || ds[0] == '0' || len(ds) > maxDigits {
		return p.fail()
	}
	n := atoi(ds)
	if n > len(p.s)-p.i {
		return p.fail()
	}
	id := p.s[p.i : p.i+n]
	p.i += n
	for k := 0; k < len(id); k++ {
		// The bytes of C, C++ and Rust identifiers; others (UTF-8,
		// punctuation a hostile name holds) are left to the module's
		// path.
		if !isNameByte(id[k]) {
			return p.fail()
		}
	}
	var nd fastNode
	if strings.HasPrefix(id, "_GLOBAL_") {
		if !strings.HasPrefix(id, "_GLOBAL__N") {
			return p.fail()
		}
		nd = p.appendString("(anonymous namespace)")
	} else {
		nd = p.appendString(id)
	}
	p.lastStart, p.lastEnd = nd.start, nd.end
	nd.baseStart, nd.baseEnd = nd.start, nd.end
	return nd
}

// operatorNames are the operators both tools print alike, by their code.
var operatorNames = map[string]string{
	"nw": "operator new", "na": "operator new[]", "dl": "operator delete",
	"da": "operator delete[]", "ps": "operator+", "ng": "operator-",
	"ad": "operator&", "de": "operator*", "co": "operator~", "pl": "operator+",
	"mi": "operator-", "ml": "operator*", "dv": "operator/", "rm": "operator%",
	"an": "operator&", "or": "operator|", "eo": "operator^", "aS": "operator=",
	"pL": "operator+=", "mI": "operator-=", "mL": "operator*=", "dV": "operator/=",
	"rM": "operator%=", "aN": "operator&=", "oR": "operator|=", "eO": "operator^=",
	"ls": "operator<<", "rs": "operator>>", "lS": "operator<<=", "rS": "operator>>=",
	"eq": "operator==", "ne": "operator!=", "lt": "operator<", "gt": "operator>",
	"le": "operator<=", "ge": "operator>=", "ss": "operator<=>", "nt": "operator!",
	"aa": "operator&&", "oo": "operator||", "pp": "operator++", "mm": "operator--",
	"cm": "operator,", "pm": "operator->*", "pt": "operator->", "cl": "operator()",
	"ix": "operator[]",
}

// operatorName reads an operator's two-letter code.
func (p *fastParser) operatorName() fastNode {
	if p.i+1 >= len(p.s) {
		return p.fail()
	}
	name, ok := operatorNames[p.s[p.i:p.i+2]]
	if !ok {
		return p.fail()
	}
	p.i += 2
	if p.peek() == 'I' && (name[len(name)-1] == '<' || name[len(name)-1] == '>') {
		// "operator< <int>" in libiberty, "operator<<int>" in LLVM.
		return p.fail()
	}
	return p.appendString(name)
}

// nested reads a nested name after its 'N'. For a type the whole name is
// a substitution candidate, which the caller records; for an encoding's
// name it is not.
func (p *fastParser) nested(isType bool) (n fastNode, tmpl, cdtor, cv bool) {
	if p.peek() == 'r' {
		// restrict, not an operator ("rs"): the qualifiers come first.
		return p.fail(), false, false, false
	}
	if p.peek() == 'K' {
		if isType {
			return p.fail(), false, false, false
		}
		cv = true
		p.i++
	}
	have := false
	lastPushed := false
	for {
		if p.failed {
			return n, false, false, false
		}
		c := p.peek()
		if c == 'E' {
			p.i++
			break
		}
		if cdtor && (c != 'I' || tmpl) {
			return p.fail(), false, false, false
		}
		switch {
		case isDigit(c), isLower(c):
			var id fastNode
			if isDigit(c) {
				id = p.identifier()
			} else {
				id = p.operatorName()
			}
			if p.failed {
				break
			}
			if have {
				n = p.qualify(n, id)
			} else {
				n = id
			}
			if isLower(c) {
				n.baseStart, n.baseEnd = -1, -1
			}
			tmpl = false
		case c == 'S' && !have:
			if p.peek2('S', 't') {
				p.i += 2
				n = p.stdName()
				break
			}
			n = p.substitution()
			have = true
			lastPushed = false
			continue
		case c == 'T' && !have:
			n = p.templateParam()
		case c == 'I' && have && !tmpl:
			n = p.templateArgs(n, !isType)
			tmpl = true
		case (c == 'C' || c == 'D') && have && !cdtor && p.i+1 < len(p.s):
			d := p.s[p.i+1]
			if (c == 'C' && (d < '1' || d > '5')) || (c == 'D' && d != '0' && d != '1' && d != '2' && d != '4' && d != '5') || n.baseStart < 0 {
				return p.fail(), false, false, false
			}
			p.i += 2
			n = p.ctorDtor(n, c == 'D')
			cdtor = true
			tmpl = false
		default:
			return p.fail(), false, false, false
		}
		if p.failed {
			return n, false, false, false
		}
		have = true
		p.subs = append(p.subs, n)
		lastPushed = true
	}
	if !have || !lastPushed {
		// A name of one substitution, or ending in one: LLVM's table
		// then loses an entry the others keep.
		return p.fail(), false, false, false
	}
	p.subs = p.subs[:len(p.subs)-1]
	return n, tmpl, cdtor, cv
}

// qualify appends prefix::id as a new node whose base is id.
func (p *fastParser) qualify(prefix, id fastNode) fastNode {
	start := p.mark()
	p.buf = append(p.buf, p.text(prefix)...)
	p.buf = append(p.buf, "::"...)
	p.buf = append(p.buf, p.text(id)...)
	n := p.node(start)
	n.baseStart, n.baseEnd = n.end-(id.end-id.start), n.end
	return n
}

// ctorDtor appends class::class or class::~class. LLVM names it by the
// class's base name; libiberty by the last source name it read outside
// template arguments.
func (p *fastParser) ctorDtor(class fastNode, dtor bool) fastNode {
	bs, be := class.baseStart, class.baseEnd
	if p.gnu {
		if p.lastStart < 0 {
			return p.fail()
		}
		bs, be = p.lastStart, p.lastEnd
	}
	start := p.mark()
	p.buf = append(p.buf, p.text(class)...)
	p.buf = append(p.buf, "::"...)
	if dtor {
		p.buf = append(p.buf, '~')
	}
	p.buf = append(p.buf, p.buf[bs:be]...)
	return p.node(start)
}

// substitution reads S_, S<seq-id>_, Sa or Sb.
func (p *fastParser) substitution() fastNode {
	p.i++ // 'S'
	c := p.peek()
	switch c {
	case 'a', 'b':
		p.i++
		start := p.mark()
		base := "allocator"
		if c == 'b' {
			base = "basic_string"
		}
		p.buf = append(p.buf, "std::"...)
		p.buf = append(p.buf, base...)
		n := p.node(start)
		n.baseStart = n.end - int32(len(base))
		n.baseEnd = n.end
		p.lastStart, p.lastEnd = n.baseStart, n.baseEnd
		return n
	case '_':
		p.i++
		return p.sub(0)
	}
	idx := 0
	for {
		c := p.peek()
		switch {
		case isDigit(c):
			idx = idx*36 + int(c-'0')
		case isUpper(c):
			idx = idx*36 + int(c-'A') + 10
		case c == '_':
			p.i++
			return p.sub(idx + 1)
		default:
			return p.fail()
		}
		if idx > len(p.subs) {
			return p.fail()
		}
		p.i++
	}
}

func (p *fastParser) sub(idx int) fastNode {
	if idx >= len(p.subs) || p.subs[idx].packPart {
		return p.fail()
	}
	return p.subs[idx]
}

// templateArgs appends n<args> for the arguments after 'I'. tag records
// them as the arguments template parameters refer to.
func (p *fastParser) templateArgs(n fastNode, tag bool) fastNode {
	p.i++ // 'I'
	base := len(p.stack)
	// libiberty's last source name is the template's, not its
	// arguments'.
	lastStart, lastEnd := p.lastStart, p.lastEnd
	for p.peek() != 'E' {
		if p.failed {
			return fastNode{}
		}
		if p.peek2('D', 'p') {
			if !p.expansion() {
				// An empty expansion is printed as an empty pack.
				p.stack = append(p.stack, fastNode{pack: true})
			}
			continue
		}
		p.stack = append(p.stack, p.templateArg())
	}
	p.i++
	if p.failed {
		return fastNode{}
	}
	p.lastStart, p.lastEnd = lastStart, lastEnd
	args := p.stack[base:]
	start := p.mark()
	p.buf = append(p.buf, p.text(n)...)
	p.buf = append(p.buf, '<')
	// libiberty takes back a ", " before empty packs that end the list
	// but not the last byte it remembers having printed, which then is
	// no '>'.
	if !p.appendList(args) && p.buf[len(p.buf)-1] == '>' {
		p.buf = append(p.buf, ' ')
	}
	p.buf = append(p.buf, '>')
	if tag {
		if p.inner {
			return p.fail()
		}
		p.targs = append(p.targs[:0], args...)
	}
	p.stack = p.stack[:base]
	r := p.node(start)
	r.baseStart, r.baseEnd = n.baseStart, n.baseEnd
	return r
}

// appendList appends a list of template arguments or parameters. LLVM
// leaves out the empty packs; libiberty only those that end the list,
// printing the others as nothing between two ", ". It reports whether
// libiberty took a ", " back at the end.
func (p *fastParser) appendList(items []fastNode) (tookBack bool) {
	last := len(items) - 1
	if p.gnu {
		for last >= 0 && isEmptyPack(items[last]) {
			last--
		}
	}
	first := true
	for _, it := range items[:last+1] {
		if p.llvm && isEmptyPack(it) {
			continue
		}
		if !first {
			p.buf = append(p.buf, ", "...)
		}
		first = false
		p.buf = append(p.buf, p.text(it)...)
	}
	return p.gnu && last < len(items)-1 && len(items) > 1
}

func isEmptyPack(n fastNode) bool { return n.pack && n.elemLen == 0 }

// templateArg reads one template argument: a type, a literal or a pack.
func (p *fastParser) templateArg() fastNode {
	switch p.peek() {
	case 'L':
		return p.literal()
	case 'X':
		if strings.HasPrefix(p.s[p.i:], "XadL_Z") {
			return p.address()
		}
		return p.fail()
	case 'J':
		p.i++
		base := len(p.stack)
		for p.peek() != 'E' {
			if p.failed {
				return fastNode{}
			}
			if c := p.peek(); c == 'J' || c == 'L' || p.peek2('D', 'p') {
				return p.fail()
			}
			p.stack = append(p.stack, p.typ())
		}
		p.i++
		if p.failed {
			return fastNode{}
		}
		start := p.mark()
		elemStart := len(p.elems)
		p.appendList(p.stack[base:])
		p.elems = append(p.elems, p.stack[base:]...)
		n := p.node(start)
		n.pack = true
		n.elemStart, n.elemLen = int32(elemStart), int32(len(p.stack)-base)
		p.stack = p.stack[:base]
		return n
	}
	return p.typ()
}

// expansion reads Dp<pattern>, a pack expansion, once per element of the
// pack its pattern names, and pushes each element's text on the stack. It
// reports whether the pack had elements.
func (p *fastParser) expansion() bool {
	p.i += 2
	if p.expand >= 0 {
		p.fail()
		return false
	}
	pattern, subs := p.i, len(p.subs)
	p.packArg, p.packLen = -1, 0
	var last int
	for k := 0; ; k++ {
		p.i = pattern
		p.subs = p.subs[:subs]
		p.expand = k
		t := p.typ()
		if p.failed || p.packArg < 0 {
			p.fail()
			return false
		}
		last = p.i
		if k >= p.packLen {
			// The pack is empty: the pattern was read for its
			// substitutions only.
			break
		}
		p.stack = append(p.stack, t)
		if k+1 == p.packLen {
			break
		}
	}
	p.i = last
	p.expand = -1
	// The pattern's substitutions stand for one element; reading one
	// later is not this shape, nor is the expansion's own.
	for k := subs; k < len(p.subs); k++ {
		p.subs[k].packPart = true
	}
	p.subs = append(p.subs, fastNode{packPart: true})
	return p.packLen > 0
}

// literal reads L<type><value>E for the integer types, bool and
// enumerations.
func (p *fastParser) literal() fastNode {
	p.i++ // 'L'
	if p.i >= len(p.s) {
		return p.fail()
	}
	t := p.s[p.i]
	var suffix, cast string
	var castType fastNode
	switch t {
	case 'i', 'b', 'j', 'l', 'm', 'x', 'y':
		suffix = literalSuffixes[t]
		p.i++
	case 'c', 'a', 'h', 's', 't', 'w':
		cast = builtinNames[t]
		p.i++
	case 'N', 'S', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		castType = p.typ()
		if p.failed || castType.ref != 0 || castType.konst {
			return p.fail()
		}
	default:
		return p.fail()
	}
	neg := p.peek() == 'n'
	if neg {
		p.i++
	}
	digits := p.digits()
	if digits == "" || p.peek() != 'E' || (len(digits) > 1 && digits[0] == '0') {
		return p.fail()
	}
	p.i++
	start := p.mark()
	switch {
	case t == 'b':
		switch {
		case neg || len(digits) != 1 || digits[0] > '1':
			return p.fail()
		case digits == "1":
			p.buf = append(p.buf, "true"...)
		default:
			p.buf = append(p.buf, "false"...)
		}
	case cast != "" || castType.end > castType.start:
		p.buf = append(p.buf, '(')
		if cast != "" {
			p.buf = append(p.buf, cast...)
		} else {
			p.buf = append(p.buf, p.text(castType)...)
		}
		p.buf = append(p.buf, ')')
		fallthrough
	default:
		if neg {
			p.buf = append(p.buf, '-')
		}
		p.buf = append(p.buf, digits...)
		p.buf = append(p.buf, suffix...)
	}
	n := p.node(start)
	n.literal = true
	return n
}

// literalSuffixes are the integer literals' suffixes by type, as both
// tools print them ("8ul").
var literalSuffixes = [...]string{'j': "u", 'l': "l", 'm': "ul", 'x': "ll", 'y': "ull", 'i': "", 'b': ""}

// builtinNames are the builtin types of one letter both tools print
// alike.
var builtinNames = [...]string{
	'v': "void", 'w': "wchar_t", 'b': "bool", 'c': "char", 'a': "signed char",
	'h': "unsigned char", 's': "short", 't': "unsigned short", 'i': "int",
	'j': "unsigned int", 'l': "long", 'm': "unsigned long", 'x': "long long",
	'y': "unsigned long long", 'n': "__int128", 'o': "unsigned __int128",
	'f': "float", 'd': "double", 'e': "long double", 'g': "__float128",
	'z': "...",
}

// typ reads a type. Its text ends the buffer, but for a substitution or
// template parameter, which returns the node it stands for. It is never a
// pack or a literal: those are template arguments (templateArg), and a
// template parameter naming one declines or expands (templateParam).
func (p *fastParser) typ() fastNode {
	if p.types++; p.i >= len(p.s) || p.types > fastMaxTypes {
		return p.fail()
	}
	c := p.s[p.i]
	if int(c) < len(builtinNames) && builtinNames[c] != "" {
		p.i++
		return p.appendString(builtinNames[c])
	}
	var n fastNode
	switch {
	case c == 'D':
		var name string
		if p.i+1 < len(p.s) {
			switch p.s[p.i+1] {
			case 's':
				name = "char16_t"
			case 'i':
				name = "char32_t"
			case 'u':
				name = "char8_t"
			case 'n':
				name = "std::nullptr_t"
				if p.gnu {
					name = "decltype(nullptr)"
				}
			}
		}
		if name == "" {
			return p.fail()
		}
		p.i += 2
		return p.appendString(name)
	case c == 'F':
		n = p.function()
	case c == 'A':
		n = p.array()
	case c == 'P' || c == 'R' || c == 'O' || c == 'K':
		p.i++
		inner := p.typ()
		if p.failed || (c == 'K' && inner.konst && p.gnu) ||
			(inner.ref != 0 && (c == 'P' || c == 'K' || inner.fn || inner.arr)) {
			// libiberty collapses a const type made const again (a
			// template parameter's); the rest is not C++.
			return p.fail()
		}
		if inner.fn || inner.arr {
			n = p.declarator(inner, c)
			break
		}
		if inner.ref != 0 {
			if p.gnu && !inner.param {
				// libiberty collapses a reference to a template
				// parameter's reference, and only that.
				return p.fail()
			}
			n = p.collapse(inner, c)
			break
		}
		start := p.extend(inner)
		p.buf = append(p.buf, qualifierText(c)...)
		n = p.node(start)
		n.qualified(c)
	case c == 'N':
		p.i++
		var cdtor, cv bool
		n, _, cdtor, cv = p.nested(true)
		if cdtor || cv {
			return p.fail()
		}
	case isDigit(c):
		n = p.unscoped(p.identifier(), false)
	case c == 'S':
		if p.peek2('S', 't') {
			p.i += 2
			n = p.unscoped(p.stdName(), false)
			break
		}
		n = p.substitution()
		if p.failed || p.peek() != 'I' {
			return n
		}
		n = p.templateArgs(n, false)
	case c == 'T':
		n = p.templateParam()
		if p.failed || p.peek() == 'I' {
			return p.fail()
		}
	default:
		return p.fail()
	}
	if p.failed {
		return n
	}
	p.subs = append(p.subs, n)
	return n
}

// qualifierText is how P, R, O and K print after a type.
func qualifierText(c byte) string {
	switch c {
	case 'P':
		return "*"
	case 'R':
		return "&"
	case 'O':
		return "&&"
	}
	return " const"
}

// qualified records on n that c was applied to it.
func (n *fastNode) qualified(c byte) {
	switch c {
	case 'R':
		n.ref = refLvalue
	case 'O':
		n.ref = refRvalue
	case 'K':
		n.konst = true
	}
}

// collapse applies a reference to a reference: an lvalue one wins.
func (p *fastParser) collapse(ref fastNode, c byte) fastNode {
	kind := uint8(refRvalue)
	if c == 'R' || ref.ref == refLvalue {
		kind = refLvalue
	}
	start := p.mark()
	text := p.text(ref)
	if ref.ref == refLvalue {
		text = text[:len(text)-1]
	} else {
		text = text[:len(text)-2]
	}
	p.buf = append(p.buf, text...)
	c = 'O'
	if kind == refLvalue {
		c = 'R'
	}
	p.buf = append(p.buf, qualifierText(c)...)
	n := p.node(start)
	n.qualified(c)
	return n
}

// function reads F<return type><parameter types>E.
func (p *fastParser) function() fastNode {
	p.i++ // 'F'
	ret := p.typ()
	if p.failed || ret.fn || ret.arr {
		return p.fail()
	}
	base := len(p.stack)
	if p.params('E') == 0 || p.peek() != 'E' {
		return p.fail()
	}
	p.i++
	parStart := p.mark()
	p.appendList(p.stack[base:])
	params := p.buf[parStart:]
	p.stack = p.stack[:base]
	return p.declNode(p.text(ret), nil, params, false)
}

// declNode appends a function or array type from its parts: "left
// (mid)(par)" or "left (par)" for a function, "left (mid) [par]" or
// "left [par]" for an array. The parts may lie in p.buf.
func (p *fastParser) declNode(left, mid, par []byte, arr bool) fastNode {
	start := p.mark()
	p.buf = append(p.buf, left...)
	retEnd := p.mark()
	midStart, midEnd := retEnd, retEnd
	if len(mid) > 0 {
		p.buf = append(p.buf, " ("...)
		midStart = p.mark()
		p.buf = append(p.buf, mid...)
		midEnd = p.mark()
		p.buf = append(p.buf, ')')
	}
	switch {
	case arr:
		p.buf = append(p.buf, " ["...)
	case len(mid) > 0:
		p.buf = append(p.buf, '(')
	default:
		p.buf = append(p.buf, " ("...)
	}
	parStart := p.mark()
	p.buf = append(p.buf, par...)
	parEnd := p.mark()
	if arr {
		p.buf = append(p.buf, ']')
	} else {
		p.buf = append(p.buf, ')')
	}
	n := p.node(start)
	n.fn, n.arr = !arr, arr
	n.retEnd, n.midStart, n.midEnd, n.parStart, n.parEnd = retEnd, midStart, midEnd, parStart, parEnd
	return n
}

// array reads A<dimension>_<element type>.
func (p *fastParser) array() fastNode {
	p.i++ // 'A'
	dim := p.digits()
	if dim == "" || p.peek() != '_' {
		// An unknown bound or an expression.
		return p.fail()
	}
	p.i++
	elem := p.typ()
	if p.failed || elem.fn || elem.arr || elem.ref != 0 {
		return p.fail()
	}
	return p.declNode(p.text(elem), nil, []byte(dim), true)
}

// constArray makes an array's elements const, as a const array type is
// ("KT_" of "char [6]": "char const [6]"); an element const already is
// left to the module.
func (p *fastParser) constArray(arr fastNode) fastNode {
	start := p.mark()
	p.buf = append(p.buf, p.buf[arr.start:arr.retEnd]...)
	p.buf = append(p.buf, " const"...)
	return p.declNode(p.buf[start:], nil, p.buf[arr.parStart:arr.parEnd], true)
}

// declarator applies a pointer, reference or const to a function or array
// type: "ret (*)(params)", "elem (&) [dim]".
func (p *fastParser) declarator(fn fastNode, c byte) fastNode {
	if c == 'K' && fn.midStart == fn.midEnd {
		if fn.arr && !bytes.HasSuffix(p.buf[fn.start:fn.retEnd], []byte(" const")) {
			return p.constArray(fn)
		}
		return p.fail()
	}
	midStart := p.mark()
	p.buf = append(p.buf, p.buf[fn.midStart:fn.midEnd]...)
	p.buf = append(p.buf, qualifierText(c)...)
	n := p.declNode(p.buf[fn.start:fn.retEnd], p.buf[midStart:], p.buf[fn.parStart:fn.parEnd], fn.arr)
	n.qualified(c)
	return n
}

// address reads XadL_Z<encoding>EE, a function's or member's address as
// a template argument: "&(A::f(int))" in LLVM 14, "&A::f(int)" in 19,
// "&A::f" in libiberty. The encoding may not be a template's.
func (p *fastParser) address() fastNode {
	p.i += 6 // "XadL_Z"
	if p.inner {
		return p.fail()
	}
	p.inner = true
	defer func() { p.inner = false }()
	name, tmpl, cdtor, cv := p.name()
	if p.failed || tmpl || cdtor || cv {
		return p.fail()
	}
	base := len(p.stack)
	read := p.params('E')
	if !strings.HasPrefix(p.s[p.i:], "EE") {
		return p.fail()
	}
	p.i += 2
	paren := p.llvm && !p.v19 // LLVM 14's "&(A::f)"
	start := p.mark()
	p.buf = append(p.buf, '&')
	if paren {
		p.buf = append(p.buf, '(')
	}
	p.buf = append(p.buf, p.text(name)...)
	if read > 0 && !p.gnu {
		p.buf = append(p.buf, '(')
		p.appendList(p.stack[base:])
		p.buf = append(p.buf, ')')
	}
	if paren {
		p.buf = append(p.buf, ')')
	}
	p.stack = p.stack[:base]
	n := p.node(start)
	n.literal = true
	return n
}

// templateParam reads T_ or T<n>_ and returns the argument it names: in a
// pack expansion's pattern, the element being expanded of a pack.
func (p *fastParser) templateParam() fastNode {
	if !p.inParams || p.inner {
		return p.fail()
	}
	p.i++ // 'T'
	idx := 0
	if p.peek() != '_' {
		ds := p.digits()
		if ds == "" || len(ds) > maxDigits {
			return p.fail()
		}
		idx = atoi(ds) + 1
	}
	if p.peek() != '_' || idx >= len(p.targs) {
		return p.fail()
	}
	p.i++
	a := p.targs[idx]
	if a.literal {
		return p.fail()
	}
	if a.pack {
		if p.expand < 0 || (p.packArg >= 0 && p.packArg != idx) {
			return p.fail()
		}
		p.packArg, p.packLen = idx, int(a.elemLen)
		if p.expand >= int(a.elemLen) {
			// An empty pack's pattern is read for its length
			// only; its text is never printed.
			return p.node(p.mark())
		}
		a = p.elems[int(a.elemStart)+p.expand]
		if a.literal || a.pack {
			return p.fail()
		}
	}
	a.baseStart, a.baseEnd = -1, -1
	a.param = true
	return a
}
