package report

// Report is one sanitizer report (or one other recognised stack dump) found
// in the input.
//
// The fields are filled once, by the producer (package parse for logs):
// besides the lines kept as printed (Headline, Location and Summary texts,
// stack titles, Raw), the parts a consumer needs are typed fields, so that
// no consumer reads the log's wording again. The model has no JSON form
// of its own: package wire holds the output's documents.
type Report struct {
	Tool     string // "AddressSanitizer", "LeakSanitizer", "ThreadSanitizer", ...
	Kind     string // bug type as the runtime names it, e.g. "heap-use-after-free"
	Severity string // "ERROR" or "WARNING" when the headline says so
	PID      int    // 0 when unknown
	Headline string // the ERROR:/WARNING:/runtime error: line, colors stripped
	// Message is the headline's text after "ERROR: AddressSanitizer: ",
	// "WARNING: ThreadSanitizer: " (without "(pid=N)") or "runtime error: ".
	// It is also the title of a stack that follows the headline directly.
	Message string

	Access *Access // the "READ of size 4 at ... thread T0" line, when present
	// Address is the faulting address: the access line's, else the
	// headline's ("on address 0x..."), else the first location line's.
	Address    uint64
	HasAddress bool
	// Location holds the "is located ..." / "Location is ..." lines that
	// say where the accessed memory lies, in input order.
	Location []Location
	// StackObjects is ASan's list of the variables of the stack frame that
	// an access fell into ("This frame has 2 object(s):", then one line
	// per variable); nil when the report has none.
	StackObjects *StackObjects
	// LockCycle holds TSan's "Cycle in lock order graph: M0 (0x...) => ..."
	// lines of a lock-order-inversion report.
	LockCycle []string
	Stacks    []Stack
	Shadow    *Shadow
	Summary   Summary // the SUMMARY: line; its Text is "" when there is none

	Input InputRange
	Raw   []string // the report's own lines as read, noise prefixes removed

	// Markup is set when the runtime printed the report's frames as
	// symbolizer markup ({{{bt:N:0xPC}}} elements, LLVM 18+ runtimes with
	// enable_symbolizer_markup=1): such a runtime symbolizes nothing
	// itself, and a resolver that names the frames prints them as that
	// runtime's classic report would.
	Markup bool

	// Truncated is set when the report ended before its closing line
	// (==PID==ABORTING, TSan's ==== line, ...), e.g. because the input ended.
	Truncated bool

	// Fuzzer holds what libFuzzer printed about the input that failed
	// (MS:, base unit, the artifact); nil for other reports.
	Fuzzer *FuzzerInput
	// Kernel holds what a Linux kernel report says of where it happened;
	// nil for other reports.
	Kernel *KernelInfo
}

// FuzzerInput is libFuzzer's account of the failing input.
type FuzzerInput struct {
	Mutations string // "1 ChangeByte-": the MS: line's mutation sequence
	BaseUnit  string // sha1 of the corpus unit it was mutated from
	Bytes     string // the input as "0x4d,0x21," (short inputs only)
	Text      string // the input as text, the line after Bytes
	Artifact  string // "Test unit written to PATH"
	Base64    string // the input, when printed as "Base64: ..."
	// Lines are those lines as printed, in input order (the report's
	// prefix removed): the text output gives them back as they were.
	Lines []string
}

// KernelInfo is the context a Linux kernel report prints.
type KernelInfo struct {
	CPU     int    // -1 when not printed
	Comm    string // the task's name ("Comm: kworker/0:1")
	Tainted string // "Not tainted" or the taint flags ("G    B   W")
	Release string // "6.1.0-rc3+ #7"
	// BuildID is the vmlinux build id printed on the "CPU:" line
	// (CONFIG_STACKTRACE_BUILD_ID), "" when not printed.
	BuildID string
	// Hardware is the "Hardware name:" line's text.
	Hardware string
}

// Access describes the faulting memory access.
type Access struct {
	Op      string // READ, WRITE, "Read", "Write", ...
	Size    int
	Address string
	Thread  string
}

// Stack is one titled stack trace inside a report.
type Stack struct {
	Title string
	Role  string // access|free|alloc|thread|origin|leak|previous|mutex|other
	// RoleDetail is the finer class of the title: "error" (the stack right
	// after the headline), "thread_creation", "mutex_acquire",
	// "origin_store", "stack_frame", ... (the corpus's role names).
	RoleDetail string
	// Thread is the thread the title names for the heap history stacks:
	// "T1" of "freed by thread T1 here:".
	Thread string
	// Location is set when the title itself says where the accessed memory
	// lies: ASan's "Address 0x... is located in stack of thread T0 at
	// offset 56 in frame", TSan's "Location is heap block of size 16 at
	// 0x... allocated by main thread:".
	Location *Location
	Frames   []Frame
	// Marker is the line a producer printed in place of the frames it
	// could not give ("[failed to restore the stack]" of TSan and Go's
	// race detector, when the history of an old access is gone); such a
	// stack has no frames. "" otherwise.
	Marker string
	// Truncated says why the stack may have been cut short by the
	// sanitizers' fast frame-pointer unwinder ("" when there is no sign
	// of it): set by resolve, which can read the last frame's code and CFI.
	Truncated string
}

// MarkerNoRestore is what TSan and Go's race detector print for a stack
// they could not restore from their trace.
const MarkerNoRestore = "[failed to restore the stack]"

// RoleDetailRegisters is the RoleDetail of the one-frame stack a kernel
// report reads from its register dump's faulting-instruction line ("RIP:
// 0010:f+0x1c/0x60 [m]", "EIP: ...", arm64's "pc : ..."): the exact pc,
// not a call trace.
const RoleDetailRegisters = "rip"

// FromRegisters reports whether s is the stack of the faulting
// instruction's line of a kernel register dump (RoleDetailRegisters).
func (s *Stack) FromRegisters() bool { return s.RoleDetail == RoleDetailRegisters }

// Who produced a frame's function and file information (Frame.Symbolized).
const (
	// SymbolizedReport: the log named the function or the file (a
	// sanitizer's "in f a.c:3", Valgrind's "f (a.c:3)" or "f (in mod)").
	SymbolizedReport = "report"
	// SymbolizedSanitrace: sanitrace found them (package resolve).
	SymbolizedSanitrace = "sanitrace"
	// SymbolizedNone: nobody did (Valgrind's "??? (in mod)", a bare pc);
	// the frame keeps its pc and module for a resolver.
	SymbolizedNone = "none"
)

// Frame is one stack frame, innermost first within its stack.
type Frame struct {
	Index     int    // the #N the log printed (-1 when the format has none: glibc, Valgrind)
	PC        uint64 // 0 when the log printed none (TSan's %M frames)
	HasPC     bool
	Function  string // demangled; "" when unknown
	File      string // "" when unknown
	Line      int
	Column    int
	Module    string // as printed (path or basename); "" when unknown
	Offset    uint64 // offset into Module
	HasOffset bool
	// SymbolOffset is the "+0xNN" printed after a function name
	// ("in FUNC+0xNN (MOD+0xOFF)", backtrace_symbols' "prog(func+0x1c)"):
	// an offset from the symbol's start, not from the module.
	SymbolOffset    uint64
	HasSymbolOffset bool
	BuildID         string // hex, when the log printed "(BuildId: ...)"
	Inlined         bool
	// Adjust is what must be subtracted from Offset/PC before symbolizing:
	// 0 for sanitizer frames (the runtime already printed pc-1), 1 for raw
	// return addresses such as glibc backtrace_symbols output.
	Adjust     uint64
	Symbolized string // SymbolizedReport, SymbolizedSanitrace or SymbolizedNone
	Raw        string // the frame's line as read

	// SymbolSize is the function size a kernel frame prints after the
	// symbol offset ("func+0x1c/0x60"): a check on the symbol it resolves
	// against.
	SymbolSize    uint64
	HasSymbolSize bool
	// Unreliable marks a kernel frame printed with "? ": an address found
	// on the stack that the unwinder could not confirm as a return address.
	Unreliable bool
	// Context is the kernel's execution context of the frame: "IRQ",
	// "SOFTIRQ", "NMI", "TASK", ... from the <IRQ>/</IRQ> markers around
	// it; "" outside such markers and for other formats.
	Context string
	// Problem says why a frame that looked resolvable was left as printed
	// (a kernel symbol whose size differs from the log's: another build).
	Problem string
	// Unparsed marks a frame line inside a stack that the grammar could
	// not read: only Raw (and Index, when its "#N" could be read) is set.
	// It keeps its place in the stack, so the loss shows wherever the
	// stack is shown.
	Unparsed bool
}

// Shadow is ASan's "Shadow bytes around the buggy address" block.
type Shadow struct {
	Rows   []ShadowRow
	Legend map[string]string // shadow byte (two hex digits) -> meaning, as printed
	// Granularity is the N of "one shadow byte represents N application
	// bytes" in the legend header; 0 when no legend was printed.
	Granularity int
}

// ShadowRow is one printed row of shadow bytes.
type ShadowRow struct {
	Address string // "0x0c067fff8000", as printed
	// Base is Address's value: the shadow address of Bytes[0]; HasBase is
	// false when Address is not a hex number.
	Base    uint64
	HasBase bool
	Bytes   []string // two-digit hex strings
	Marked  int      // index of the [xx] byte, -1 when none
	Current bool     // the row printed with "=>"
}

// InputRange says where in which input a report was found (lines 1-based).
type InputRange struct {
	Name      string
	FirstLine int
	LastLine  int
}

// KindHeapDump is the Kind of a libwebsockets heap dump (runs of ~m#/~b#
// records; its Tool is ToolLWS).
const KindHeapDump = "heap dump"

// IsHeapDump reports whether r is a libwebsockets heap dump: a record of
// live allocations, not a bug report.
func IsHeapDump(r *Report) bool { return r.Tool == ToolLWS && r.Kind == KindHeapDump }
