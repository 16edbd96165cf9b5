// Package resolve finds the modules a report names and fills in its frames
// with the symbolizer.
//
// A sanitizer run with symbolize=0 (or a runtime that found no symbolizer)
// prints frames as "(module+0xoffset)". The modules are named as the
// crashed process saw them: absolute paths on the machine that ran it, or,
// for ThreadSanitizer, bare base names. A Resolver maps each such name onto
// a local ELF file, once per run: the binaries that came with the inputs
// (Options.Shipped, batch's artifacts) first, then a debuginfo.Finder
// (prefix maps, a sysroot, --binary-dir directories by base name and by GNU
// build-id, the log's own directory, other paths in the same report,
// debuginfod), the build-id verified when the log printed one. It takes
// each module's object from a modcache.Cache (each file opened once per
// run, by whichever Resolver asks first when batch's workers share one)
// and symbolizes all of a report's addresses in that module in one batch.
// Inline chains expand into several frames sharing one pc, exactly as the
// runtime prints them when it symbolizes itself.
//
// Around the frames: the SUMMARY line and ThreadSanitizer's global
// locations are completed as the runtime would have printed them, code
// only an FDE covers is named sub_<start>, a stack the frame-pointer
// unwinder cut short is marked (truncated.go), bare pcs that name no
// module (libwebsockets records) resolve against one --obj binary
// (PCSymbolizer), and Linux kernel frames against --vmlinux and
// --modules-dir (kernel.go). Core unwinds and names the threads of a core
// file with the same Finder.
//
// Frames that the log already symbolized are left alone. A module that
// cannot be used is reported once, on the Warn callback, with the reason;
// one used without its damaged parts too.
package resolve
