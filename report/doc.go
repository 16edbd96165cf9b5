// Package report is the crash-report model: Report, Stack, Frame, Shadow
// and the typed parts of a report's lines (Access, Location, Summary,
// StackObjects); the producers (Producer: the sanitizer runtimes,
// libFuzzer, the kernel, Go, Rust, gdb, glibc, Chromium, boost::stacktrace,
// libwebsockets, Valgrind), read from a report's Tool by one table, that
// consumers switch on; the classification of frames (Frame.Class: user
// code, sanitizer runtime, interceptor, libc, C++ runtime; Producer.Class
// adds a producer's own rules); and Select, the filter of reports by tool
// and kind.
//
// Producers fill a report once: package parse from logs, package core the
// frames of core files. Package resolve completes frames the producer left
// unsymbolized; package render writes reports, package wire spells them as
// the JSON documents, and batch buckets them by signature. The model holds
// no grammar, does no I/O and has no JSON form (no json tags: the documents
// are wire's): a consumer never needs to know how a log spelled a report,
// and a producer never needs to know how it will be shown. Lines that an output reproduces verbatim are kept as printed
// (Headline, Location and Summary Text, stack titles, Frame.Raw,
// Report.Raw); nothing parses them again.
package report
