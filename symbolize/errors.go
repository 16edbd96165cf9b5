package symbolize

import "errors"

var (
	// ErrNoDebugInfo: the object has neither DWARF nor a symbol table.
	ErrNoDebugInfo = errors.New("no debug information")
	// ErrBuildIDMismatch: a debug file's build-id differs from the binary's.
	ErrBuildIDMismatch = errors.New("build-id mismatch")
	// ErrNotFound: no separate debug file was found.
	ErrNotFound = errors.New("debug file not found")
)
