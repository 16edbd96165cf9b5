package symbolize

import "github.com/sanitrace/sanitrace/debuginfo"

// Options configure how an Object finds its debug information.
type Options struct {
	// Finder finds the separate debug file, the .dwp package and the .dwo
	// files, and hands over a file it already opened. nil means a Finder
	// with the defaults (debuginfo.DefaultDebugDir), owned by the Object.
	Finder *debuginfo.Finder
}

// FunctionNames selects which name a frame carries, as llvm-symbolizer's
// --functions flag does.
type FunctionNames int

const (
	FunctionsLinkage FunctionNames = iota // the default: linkage (then demangled) names
	FunctionsShort                        // DW_AT_name only
	FunctionsNone                         // no function names ("" in every frame)
)

// LookupOptions select what a lookup returns.
type LookupOptions struct {
	Inlines   bool // return the whole inline chain, innermost first
	Demangle  bool
	Functions FunctionNames
	// RelativeNames gives file names as the line table records them,
	// without the compilation directory (llvm-symbolizer --relativenames).
	RelativeNames bool
	// Policy is the reference tool whose answers to give: which DWARF is
	// read, which names frames take, how they are demangled. nil means
	// LLVM14.
	Policy *Policy
}

// policy returns o's policy.
func (o *LookupOptions) policy() *Policy {
	if o.Policy == nil {
		return LLVM14
	}
	return o.Policy
}

// Frame is one frame of a symbolized address: with Inlines, an address
// yields the chain of inlined frames innermost first, the last one being the
// real (outermost) function.
type Frame struct {
	Function        string // "" when unknown
	File            string // "" when unknown (see FileKnown)
	FileKnown       bool   // GNU240: File is known even if "" (bfd prints ":" not "??:")
	Line            int    // 0 when unknown
	Column          int
	Discriminator   int
	StartFile       string // file of the function's declaration (DW_AT_decl_file)
	StartLine       int    // DW_AT_decl_line
	StartAddress    uint64 // low pc of the (inlined) function
	HasStartAddress bool
	Inlined         bool // true for every frame but the outermost
}

// DataSymbol answers a DATA query: the global object containing an address.
type DataSymbol struct {
	Name      string // the symbol-table (linkage) name
	Demangled string // Name demangled as llvm-symbolizer --demangle prints it
	Start     uint64
	Size      uint64
}
