// Package render writes every output of sanitrace's own: reports
// (report.Report) as text or JSON, a batch run's document as JSON, SARIF,
// Markdown, HTML or a text summary, a core's report and an lws heap map as
// text or JSON. Each kind of document picks its format by name from one
// table (New, WriteBatch, WriteCore, WriteHeapMap).
//
// Text keeps each report in the shape its producer printed it (look.go,
// keyed on report.Producer: a sanitizer report's headline, access line,
// titled stacks, location lines, summary and shadow map; the kernel's, Go's,
// Rust's and Valgrind's reports line for line as printed, each frame
// replaced by its rendering; gdb, glibc, Chromium and boost frames in their
// own layouts) and adds what the producer could not: completed frames, emphasis on the user's own
// frames over runtime, interceptor and libc frames, optional source context,
// and a decoded shadow-byte map (ExplainShadow). The JSON formats encode
// the documents of package wire (schema v1 of docs/json.md), which also
// converts the model to them: decode's one report at a time, so a long log
// never has to be held in memory, a batch run's a chunk at a time on every
// CPU. The batch formats are written from the run's wire.Batch alone, so a
// merged run prints as the unsharded one does.
//
// The text format, beyond what the runtime printed:
//
//   - Frames keep the numbers the log printed: an inline chain that
//     sanitrace expanded at frame #0 reads "#0.1 pc in inner", "#0 pc in
//     outer", as llvm-symbolizer's markup filter numbers one, and the next
//     frame stays #1 (frameNumber; a stack printed without numbers is
//     numbered by position). A frame line the parser could not read is
//     shown as printed, in its place, with " (unparsed)" (UnparsedMarker).
//     A frame without function and file shows "(module+0xoffset)".
//   - An unattached fragment (frames outside every report) is shown under
//     its own head line (FragmentHead), never as a report.
//   - User frames have their function in bold and file:line:col in cyan;
//     runtime, interceptor, libc and C++ runtime frames (report.ClassIn, by
//     the report's producer) are dim.
//   - Frames whose function/file sanitrace filled in end with " (sanitrace)"
//     (SymbolizedMarker, dim when colors are on): a last field in
//     parentheses, as the runtime's own "(BuildId: ...)", so tools that
//     re-read "#N 0xPC in FUNC FILE:LINE:COL" still find their fields.
//   - After the location lines comes one "Access: ..." line (DescribeAccess)
//     that places the access relative to its heap block, global or stack
//     variable.
//   - Each shadow row is followed by the application range it stands for,
//     then the marked byte is spelled out and the legend lists only the
//     values that occur, each with what it means.
//   - With SourceContext > 0, each user frame is followed by its source
//     lines, the frame's own line marked with ">".
//
// Colors come from github.com/fatih/color, but each color here (an ink:
// its escape sequences, taken once) is switched on or off explicitly from
// Options.Color: the package never reads color.NoColor, which fatih/color
// computes from os.Stdout at init and which is wrong whenever the output
// is not stdout.
package render
