package decompress

import "fmt"

// Code is the class of a malformed record, spelled as FORMAT.md §6.3 spells
// it. A Code is itself an error, so errors.Is(err, ErrTruncated) works on
// every error this package returns.
type Code string

func (c Code) Error() string { return string(c) }

// The malformed-input classes of FORMAT.md §6.3, in the order they are checked.
const (
	ErrNoLeadIn         Code = "no-lead-in"
	ErrEmptyPayload     Code = "empty-payload"
	ErrBadBase64Char    Code = "bad-base64-char"
	ErrBadBase64Padding Code = "bad-base64-padding"
	ErrBlobTooShort     Code = "blob-too-short"
	ErrLengthMismatch   Code = "length-mismatch"
	ErrTruncated        Code = "truncated"
	ErrBadReference     Code = "bad-reference"
	ErrValueOutOfRange  Code = "value-out-of-range"
)

// Classes that are not in FORMAT.md: they concern the "~b#" text form, log
// lines and the encoder's input.
const (
	ErrBadBLine     Code = "bad-b-line"    // a "~b#" line not in lws's printf format
	ErrLineTooLong  Code = "line-too-long" // a record on a line longer than the scanner keeps
	ErrTooDeep      Code = "too-deep"      // encoder: more than MaxDepth frames
	ErrUnencodable  Code = "unencodable"   // encoder: a value >= 2^63
	ErrSizeOverflow Code = "size-overflow" // a byte total that does not fit 64 bits
)

// Error is a malformed record or an unencodable backtrace: its Code says
// which class, Detail says where and why.
type Error struct {
	Code   Code
	Detail string
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Detail
}

// Unwrap makes errors.Is(err, ErrXxx) work.
func (e *Error) Unwrap() error { return e.Code }

func errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Detail: fmt.Sprintf(format, args...)}
}
