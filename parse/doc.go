// Package parse reads crash reports out of logs into the report model
// (package report).
//
// A Scanner reads a log line by line and yields one Report per report it
// finds: the sanitizer runtimes' (AddressSanitizer, LeakSanitizer,
// ThreadSanitizer, MemorySanitizer, UndefinedBehaviorSanitizer, their
// CHECK failures, libFuzzer's), and those of the other formats, each
// declared by its grammar file (format.go lists them): the Linux kernel's,
// Go's race detector and runtime, Rust panics, gdb sessions, glibc aborts
// and backtrace_symbols dumps, Chromium's and boost::stacktrace's dumps,
// Valgrind's Memcheck, Helgrind and DRD; runs of libwebsockets ~m#/~b#
// records become heap-dump reports. It copes with what real CI logs and
// pastes add around them: terminal control sequences, a per-line prefix
// (timestamps, "[job 3] ", "svc_1  | ", dmesg and syslog stamps), CRLF,
// quoting and indentation, lines a bug tracker wrapped, other output
// interleaved with a report's lines, damaged headlines, reports back to
// back, and a report cut off by the end of the log.
//
// Next yields the reports; a Scanner told to KeepLines yields, through
// NextItem, the whole input in order instead: each line as read once no
// report can take it, and each report with the lines of its range (decode
// --passthrough).
//
// Nothing is symbolized here: frames keep what the log printed, and
// Frame.Symbolized says whether the log named the function or file.
//
// Lines outside reports are rejected with a few byte searches (the cues
// of every format) and without allocating, so scanning a large log costs
// little more than reading it.
package parse
