package dropin

import "fmt"

// addr2lineHelp is the addr2line face's --help (%[1]s is the program
// name): our own description of what this implementation does with GNU
// addr2line 2.40's options (the options and their spelling are the
// reference's; the text is ours).
const addr2lineHelp = `Usage: %[1]s [-afiCpsrR] [-e FILE] [-j SECTION] [-b TARGET] [@FILE] [addresses...]

sanitrace's addr2line: turns addresses in an ELF file into function names
and file:line locations with sanitrace's own DWARF reader, printing what
GNU addr2line 2.40 prints for the same options. Addresses are hexadecimal
(0x optional); with none on the command line, each line of standard input
is an address, answered at once.

Options:
  -e, --exe=FILE          the ELF file (default a.out); its separate debug
                          file (.gnu_debuglink, build-id, debuginfod with
                          DEBUGINFOD_URLS) is read too
  -f, --functions         the function name before each location
  -i, --inlines           also the functions inlined at the address,
                          innermost first
  -C, --demangle[=STYLE]  demangle C++ and Rust names (STYLE: auto, gnu-v3,
                          rust, java, gnat, dlang or none)
  -p, --pretty-print      one line per frame: "function at file:line"
  -a, --addresses         each address before its answer
  -s, --basenames         file names without their directories
  -j, --section=NAME      addresses are offsets into section NAME
  -b, --target=NAME       the BFD target name, checked and otherwise unused:
                          the file is read as ELF
  -r, --no-recurse-limit, --no-recursion-limit,
  -R, --recurse-limit, --recursion-limit
                          accepted; the demangler bounds its own work
  -h, --help              this help
  -v, --version           the version
  @FILE                   more options, read from FILE

An address that cannot be resolved is answered with "??" and "??:0" as
addr2line answers it. sanitrace behaves as this command when it is run
through a link named addr2line. Differences from GNU addr2line 2.40:
sanitrace's docs/differences.md.
`

// addr2lineUsage follows an option error on stderr (%[1]s is the
// program name): the usage line and where the options are described.
const addr2lineUsage = `Usage: %[1]s [-afiCpsrR] [-e FILE] [-j SECTION] [-b TARGET] [@FILE] [addresses...]
Run '%[1]s --help' for the options.
`

// Addr2lineHelp is the addr2line face's --help text for the program name.
func Addr2lineHelp(name string) string { return fmt.Sprintf(addr2lineHelp, name) }
