// Package resolve finds the modules a log names and fills in report frames
// with the symbolizer.
//
// A sanitizer run with symbolize=0 (or a runtime that found no symbolizer)
// prints frames as "(module+0xoffset)". The modules are named as the
// crashed process saw them: absolute paths on the machine that ran it, or,
// for ThreadSanitizer, bare base names. A Resolver maps each such name onto
// a local ELF file (prefix maps, a sysroot, --binary-dir directories by base
// name and by GNU build-id, the log's own directory, other paths in the
// same report), verifies the build-id when the log printed one, opens each
// module once per run and symbolizes all of a report's addresses in that
// module in one batch. Inline chains expand into several frames sharing one
// pc, exactly as the runtime prints them when it symbolizes itself.
//
// Frames that the log already symbolized are left alone. A module that
// cannot be used is reported once, on the Warn callback, with the reason.
package resolve
