package symbolize

import "errors"

var (
	// ErrNoDebugInfo: the object has neither DWARF nor a symbol table.
	ErrNoDebugInfo = errors.New("no debug information")
	// ErrBuildIDMismatch: a debug file's build-id differs from the binary's.
	ErrBuildIDMismatch = errors.New("build-id mismatch")
	// ErrNotFound: no separate debug file was found.
	ErrNotFound = errors.New("debug file not found")
	// ErrInternal: a lookup met a bug of the engine (a panic), and that
	// one answer was lost; Symbolize's error names the file and address.
	ErrInternal = errors.New("internal error (decoder panic)")
)
