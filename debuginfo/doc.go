// Package debuginfo finds the files symbolization reads: a module as a log,
// a core or a query names it, and the separate debug files of a module.
// Every search rule lives here, in the order the toolchain applies it:
//
//   - a module: prefix maps, binary directories (by base name, then by
//     build-id), the sysroot, the log's directory, the system library
//     directories, the debug-file directories' .build-id trees;
//   - its debug file: .build-id/xx/rest.debug under the debug-file
//     directories (build-id verified), then .gnu_debuglink (CRC checked)
//     next to the binary, in its .debug/, under the fallback debug path and
//     under each debug-file directory;
//   - split DWARF: the .dwp package and each unit's .dwo;
//   - dwz supplementary files (.gnu_debugaltlink, .debug_sup): next to the
//     debug file, under each debug-file directory's .dwz/, by build-id;
//   - Linux kernel modules (NAME.ko) under a modules directory.
//
// A Finder applies them. When the local rules fail and a build-id is
// known, its Fetch hook (a debuginfod client) is asked last.
//
// A File is an ELF file opened once: mapped, its headers parsed, its
// build-id read. The Finder hands the file it chose to whoever opens that
// path next, so a module is read once per run.
package debuginfo

// DefaultDebugDir is where debug files are installed (gdb's and
// llvm-symbolizer's default debug-file directory).
const DefaultDebugDir = "/usr/lib/debug"
