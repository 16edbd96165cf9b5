package core

import "github.com/sanitrace/sanitrace/report"

// Report is what `sanitrace core` shows of a core file: its threads
// unwound and symbolized, and the modules that served them.
type Report struct {
	Core        string // the core file as named
	Executable  string // the executable's path as NT_FILE names it; "" when unknown
	Command     string // NT_PRPSINFO's command line
	Signal      *Signal
	CrashingTID int
	Threads     []ThreadReport // the crashing thread first, then in note order
	Modules     []ModuleReport
	Errors      []string // notes that could not be read
}

// ThreadReport is one thread's stack.
type ThreadReport struct {
	TID     int
	Crashed bool
	Frames  []ReportFrame
	// Err says why the walk ended before the outermost frame; "" when it
	// reached it.
	Err string
}

// ReportFrame is a frame of the model (the decode frame) with how it was
// found. Inlined frames precede the physical frame holding them and share
// its pc.
type ReportFrame struct {
	report.Frame
	Kind      string // normal | sigtramp | inline
	UnwoundBy string // cfi | fp | scan | registers
	CFA       uint64 // 0 when unknown
}

// ModuleReport is a mapped file and what was found for it.
type ModuleReport struct {
	Path    string // as NT_FILE names it
	Found   string // the local file used; "" when none
	BuildID string // hex, from the core's memory of the module (else the file's)
	Base    uint64 // the lowest address it is mapped at
	Err     string // why it could not be used
}
