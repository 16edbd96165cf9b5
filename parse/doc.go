// Package parse finds sanitizer reports in logs and turns them into the
// report model (Report, Stack, Frame, ...).
//
// A Scanner reads a log line by line and yields one Report per
// AddressSanitizer, LeakSanitizer, ThreadSanitizer, MemorySanitizer,
// UndefinedBehaviorSanitizer or libFuzzer report it finds, and per glibc
// backtrace_symbols or gdb "bt" dump. It copes with what real CI logs add
// around the runtime's output: ANSI colors, a per-line prefix (timestamps,
// "[job 3] ", "svc_1  | "), CRLF line ends, other output interleaved with a
// report's lines, reports back to back, and a report cut off by the end of
// the log.
//
// Nothing is symbolized here: frames keep what the log printed, and
// Frame.Symbolized says whether the log named the function or file.
//
// Lines outside reports are rejected with a few byte searches and without
// allocating, so scanning a large log costs little more than reading it.
package parse
