package resolve

import (
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// asLLVM18Runtime prints the frames sanitrace named in a report the
// runtime printed as symbolizer markup the way that runtime (LLVM 18 or
// later: markup came with 18) prints them when it symbolizes itself, so
// that a markup report decodes to its classic twin (compiler-rt's
// sanitizer_stacktrace_printer.cpp and tsan_report.cpp):
//   - StripFunctionName: "__interceptor_", "___interceptor_" and
//     "__interceptor_trampoline_" are removed from function names ("free",
//     not "__interceptor_free");
//   - StripPathPrefix: a leading "./" is removed from file names;
//   - ThreadSanitizer's StackStripMain: the frame below main (libc's
//     start-up) and the runtime's own thread start routine are dropped.
func asLLVM18Runtime(rep *report.Report) {
	for si := range rep.Stacks {
		s := &rep.Stacks[si]
		for fi := range s.Frames {
			f := &s.Frames[fi]
			if f.Symbolized != report.SymbolizedSanitrace {
				continue
			}
			f.Function = stripFunctionName(f.Function)
			f.File = strings.TrimPrefix(f.File, "./")
		}
		if rep.Tool == report.ToolTSan {
			s.Frames = tsanStripMain(s.Frames)
		}
	}
}

// stripFunctionName is compiler-rt's StripFunctionName (LLVM 17+).
func stripFunctionName(name string) string {
	for _, p := range []string{"__interceptor_trampoline_", "___interceptor_", "__interceptor_"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return rest
		}
	}
	return name
}

// tsanStripMain is ThreadSanitizer's StackStripMain: the last frame goes
// when the one above it is main, or when it is the runtime's thread start
// routine, or libc's start-up (the runtime's list), as long as something
// is left. Inlined frames of one pc come as one frame to the runtime, so
// the last pc's frames go together.
func tsanStripMain(fs []report.Frame) []report.Frame {
	n := len(fs)
	if n < 2 {
		return fs
	}
	// The last pc's frames: the chain that ends the stack.
	k := n - 1
	for k > 0 && fs[k-1].Inlined {
		k--
	}
	if k == 0 {
		return fs
	}
	last, above := fs[n-1].Function, fs[k-1].Function
	switch {
	case above == "main",
		last == "__tsan_thread_start_func",
		last == "__do_global_ctors_aux", last == "__libc_csu_init", last == "__libc_start_main":
		return fs[:k]
	}
	return fs
}
