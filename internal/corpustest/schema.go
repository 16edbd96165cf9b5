package corpustest

// Log is one expected.json (the parse of symbolized.log) or
// expected_unsymbolized.json (the parse of unsymbolized.log, whose frames
// in case binaries also carry llvm-symbolizer's answer).
type Log struct {
	ReportCount int      `json:"report_count"`
	Reports     []Report `json:"reports"`
}

// Report is one sanitizer report of the log. Keys the log has no item for
// are absent, so their fields stay zero or nil.
type Report struct {
	Tool     string `json:"tool"`     // "AddressSanitizer", ...
	Severity string `json:"severity"` // "ERROR", "WARNING", "runtime error"
	PID      *int   `json:"pid"`
	// LineRange is the report's first and last line in the log, 1-based,
	// inclusive.
	LineRange       [2]int `json:"line_range"`
	Headline        string `json:"headline"`
	HeadlineBugType string `json:"headline_bug_type"`
	// BugType is the runtime's class name, as on the SUMMARY line
	// (case.json bug_class).
	BugType      string        `json:"bug_type"`
	UBSanCheck   *string       `json:"ubsan_check"` // UBSan only
	Access       *Access       `json:"access"`
	Locations    []Location    `json:"locations"`
	Stacks       []Stack       `json:"stacks"`
	Summary      *Summary      `json:"summary"`
	Shadow       *Shadow       `json:"shadow"`
	ShadowLegend *ShadowLegend `json:"shadow_legend"`
}

// Access is the "READ of size 4 at 0x... thread T0" (ASan) or "Write of
// size 8 at ... by main thread" (TSan) line, or for SEGV what the headline
// and "The signal is caused by a READ memory access." say.
type Access struct {
	Kind    string `json:"kind"` // as printed: "READ", "Write", ...
	Size    int    `json:"size"`
	Address string `json:"address"`
	Thread  string `json:"thread"`
}

// Location is an ASan heap/global description or a TSan global.
type Location struct {
	Text string `json:"text"` // the line as printed
}

// Stack is one stack of a report with the line that introduces it.
type Stack struct {
	Title  string  `json:"title"`
	Role   string  `json:"role"` // the corpus's role name; see Role
	Frames []Frame `json:"frames"`
}

// Frame is one "#n ..." line. Module and ModuleOffset are known for every
// frame: from the line itself, or else from the corpus's verification run;
// ModuleAsPrinted is what the line shows (nil when it shows no module).
type Frame struct {
	Index           int     `json:"index"`
	PC              *string `json:"pc"` // nil for TSan, which prints none
	Function        *string `json:"function"`
	File            *string `json:"file"`
	Line            *int    `json:"line"`
	Column          *int    `json:"column"`
	Module          string  `json:"module"`        // full path
	ModuleOffset    *string `json:"module_offset"` // hex
	ModuleAsPrinted *string `json:"module_as_printed"`
	BuildID         *string `json:"build_id"`
	// Inlined is true when the next frame has the same module+offset.
	Inlined bool `json:"inlined"`
	// InCase is the module's path relative to the case folder; nil for
	// system modules, which the corpus does not ship.
	InCase *string `json:"in_case"`
	Raw    string  `json:"raw"` // the line, ANSI codes removed
	// LLVMSymbolizer is llvm-symbolizer 14's inline chain for the frame,
	// innermost first (expected_unsymbolized.json, frames with InCase).
	LLVMSymbolizer []LLVMAnswer `json:"llvm_symbolizer"`
}

// LLVMAnswer is one entry of llvm-symbolizer's --output-style=JSON
// --inlining answer for a module offset.
type LLVMAnswer struct {
	Function string  `json:"function"`
	File     *string `json:"file"`
	Line     *int    `json:"line"`
	Column   *int    `json:"column"`
}

// Summary is the SUMMARY line. Symbolized, Text is what follows the tool
// name; unsymbolized, Module is the module the line names.
type Summary struct {
	Raw    string `json:"raw"` // "SUMMARY: ..."
	Text   string `json:"text"`
	Module string `json:"module"`
}

// Shadow is ASan's shadow-byte dump.
type Shadow struct {
	Rows []ShadowRow `json:"rows"`
}

// ShadowRow is one line of the dump; Current marks the "=>" row.
type ShadowRow struct {
	Address     string   `json:"address"`
	Bytes       []string `json:"bytes"`
	Current     bool     `json:"current"`
	MarkedIndex *int     `json:"marked_index"` // the [xx] byte, if any
}

// ShadowLegend is the "Shadow byte legend" that follows the dump.
type ShadowLegend struct {
	Granularity int                 `json:"granularity"`
	Entries     []ShadowLegendEntry `json:"entries"`
}

// ShadowLegendEntry names one or more shadow byte values.
type ShadowLegendEntry struct {
	Name  string   `json:"name"`
	Bytes []string `json:"bytes"`
}
