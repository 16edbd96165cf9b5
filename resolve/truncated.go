package resolve

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/report"
)

// The sanitizers unwind with frame pointers by default (the "fast"
// unwinder): it follows the rbp chain and stops at the first frame pointer
// it cannot trust, which is wherever code built without frame pointers
// (-fomit-frame-pointer, the -O2 default) sits on the stack. Its stacks
// then end early, with no mark. A stack whose last frame is not an
// outermost function, in a function whose CFI shows a caller, was cut
// there; whether that function sets up a frame pointer says why.

// outermost reports whether a stack may end at function: the process's
// and threads' entry points and the libc code that calls main, where
// every unwinder stops.
func outermost(function string) bool {
	switch function {
	case "_start", "__start", "start_thread", "clone", "clone3", "__clone", "__clone3",
		"thread_start", "asan_thread_start", "__tsan_thread_start_func", "main":
		return true
	}
	return strings.HasPrefix(function, "__libc_start") ||
		strings.HasPrefix(function, "asan_thread_start(") ||
		strings.HasPrefix(function, "__asan::AsanThread::ThreadStart") ||
		strings.HasPrefix(function, "__tsan_thread_start_func(")
}

// frameLimit: a stack this long was cut by the sanitizer runtime's
// kStackTraceMax (255 pcs, a few of them its own frames, which it does not
// print), not by the unwinder.
const frameLimit = 240

// endbr64 may precede a function's first instruction (CET).
var endbr64 = []byte{0xf3, 0x0f, 0x1e, 0xfa}

// hasFPPrologue reports whether code starts with push %rbp; mov %rsp,%rbp
// (48 89 e5, or 48 8b ec).
func hasFPPrologue(code []byte) bool {
	code = bytes.TrimPrefix(code, endbr64)
	return len(code) >= 4 && code[0] == 0x55 && code[1] == 0x48 &&
		((code[2] == 0x89 && code[3] == 0xe5) || (code[2] == 0x8b && code[3] == 0xec))
}

// markTruncated sets Stack.Truncated on the stacks of rep that end in a
// frame whose CFI shows a caller.
func (r *Resolver) markTruncated(rep *report.Report, ctx context) {
	for si := range rep.Stacks {
		s := &rep.Stacks[si]
		if len(s.Frames) == 0 || s.RoleDetail == "stack_frame" {
			// ASan's "is located in stack of thread T0 at offset N in
			// frame" shows the one frame it describes, by design.
			continue
		}
		last := s.Frames[len(s.Frames)-1]
		if last.Function == "" || outermost(last.Function) || !symbolizable(last.Module) {
			continue
		}
		m := r.moduleWarn(last.Module, last.BuildID, ctx, false)
		obj := r.object(m)
		if obj == nil {
			continue
		}
		addr, ok := address(&last, m.exec)
		if !ok {
			continue
		}
		s.Truncated = truncationReason(obj, addr, last.Function)
		if s.Truncated != "" && len(s.Frames) >= frameLimit {
			s.Truncated = fmt.Sprintf("the CFI of %s shows a caller and the stack has %d frames: the runtime stops at its limit (kStackTraceMax, 255 frames with its own)", last.Function, len(s.Frames))
		}
	}
}

// truncationReason says why a stack ending at addr (link-time, the
// lookup address of the last frame) in function looks cut short; "" when
// it does not.
func truncationReason(obj modcache.Object, addr uint64, function string) string {
	t := obj.CFI()
	if t == nil {
		return ""
	}
	fde, ok := t.FDEFor(addr)
	if !ok {
		return ""
	}
	row, err := t.RowAt(addr)
	if err != nil || row.Rule(row.RA).Kind == cfi.RuleUndefined {
		return ""
	}
	if code := obj.CodeAt(fde.Begin, 8); code != nil && !hasFPPrologue(code) {
		return fmt.Sprintf("%s has no frame-pointer prologue and its CFI shows a caller: the sanitizer's frame-pointer unwinder stops at code built without frame pointers (ASAN_OPTIONS=fast_unwind_on_malloc=0 shows the rest)", function)
	}
	return fmt.Sprintf("the CFI of %s shows a caller, but the frame-pointer chain ended there (a caller built without frame pointers; ASAN_OPTIONS=fast_unwind_on_malloc=0 shows the rest)", function)
}
