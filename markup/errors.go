package markup

import "fmt"

// Code says what is wrong with a piece of markup.
type Code uint8

const (
	// ErrFieldCount: an element with too few fields (or, as a warning,
	// too many).
	ErrFieldCount Code = iota + 1
	// ErrField: a field that is not of its kind (an address, a module
	// ID, a size, a frame number, a build-id, a mode, a PC type).
	ErrField
	// ErrModuleType: a module whose type is not "elf".
	ErrModuleType
	// ErrMMapType: an mmap whose type is not "load".
	ErrMMapType
	// ErrUndeclaredModule: an mmap naming a module ID no module element
	// declared (since the last reset).
	ErrUndeclaredModule
	// ErrDuplicateModule: a second module element with the same ID.
	ErrDuplicateModule
	// ErrOverlappingMMap: an mmap overlapping one already declared; it
	// is dropped.
	ErrOverlappingMMap
	// ErrUnmapped: a bt, pc or data address no mmap covers.
	ErrUnmapped
	// ErrBadTag: a tag with something else than lower-case letters.
	ErrBadTag
	// ErrUnknownElement: a well-formed element with a tag the format
	// does not define (llvm copies it as it is, silently).
	ErrUnknownElement
	// ErrTruncated: a "{{{" with no "}}}" after it on its line (llvm
	// copies the line as it is, silently).
	ErrTruncated
	// ErrEmptyTag: "{{{}}}" or "{{{:…}}}" (llvm copies it as text).
	ErrEmptyTag
)

// Error is a problem with the markup of one line. Msg is llvm-symbolizer's
// wording where llvm reports the problem.
type Error struct {
	Code    Code
	Line    int // 1-based line number
	Col     int // the byte of the line the problem is at (llvm's caret), from 0
	Warning bool
	Msg     string
}

func (e *Error) Error() string {
	kind := "error"
	if e.Warning {
		kind = "warning"
	}
	return fmt.Sprintf("markup line %d, byte %d: %s: %s", e.Line, e.Col+1, kind, e.Msg)
}

func newError(code Code, line, col int, format string, args ...any) *Error {
	return &Error{Code: code, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// fieldError is llvm's reportTypeError: "expected KIND; found 'TEXT'"
// pointing at field i.
func fieldError(n *Node, line, i int, kind string) *Error {
	return newError(ErrField, line, n.FieldPos(i), "expected %s; found '%s'", kind, n.Fields[i])
}

// checkFields is llvm's checkNumFields: exactly want fields. More is a
// warning (the element is still read), fewer an error.
func checkFields(n *Node, line, want int) (warn, err *Error) {
	got := len(n.Fields)
	if got == want {
		return nil, nil
	}
	e := newError(ErrFieldCount, line, n.TagEnd(), "expected %d field(s); found %d", want, got)
	if got > want {
		e.Warning = true
		return e, nil
	}
	return nil, e
}

// checkFieldsAtLeast is llvm's checkNumFieldsAtLeast.
func checkFieldsAtLeast(n *Node, line, want int) *Error {
	if len(n.Fields) >= want {
		return nil
	}
	return newError(ErrFieldCount, line, n.TagEnd(), "expected at least %d field(s); found %d", want, len(n.Fields))
}

// warnFieldsAtMost is llvm's warnNumFieldsAtMost.
func warnFieldsAtMost(n *Node, line, most int) *Error {
	if len(n.Fields) <= most {
		return nil
	}
	e := newError(ErrFieldCount, line, n.TagEnd(), "expected at most %d field(s); found %d", most, len(n.Fields))
	e.Warning = true
	return e
}
