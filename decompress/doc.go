// Package decompress decodes and encodes libwebsockets (lws) compressed
// backtraces: the "~m#" log records that lws_alloc_metadata writes for live
// heap allocations, and the "~b#" lines that lws's decoder tool prints.
//
// The format is specified bit for bit in ../shared/lws/FORMAT.md (and in
// docs/lws.md in our own words). In short: a "~m#" lead-in, standard base64
// of a blob, and the blob is a bitstream of depth, frames (literal pcs or
// deltas against one of the eight previous frames) and the allocation size,
// every field followed by one pad bit, zero-filled to a byte and followed by
// a 16-bit big-endian length that counts the whole blob.
//
// The decoder is lenient where lws is (pad bits, trailing user data,
// non-minimal counts, URL-safe or unpadded base64, deltas against frame 0 as
// the later lws encoder writes them) and strict where a log scanner must be:
// every malformed record yields an *Error whose Code is one of the classes of
// FORMAT.md §6.3, usable with errors.Is (for example
// errors.Is(err, decompress.ErrTruncated)).
//
// The encoder writes the canonical README-era lws encoding, bit-exact with
// the published examples.
//
// Scanner streams a log and yields every "~m#" and "~b#" record with its line
// number; its hot path does no per-line allocation.
package decompress
