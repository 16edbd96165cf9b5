package markup

import (
	"strings"

	"github.com/sanitrace/sanitrace/internal/llvmnum"
)

// Kind is what an element is, by its tag.
type Kind uint8

const (
	KindUnknown Kind = iota // a tag the format does not define
	// Contextual elements: they declare the process's address space.
	KindReset  // {{{reset}}}
	KindModule // {{{module:ID:NAME:elf:BUILDID}}}
	KindMMap   // {{{mmap:ADDR:SIZE:load:MODID:PERMS:VADDR}}}
	// Presentation elements: a filter replaces them with text.
	KindSymbol  // {{{symbol:MANGLED}}}
	KindPC      // {{{pc:ADDR[:ra|:pc]}}}
	KindData    // {{{data:ADDR}}}
	KindBT      // {{{bt:N:ADDR[:ra|:pc]}}}
	KindHexdict // {{{hexdict:…}}}
	// Trigger elements.
	KindDumpfile // {{{dumpfile:TYPE:NAME}}}
)

var kindByTag = map[string]Kind{
	"reset": KindReset, "module": KindModule, "mmap": KindMMap,
	"symbol": KindSymbol, "pc": KindPC, "data": KindData, "bt": KindBT,
	"hexdict": KindHexdict, "dumpfile": KindDumpfile,
}

// KindOf returns the kind of an element with tag.
func KindOf(tag string) Kind { return kindByTag[tag] }

// Contextual reports whether k declares context rather than presenting
// something.
func (k Kind) Contextual() bool { return k == KindReset || k == KindModule || k == KindMMap }

// PCType is what a code address in a pc or bt element is.
type PCType uint8

const (
	// PCDefault: no suffix. A bt address is then taken as a return
	// address, a pc address as a precise one (llvm-symbolizer's rule).
	PCDefault PCType = iota
	PCReturn         // ":ra": a return address; the call is one byte before
	PCPrecise        // ":pc": the address of the instruction itself
)

// Element is a decoded element: the fields its kind defines, typed.
type Element struct {
	Kind Kind
	Node Node // the element as written; its Fields are the Parser's until the next line
	Line int  // the line it is on, from 1

	ModuleID uint64 // module, mmap: the module's ID
	Name     string // module: the name (only informative); symbol: the mangled name
	BuildID  []byte // module

	Addr   uint64 // mmap: the start; bt, pc, data: the address as written
	Size   uint64 // mmap
	Perms  string // mmap: "r", "rw", "rx", …, lower-cased
	VAddr  uint64 // mmap: the module-relative address of Addr (the segment's p_vaddr)
	Frame  uint64 // bt: the frame number
	PCType PCType // bt, pc

	// Warn is a warning that did not stop the decoding (more fields than
	// the kind has), reported before any error.
	Warn *Error
	// vaddrErr: mmap's VADDR field is bad. llvm checks the module ID
	// first, so Context.Map reports it after that check.
	vaddrErr *Error
}

// CodeAddr is a bt or pc element's address as a filter looks it up: a
// return address is moved back one byte into the call instruction (bt
// addresses without a suffix are return addresses, pc ones are not).
func (e *Element) CodeAddr() uint64 {
	if e.PCType == PCReturn || (e.PCType == PCDefault && e.Kind == KindBT) {
		return e.Addr - 1
	}
	return e.Addr
}

// Decode decodes the element node n of line line, checking its fields in
// llvm-symbolizer's order: the first problem that stops it is the error;
// a warning before it is in the returned Element's Warn. Elements with no
// defined fields (hexdict, dumpfile, unknown tags) decode to their Kind
// alone.
func Decode(n *Node, line int) (Element, error) {
	e := Element{Kind: KindOf(n.Tag), Node: *n, Line: line}
	var err *Error
	switch e.Kind {
	case KindReset:
		e.Warn, err = checkFields(n, line, 0)
	case KindModule:
		err = e.decodeModule(n, line)
	case KindMMap:
		err = e.decodeMMap(n, line)
	case KindSymbol:
		if e.Warn, err = checkFields(n, line, 1); err == nil {
			e.Name = n.Fields[0]
		}
	case KindPC:
		err = e.decodeCode(n, line, 0)
	case KindBT:
		err = e.decodeCode(n, line, 1)
	case KindData:
		if e.Warn, err = checkFields(n, line, 1); err == nil {
			e.Addr, err = parseAddr(n, line, 0)
		}
	}
	if err != nil {
		return e, err
	}
	return e, nil
}

func (e *Element) decodeModule(n *Node, line int) (err *Error) {
	if err = checkFieldsAtLeast(n, line, 3); err != nil {
		return err
	}
	if e.ModuleID, err = parseInt(n, line, 0, "module ID"); err != nil {
		return err
	}
	e.Name = n.Fields[1]
	if n.Fields[2] != "elf" {
		return newError(ErrModuleType, line, n.FieldPos(2), "unknown module type")
	}
	if e.Warn, err = checkFields(n, line, 4); err != nil {
		return err
	}
	e.BuildID, err = parseBuildID(n, line, 3)
	return err
}

func (e *Element) decodeMMap(n *Node, line int) (err *Error) {
	if err = checkFieldsAtLeast(n, line, 3); err != nil {
		return err
	}
	if e.Addr, err = parseAddr(n, line, 0); err != nil {
		return err
	}
	if e.Size, err = parseInt(n, line, 1, "size"); err != nil {
		return err
	}
	if n.Fields[2] != "load" {
		return newError(ErrMMapType, line, n.FieldPos(2), "unknown mmap type")
	}
	if e.Warn, err = checkFields(n, line, 6); err != nil {
		return err
	}
	if e.ModuleID, err = parseInt(n, line, 3, "module ID"); err != nil {
		return err
	}
	if e.Perms, err = parseMode(n, line, 4); err != nil {
		return err
	}
	e.VAddr, e.vaddrErr = parseAddr(n, line, 5)
	return nil
}

// decodeCode decodes pc (at = 0) and bt (at = 1: the frame number first).
func (e *Element) decodeCode(n *Node, line, at int) (err *Error) {
	if err = checkFieldsAtLeast(n, line, at+1); err != nil {
		return err
	}
	e.Warn = warnFieldsAtMost(n, line, at+2)
	if at == 1 {
		f, ok := llvmnum.ParseUint(n.Fields[0], 10)
		if !ok {
			return fieldError(n, line, 0, "frame number")
		}
		e.Frame = f
	}
	if e.Addr, err = parseAddr(n, line, at); err != nil {
		return err
	}
	if len(n.Fields) > at+1 {
		switch n.Fields[at+1] {
		case "ra":
			e.PCType = PCReturn
		case "pc":
			e.PCType = PCPrecise
		default:
			return fieldError(n, line, at+1, "PC type")
		}
	}
	return nil
}

// parseAddr reads field i as an address (%p): 0x and hex digits, or zeros
// alone.
func parseAddr(n *Node, line, i int) (uint64, *Error) {
	s := n.Fields[i]
	if s != "" && strings.Trim(s, "0") == "" {
		return 0, nil
	}
	if rest, ok := strings.CutPrefix(s, "0x"); ok {
		if v, ok := llvmnum.ParseUint(rest, 16); ok {
			return v, nil
		}
	}
	return 0, fieldError(n, line, i, "address")
}

// parseInt reads field i as an integer (%i): hex with 0x, binary with 0b,
// octal with 0o or a leading 0, else decimal.
func parseInt(n *Node, line, i int, kind string) (uint64, *Error) {
	v, ok := llvmnum.ParseUint(n.Fields[i], 0)
	if !ok {
		return 0, fieldError(n, line, i, kind)
	}
	return v, nil
}

// parseBuildID reads field i as a build-id (%x).
func parseBuildID(n *Node, line, i int) ([]byte, *Error) {
	id, ok := ParseBuildID(n.Fields[i])
	if !ok {
		return nil, fieldError(n, line, i, "build ID")
	}
	return id, nil
}

// ParseBuildID reads a build-id written in hex as llvm does (tryGetFromHex):
// digits of either case, a lone first digit when their number is odd; at
// least one.
func ParseBuildID(s string) ([]byte, bool) {
	if s == "" {
		return nil, false
	}
	id := make([]byte, (len(s)+1)/2)
	j := 0
	if len(s)%2 == 1 {
		d, ok := hexDigit(s[0])
		if !ok {
			return nil, false
		}
		id[0] = d
		s, j = s[1:], 1
	}
	for k := 0; k < len(s); k += 2 {
		hi, ok1 := hexDigit(s[k])
		lo, ok2 := hexDigit(s[k+1])
		if !ok1 || !ok2 {
			return nil, false
		}
		id[j] = hi<<4 | lo
		j++
	}
	return id, true
}

func hexDigit(c byte) (byte, bool) {
	d, ok := llvmnum.Digit(c)
	return byte(d), ok && d < 16
}

// parseMode reads field i as mmap permissions: r, w and x in that order,
// each optional, either case (at least one character); they are returned
// lower-cased.
func parseMode(n *Node, line, i int) (string, *Error) {
	s := n.Fields[i]
	rest := s
	for _, c := range []byte{'r', 'w', 'x'} {
		if rest != "" && (rest[0]|0x20) == c {
			rest = rest[1:]
		}
	}
	if s == "" || rest != "" {
		return "", fieldError(n, line, i, "mode")
	}
	return strings.ToLower(s), nil
}
