// Package corpustest declares the shared corpus's ground-truth files
// (expected.json, expected_unsymbolized.json) for tests and maps its role
// names to the report model's.
//
// The corpus (shared/corpus, see its README.md) was made by its own tools
// from real sanitizer runs; tests compare sanitrace's parse, rendering and
// symbolization with it. Only the fields some test reads are declared: a
// field is added here, once, when a test needs it. Fields the corpus writes
// as null are pointers; Deref reads them as the zero value.
//
// The package is a leaf: it knows the corpus's JSON, not parse or render,
// so any package's tests can use it.
package corpustest
