package report

// LocationKind says what kind of memory a location line describes.
type LocationKind int

const (
	// LocationOther is a location line whose form is not read further.
	LocationOther LocationKind = iota
	// HeapRegion is ASan's "0x... is located 4 bytes inside of 400-byte
	// region [0x...,0x...)".
	HeapRegion
	// GlobalVariable is ASan's "0x... is located 0 bytes to the right of
	// global variable 'g' defined in 'g.c:1:5' (0x...) of size 40".
	GlobalVariable
	// StackFrame is ASan's "Address 0x... is located in stack of thread T0
	// at offset 56 in frame" (a stack title).
	StackFrame
	// HeapBlock is TSan's "Location is heap block of size 16 at 0x...
	// allocated by main thread:" (a stack title).
	HeapBlock
	// Global is TSan's "Location is global 'x' of size 8 at 0x...
	// (module+0x...)"; unsymbolized, "Location is global '<null>' at
	// 0x000000000000 (module+0x...)" without a size.
	Global
)

// Location is one line saying where the accessed memory lies, with its
// parts. Addresses are kept as printed (the runtimes pad them), sizes and
// offsets as numbers; a part the line does not have is zero.
type Location struct {
	Kind LocationKind
	// Text is the line as printed, blanks trimmed; for a TSan global that
	// resolve completed, the line as the runtime prints it symbolized.
	Text string
	// Address is the described address ("0x..." before "is located");
	// absent from TSan's lines, which name none.
	Address Addr
	// Offset is the access's distance from the region in bytes ("is
	// located 4 bytes inside of"), or its offset in the stack frame.
	Offset uint64
	// Relation is ASan's "inside of", "to the right of" or "to the left of".
	Relation string
	Size     uint64 // the region's, block's or global's size in bytes, when HasSize
	HasSize  bool
	Begin    Addr   // the region's, block's or global's start
	End      Addr   // a heap region's end (exclusive)
	Name     string // a global's name ("<null>" when TSan could not name it)
	// DefinedAt is where ASan says a global variable is defined,
	// "g.c:1:5".
	DefinedAt string
	// Thread is the thread of a stack frame ("T0"), or who allocated a
	// TSan heap block ("main thread", "thread T1").
	Thread string
	// Module and ModuleOffset are a TSan global's "(module+0xoffset)", as
	// printed (a base name or a path).
	Module          string
	ModuleOffset    uint64
	HasModuleOffset bool
	// Tail is what a TSan global's line has after "(module+0xoffset)".
	Tail string
}

// Addr is an address as the log printed it (runtimes pad them to a fixed
// width, and output shows them as printed) and its value.
type Addr struct {
	Text  string // "0x602000000010"; "" when absent
	Value uint64
}

// Described reports whether l says enough to place an access against it:
// a TSan global that the runtime could not symbolize names no size.
func (l *Location) Described() bool {
	switch l.Kind {
	case HeapRegion, GlobalVariable, StackFrame, HeapBlock:
		return true
	case Global:
		return l.HasSize
	}
	return false
}

// StackObjects is ASan's list of a stack frame's variables, printed after
// the "Address ... is located in stack" stack:
//
//	This frame has 1 object(s):
//	  [32, 40) 'a' (line 3) <== Memory access at offset 56 overflows this variable
type StackObjects struct {
	Header  string // "This frame has 1 object(s):" as printed, blanks trimmed
	Objects []StackObject
}

// StackObject is one variable of a stack frame.
type StackObject struct {
	Text       string // the line as printed, blanks trimmed
	Begin, End uint64 // [Begin, End) offsets in the frame
	Name       string
	Line       int // the declaration's line, 0 when not printed
	// Access is what ASan says the access did to this variable:
	// "overflows", "underflows", "partially overflows", ...; "" when the
	// line blames no access on it.
	Access string
}

// Blamed is the variable the access is blamed on, or nil.
func (s *StackObjects) Blamed() *StackObject {
	if s == nil {
		return nil
	}
	for i := range s.Objects {
		if s.Objects[i].Access != "" {
			return &s.Objects[i]
		}
	}
	return nil
}

// Summary is the SUMMARY: line and its parts:
//
//	AddressSanitizer: heap-use-after-free /src/a.c:33:13 in session_id
//	AddressSanitizer: double-free (/lib/libasan.so.8+0xb76a8) (BuildId: 1a2b)
//	LeakSanitizer: 346 byte(s) leaked in 10 allocation(s).
type Summary struct {
	// Text is the line without "SUMMARY: "; "" when the report has none.
	// When resolve symbolized the location, the line as the runtime prints
	// it symbolized.
	Text string
	// Tool is the runtime's name before the first ": ", "" when there is none.
	Tool string
	// Kind is the text between the tool and the location: the bug type,
	// "heap-use-after-free", "data race", or all of an LSan total.
	Kind string
	// The location the runtime summarised with: a source location and
	// function when symbolized, a module offset when not.
	Function  string
	File      string
	Line      int
	Column    int
	Module    string
	Offset    uint64
	HasOffset bool
	BuildID   string // hex, when printed " (BuildId: ...)" after the module
}
