package dropin

// llvmHelp is the llvm-symbolizer face's --help: our own description of
// what this implementation does with llvm-symbolizer 14's flags (the flags
// and their spelling are the reference's; the text is ours).
const llvmHelp = `Usage: llvm-symbolizer [options] [addresses...]
       sanitrace symbolize [options] [addresses...]

sanitrace's llvm-symbolizer: turns addresses in ELF files into function
names and source locations with sanitrace's own DWARF reader, printing what
llvm-symbolizer 14 prints for the same options. Addresses on the command
line are looked up in --obj; with none, each line of standard input is one
query, answered (and flushed) at once:
  0x401136                     an address in --obj
  MODULE 0xOFFSET              an offset in MODULE ("quoted" if it has spaces)
  CODE|DATA|FRAME MODULE 0xOFF what to look up: code (the default), a global
                               variable (name, start and size) or the locals
                               of the frame
  BUILDID:HEX 0xOFFSET         the module with that GNU build-id, found in
                               --debug-file-directory or through debuginfod
  [MODULE] SYMBOL[+OFFSET]     a function by its symbol-table (mangled) name,
                               as llvm-symbolizer 19 reads it: the location
                               of each symbol of that name, OFFSET bytes in

What to print:
  -f, --functions[=none|short|linkage]
                        function names: linkage (the default) prints the
                        full name, demangled unless --no-demangle; short
                        the name alone, without scope and parameters;
                        none leaves names out
  -C, --demangle        demangle C++ and Rust names (the default);
                        --no-demangle or -demangle=false keeps them mangled
  -i, --inlines, --inlining
                        the whole chain of inlined functions at an address,
                        innermost first (the default); --no-inlines or
                        --inlining=false prints only the innermost
  -a, --addresses, --print-address
                        each address before its answer
  -p, --pretty-print    one line per frame: "function at file:line:column"
  --output-style=LLVM|GNU|JSON
                        LLVM: function and file:line:column lines, a blank
                        line after each answer; GNU: as addr2line prints
                        them; JSON: one object per query (one array of
                        them for addresses on the command line)
  -s, --basenames       file names without their directories
  --relativenames       file names relative to their compilation directory
  --print-source-context-lines=N
                        N source lines around each location, when the file
                        can be read
  --verbose             each frame's fields on lines of their own (file,
                        function start, line, column, discriminator)

Where addresses point:
  -e, --obj, --exe=FILE
                        the ELF file for addresses that name no module
  --build-id=HEX        instead of --obj: the file with that GNU build-id,
                        found as BUILDID: queries find it
  --adjust-vma=OFFSET   the file was loaded OFFSET higher: OFFSET is taken
                        off each address first

Where debug information is found (besides the file itself):
  --debug-file-directory=DIR
                        searched for .build-id/xx/rest.debug and
                        .gnu_debuglink files (repeatable)
  --fallback-debug-path=DIR
                        searched last for .gnu_debuglink files
  --dwp=FILE            the .dwp package of split-DWARF units
  DEBUGINFOD_URLS       servers asked for missing debug files by build-id
  --no-debuginfod       do not ask them; --debuginfod (the default when
                        DEBUGINFOD_URLS is set) asks them

Symbolizer markup (the LLVM 18+ sanitizer runtimes' enable_symbolizer_markup):
  --filter-markup       copy a log from stdin to stdout with every
                        {{{bt}}}, {{{pc}}}, {{{data}}} and {{{symbol}}}
                        element replaced by its frames or name, and the
                        {{{module}}}/{{{mmap}}} lines summarised, as
                        llvm-symbolizer 19 does; modules are found by
                        build-id (--debug-file-directory, debuginfod)
  --color[=always|auto|never]
                        colour that output (auto: when stdout is a
                        terminal)

Memory in a long session:
  --cache-size=N        keep the modules open while their footprints sum
                        to at most N bytes (default 1073741824, 1 GiB);
                        past it the least recently used are closed after
                        a query, and opened again when asked for, with the
                        same answers. A module's footprint is its files'
                        sizes plus its unpacked DWARF (docs/guide.md)

Accepted for compatibility, with no effect on x86-64 ELF files:
  --default-arch=ARCH, --dsym-hint=DIR, --dia, --use-symbol-table,
  --relative-address (an ELF file's image base counts as 0, as in
  llvm-symbolizer 14), --untag-addresses, --no-untag-addresses

And:
  -h, --help            this help
  -v, --version         the version
  @FILE                 more options, read from FILE
  LLVM_SYMBOLIZER_OPTS  options read before the command line's

Unknown addresses are answered with "??" as llvm-symbolizer answers them.
The options and query forms llvm-symbolizer 19 added (--build-id,
--cache-size, --color, --debuginfod, --filter-markup, symbol names) answer
as version 19 does.
sanitrace behaves as this command when it is run through a link whose name
starts with llvm-symbolizer, so ASAN_SYMBOLIZER_PATH can point at it.
Differences from llvm-symbolizer 14: sanitrace's docs/differences.md.
`

// LLVMSymbolizerHelp is the llvm-symbolizer face's --help text.
func LLVMSymbolizerHelp() string { return llvmHelp }
