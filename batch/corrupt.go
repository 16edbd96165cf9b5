package batch

import (
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// corruption says why a report's stack could not be read, "" when it
// could. syzkaller flags such reports "corrupted" rather than bucketing
// them by whatever frames survived: a stack with lines lost or cut off
// before its first frame would start a bucket of its own, or worse join
// another bug's. A report whose producer prints no stack for it (UBSan
// without print_stacktrace, a libwebsockets heap dump) is not corrupted.
func corruption(r *report.Report) string {
	if report.IsHeapDump(r) || len(r.Stacks) == 0 {
		switch {
		case report.IsHeapDump(r) || headlineFile(r.Headline) != "" || !stackExpected(r):
		case r.Truncated:
			return "the log ends before the report's stack trace"
		case goroutineHeader(r):
			// GOTRACEBACK=none prints no goroutine at all; a goroutine's
			// header without a frame is a traceback cut off.
			return "the goroutine's traceback has no frames"
		}
		return ""
	}
	first := &r.Stacks[0]
	if len(first.Frames) == 0 {
		switch {
		case r.Truncated:
			return "the log ends before the first stack's frames"
		case stackExpected(r):
			return "the first stack has no frames"
		}
		return ""
	}
	named := false
	for i := range first.Frames {
		f := &first.Frames[i]
		if f.Function != "" || f.Module != "" || f.File != "" {
			named = true
			break
		}
	}
	if !named {
		return "no frame of the first stack names a function, file or module"
	}
	// Numbered frames (#0, #1, ...) count up by one: a gap is frames lost
	// to interleaved or dropped lines. Inlined frames repeat a number.
	prev := -1
	for i := range first.Frames {
		n := first.Frames[i].Index
		if n < 0 {
			prev = -1
			continue
		}
		switch {
		case prev < 0 && i == 0 && n != 0:
			return fmt.Sprintf("the first stack starts at frame #%d: its first frames are lost", n)
		case prev >= 0 && n != prev && n != prev+1:
			return fmt.Sprintf("frame #%d follows #%d in the first stack: frames are lost", n, prev)
		}
		prev = n
	}
	return ""
}

// stackExpected: the producers whose every report prints a stack.
func stackExpected(r *report.Report) bool {
	switch r.Producer() {
	case report.ProducerSanitizer:
		return r.Tool != report.ToolUBSan
	case report.ProducerGoRace, report.ProducerGoPanic, report.ProducerRust:
		return true
	}
	return false
}

// goroutineHeader reports whether a Go report printed a "goroutine N
// [...]:" line.
func goroutineHeader(r *report.Report) bool {
	if p := r.Producer(); p != report.ProducerGoPanic && p != report.ProducerGoRace {
		return false
	}
	for _, l := range r.Raw {
		if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(strings.TrimSpace(l), ":") {
			return true
		}
	}
	return false
}
