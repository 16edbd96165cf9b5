// Package dropin implements the llvm-symbolizer and GNU addr2line
// command-line faces over the symbolize engine.
//
// The faces are drop-ins: the flag syntax, the query forms and the bytes
// written are those of llvm-symbolizer 14 and binutils addr2line 2.40, so
// the sanitizer runtimes (which talk to an external symbolizer over a pipe)
// and scripts written for those tools work unchanged. The engine decides
// what an address means; this package parses flags and queries, keeps the
// session's modules (in a modcache.Cache bounded by --cache-size; a
// module that cannot be opened reported once per name) and formats
// answers. A panic while answering one query costs that query, not the
// session (llvmSession.respond). Every answer on stdin is written and
// flushed before the next line is read, because a runtime waits for it.
//
// Deliberate differences from the references are listed in
// docs/differences.md under "Symbolizer faces".
package dropin
