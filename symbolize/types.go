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

// NameStyle selects whose naming rules apply: llvm-symbolizer's or GNU
// addr2line's. They differ in which DWARF or symbol-table name each frame of
// an inline chain gets and in demangler style ("> >" spacing, clone suffixes).
type NameStyle int

const (
	StyleLLVM NameStyle = iota
	StyleGNU
	// styleGDB demangles as gdb names functions: libiberty's spelling
	// without a template function's return type (gdb computes the name
	// from the DWARF, which has none).
	styleGDB
)

// LookupOptions select what a lookup returns.
type LookupOptions struct {
	Inlines   bool // return the whole inline chain, innermost first
	Demangle  bool
	Functions FunctionNames
	Style     NameStyle
	// RelativeNames gives file names as the line table records them,
	// without the compilation directory (llvm-symbolizer --relativenames).
	RelativeNames bool
	// DWARFNames keeps the DWARF's name for code the DWARF describes
	// (gdb's rule); without it, StyleLLVM with linkage names takes the
	// outermost frame's name from the ELF symbol table whenever a symbol
	// covers the address, as llvm-symbolizer does, which picks an alias
	// ("__libc_start_main" for __libc_start_main_impl).
	// It also demangles as gdb does (libiberty's spelling: "{lambda()#1}",
	// "[clone .cold]").
	DWARFNames bool
}

// demangleStyle is whose demangler spelling names get.
func (o LookupOptions) demangleStyle() NameStyle {
	if o.DWARFNames {
		return styleGDB
	}
	return o.Style
}

// Frame is one frame of a symbolized address: with Inlines, an address
// yields the chain of inlined frames innermost first, the last one being the
// real (outermost) function.
type Frame struct {
	Function        string // "" when unknown
	File            string // "" when unknown (see FileKnown)
	FileKnown       bool   // StyleGNU: File is known even if "" (bfd prints ":" not "??:")
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
