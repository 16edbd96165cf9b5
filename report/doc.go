// Package report is the crash-report model: Report, Stack, Frame, Shadow
// and the typed parts of a report's lines (Access, Location, Summary,
// StackObjects), plus the classification of frames (Frame.Class: user
// code, sanitizer runtime, interceptor, libc, C++ runtime; ClassIn adds a
// producer's own rules).
//
// Producers fill a report once: package parse from sanitizer logs, kernel
// logs and the other stack dumps it knows; package core builds a core
// file's frames as Frames. Package resolve completes frames the producer
// left unsymbolized; package render writes reports, package wire spells
// them as the JSON documents, and batch buckets them by signature. The
// model holds no grammar, does no I/O and has no JSON form (no json tags:
// the documents are wire's): a consumer never needs to know how a log
// spelled a report, and a producer never needs to know how it will be
// shown. Lines that an output reproduces verbatim are kept as printed
// (Headline, Location and Summary Text, stack titles, Frame.Raw,
// Report.Raw); nothing parses them again.
package report
