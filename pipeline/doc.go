// Package pipeline runs sanitrace's streaming data flows over a command's
// inputs, so that the commands only turn flags into options and results
// into exit codes:
//
//   - Decode: log bytes → parse.Scanner → report.Report → resolve.Resolver
//     → render.Writer, one report at a time, the output flushed whenever
//     the next report may have to wait for input; the parser runs on a
//     goroutine of its own, ahead of the one that renders, and a
//     compressed log is inflated on a third, ahead of the parser. With
//     Passthrough, a loop over the scanner's items (parse.Item) gives the
//     whole input back, each report's own lines replaced by its rendering.
//   - LWS: ~m#/~b# records → decompress → (resolve.PCSymbolizer) → the ~b#
//     line and its frames, or a heap map (decompress/lwsheap) written by
//     render.
//   - Core: a core file → resolve.Core (modules, CFI, unwinding, names) →
//     render.WriteCore.
//   - CFI: each ELF file's call frame information as readelf dumps it.
//
// Symbolize is what the symbolization flags say: it opens --obj and makes
// decode's Resolver, so that the commands need neither resolve nor parse.
//
// Inputs are files or "-" for stdin, compressed or not (OpenLog). An
// unreadable input costs a line on stderr and the others are still read;
// a failure to write the output ends the run (a *WriteError), since
// nothing more can be shown.
package pipeline
