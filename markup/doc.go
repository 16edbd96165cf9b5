// Package markup reads LLVM's symbolizer markup: the elements of a log line
// ({{{reset}}}, {{{module:…}}}, {{{mmap:…}}}, {{{bt:…}}}, {{{pc:…}}},
// {{{data:…}}}, {{{symbol:…}}}, {{{hexdict:…}}}, {{{dumpfile:…}}} and the
// SGR escapes allowed between them), and the contextual state (modules,
// mmaps, resets) that turns a bt or pc address into a module, its build-id
// and an offset in it.
//
// The syntax is LLVM's docs/SymbolizerMarkupFormat.rst as
// llvm-symbolizer 19 reads it (lib/DebugInfo/Symbolize/Markup.cpp and
// MarkupFilter.cpp): an element is the first "{{{" of a line with a "}}}"
// after it; the tag runs to the first ':', the fields are split at every
// ':' after it; an element with an empty tag is text. The checks a field
// gets, their order and their messages are llvm-symbolizer's, so that its
// --filter-markup can be reproduced byte for byte; a few problems llvm
// passes over in silence (an unknown element, a "{{{" never closed) are
// reported too, by Lint, for the decoders that want to warn about them.
//
// The package knows nothing of symbolization: it sits beside the report
// model, below the log parser and the llvm-symbolizer face, which both
// use it. Parsing a line allocates nothing once the Parser's buffers have
// grown; every problem is an *Error with the line number and the byte it
// points at; no input makes it panic.
package markup
